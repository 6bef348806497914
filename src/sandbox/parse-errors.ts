// Requests Node's HTTP parser refuses before any route sees them. The limits stay as they are (a
// real server has them too: a campaign_ids list of about a thousand ids overflows the 16 KiB of
// request line and headers), but a request line or headers that are too large get a proper 431
// with a short body in the API's error shape, saying what to do, instead of an empty answer.
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { SandboxCore } from './core';
import { apiError, apiOfPath, type Reply } from './http';
import { httpDate } from './http-date';

const headerLimit = (server: Server): number => (server as Server & { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;

/** The path of the request line at the start of what the parser had, if it is there. */
function pathOf(raw: unknown): string {
  if (!Buffer.isBuffer(raw)) return '/';
  const m = /^[A-Z]+ (\/[^ ?\r\n]*)/.exec(raw.subarray(0, 2048).toString('latin1'));
  return m === null ? '/' : m[1];
}

/** An HTTP/1.1 response as bytes: the parser is gone, so the socket is written directly. */
function responseText(reply: Reply, date: string): string {
  const body = reply.body === undefined ? '' : reply.body.toString();
  const lines = [
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`,
    `date: ${date}`,
    'connection: close',
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(reply.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Node's own answers to the other parse errors (lib/_http_server.js), kept as they are. */
function nodeDefault(code: string | undefined): string {
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';
  return 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
}

export function answerParseErrors(server: Server, core: SandboxCore): void {
  // A socket whose answer to an earlier request is still being written must not get a second
  // status line in the middle of it (the reason Node's default checks the same).
  const answering = new WeakSet<Duplex>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    answering.add(req.socket);
    const done = () => answering.delete(req.socket);
    res.once('finish', done);
    res.once('close', done);
  });

  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable || answering.has(socket)) {
      socket.destroy();
      return;
    }
    let text: string;
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      const limitKiB = Math.round(headerLimit(server) / 1024);
      const message =
        `Request line and headers are larger than ${limitKiB} KiB. ` + 'Split long lists (such as campaign_ids) over several requests.';
      text = responseText(
        apiError(core.variants, apiOfPath(pathOf(err.rawPacket)), 431, message),
        httpDate(core.serviceNow(), core.variants.date_header),
      );
    } else {
      text = nodeDefault(err.code);
    }
    socket.end(text, () => socket.destroy());
  });
}
