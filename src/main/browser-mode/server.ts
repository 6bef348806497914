// Browser mode's transport: the contract over HTTP (`POST /api/<channel>`, JSON) and events over
// one WebSocket (`/events`), on 127.0.0.1 only, plus the built renderer as static files. Every
// refusal happens before the dispatch, so a refused request cannot change anything.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DeskEventSource, DeskHandlers } from '../../shared/ipc/contract';
import type { ErrorCode, Result } from '../../shared/errors';
import {
  HTTP_API_PREFIX,
  MAX_BODY_BYTES,
  TOKEN_HEADER,
  WS_EVENTS_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
} from '../../shared/ipc/wire';
import { buildCsp, staticSecurityHeaders } from '../web/csp';
import { dispatch, invalidInput, type DispatchLog } from '../app/dispatch';
import { subscribeAll } from '../app/event-forwarding';
import { readStaticFile } from '../web/static-files';
import { BodyTooLarge, declaredTooLarge, isJsonContentType, readBody } from './body';
import { createGuards, newToken, tokenMatches, type Guards } from './guards';
import { listenOnLoopback } from './listen';
import { answerHeaders, FAILED_TO_ANSWER, sendWhole } from './respond';

export interface BrowserServerOptions {
  handlers: DeskHandlers;
  events: DeskEventSource;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Tests may fix the token; a run normally gets a fresh random one. */
  token?: string;
  log?: DispatchLog;
}

export interface BrowserServer {
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  token: string;
  /** The address to open: the token rides in the fragment, which browsers never send to a server. */
  openUrl: string;
  close(): Promise<void>;
}

const API_HEADERS = answerHeaders('application/json; charset=utf-8', "default-src 'none'; frame-ancestors 'none'");

function sendJson(res: ServerResponse, status: number, body: Result<unknown>, extra: Record<string, string> = {}): void {
  sendWhole(res, status, API_HEADERS, JSON.stringify(body), extra);
}

function refusal(code: ErrorCode, message: string): Result<never> {
  return { ok: false, error: { code, message } };
}

const MESSAGES = {
  host: 'Refused: this server only answers to 127.0.0.1 or localhost on its own port.',
  origin: 'Refused: requests must come from the Campaign Desk page itself.',
  token: 'Refused: the access token is missing or wrong. Open the address printed by "npm run start:browser" again.',
  method: 'Only POST is accepted here.',
  type: 'The request body must be JSON (Content-Type: application/json).',
  size: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
  json: 'The request body is not valid JSON.',
};

/** The token offered as a WebSocket subprotocol ("desk-token.<token>"), if any. */
function tokenFromProtocols(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const offered = header.split(',').map((s) => s.trim());
  return offered.find((p) => p.startsWith(WS_TOKEN_PROTOCOL_PREFIX))?.slice(WS_TOKEN_PROTOCOL_PREFIX.length);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

export async function startBrowserServer(opts: BrowserServerOptions): Promise<BrowserServer> {
  const token = opts.token ?? newToken();
  const log = opts.log ?? ((m: string) => console.error(m));
  let guards: Guards | null = null;
  let staticHeaders: Record<string, string> = {};
  const sockets = new Set<WebSocket>();

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    // Select our protocol, never echo the token one back.
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  wss.on('connection', (ws) => {
    sockets.add(ws);
    const off = subscribeAll(
      opts.events,
      (envelope) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(envelope));
      },
      log,
    );
    ws.on('close', () => {
      off();
      sockets.delete(ws);
    });
    // The socket only carries events to the page; anything sent the other way is ignored.
    ws.on('message', () => undefined);
    ws.on('error', () => ws.terminate());
  });

  async function handleApi(req: IncomingMessage, res: ServerResponse, pathname: string, g: Guards): Promise<void> {
    if (req.method !== 'POST') return sendJson(res, 405, refusal('invalid_input', MESSAGES.method), { allow: 'POST' });
    if (!g.originAllowed(req.headers.origin)) return sendJson(res, 403, refusal('forbidden', MESSAGES.origin));
    const given = req.headers[TOKEN_HEADER];
    if (!tokenMatches(token, typeof given === 'string' ? given : undefined)) {
      return sendJson(res, 401, refusal('unauthorized', MESSAGES.token));
    }
    if (!isJsonContentType(req.headers['content-type'])) return sendJson(res, 415, refusal('invalid_input', MESSAGES.type));
    if (declaredTooLarge(req, MAX_BODY_BYTES)) {
      sendJson(res, 413, refusal('invalid_input', MESSAGES.size), { connection: 'close' });
      req.destroy();
      return;
    }
    let raw: Buffer;
    try {
      raw = await readBody(req, MAX_BODY_BYTES);
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        sendJson(res, 413, refusal('invalid_input', MESSAGES.size), { connection: 'close' });
        req.destroy();
      }
      return;
    }
    let input: unknown;
    try {
      input = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'));
    } catch {
      return sendJson(res, 400, invalidInput(MESSAGES.json));
    }
    let channel: string;
    try {
      channel = decodeURIComponent(pathname.slice(HTTP_API_PREFIX.length));
    } catch {
      channel = '';
    }
    sendJson(res, 200, await dispatch(opts.handlers, channel, input, { log }));
  }

  async function handleStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...staticHeaders, allow: 'GET, HEAD' });
      res.end();
      return;
    }
    const file = await readStaticFile(opts.staticDir, pathname);
    if (!file) {
      res.writeHead(404, { ...staticHeaders, 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found');
      return;
    }
    res.writeHead(200, {
      ...staticHeaders,
      'content-type': file.contentType,
      'content-length': file.body.length,
      'cache-control': 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const server = createServer((req, res) => {
    const g = guards;
    if (!g || !g.hostAllowed(req.headers.host)) {
      // Also refuses before guards exist (cannot happen once listening, but fail closed).
      sendJson(res, 403, refusal('forbidden', MESSAGES.host));
      req.resume();
      return;
    }
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    } catch {
      sendJson(res, 400, invalidInput('Malformed request address.'));
      return;
    }
    // The API is told by the address as sent: URL parsing resolves dot segments, so "/api/.."
    // would otherwise reach the static files and answer a call without the API's JSON.
    const sent = (req.url ?? '/').split('?')[0];
    const work = sent.startsWith(HTTP_API_PREFIX)
      ? handleApi(req, res, sent, g)
      : pathname === WS_EVENTS_PATH
        ? Promise.resolve(sendJson(res, 426, refusal('invalid_input', 'This address is a WebSocket.'), { upgrade: 'websocket' }))
        : handleStatic(req, res, pathname);
    work.catch(() => {
      log('[desk] browser mode: a request failed unexpectedly');
      if (!res.headersSent) sendJson(res, 500, refusal('internal', FAILED_TO_ANSWER));
      else res.destroy();
    });
  });

  server.on('upgrade', (req, socket, head) => {
    const g = guards;
    const url = req.url ?? '';
    if (!g || !g.hostAllowed(req.headers.host)) return refuseUpgrade(socket, 403, 'Forbidden');
    if (new URL(url, 'http://127.0.0.1').pathname !== WS_EVENTS_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    // Browsers always send Origin on a WebSocket: an absent one is not a page of ours either.
    if (req.headers.origin === undefined || !g.originAllowed(req.headers.origin)) return refuseUpgrade(socket, 403, 'Forbidden');
    const protocols = req.headers['sec-websocket-protocol'];
    if (!tokenMatches(token, tokenFromProtocols(protocols))) return refuseUpgrade(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const port = await listenOnLoopback(server, opts.port);
  guards = createGuards(port);
  const csp = buildCsp({ connectSrc: guards.origins.map((o) => o.replace(/^http:/, 'ws:')) });
  staticHeaders = staticSecurityHeaders(csp);
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    token,
    openUrl: `${origin}/#token=${token}`,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
