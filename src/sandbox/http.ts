// The HTTP plumbing shared by every route: replies as values (so a fault can swallow one after the
// request was applied), error bodies in the shape of the API a path belongs to, bounded body
// reading, and strict content-type and JSON parsing that answer 4xx rather than throwing.
import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { createBrotliCompress, createDeflate, createGzip } from 'node:zlib';
import type { Budget, LimitedGroup } from './rate-limiter';
import type { Variants } from './variants';
import { toJson } from './json-writer';

/** Header fields of a reply; an array is sent as one field line per element (RFC 9110 5.3). */
export type ReplyHeaders = Record<string, string | string[]>;

export interface Reply {
  status: number;
  headers?: ReplyHeaders;
  body?: string | Buffer;
  /**
   * Instead of `body`: the body's text made piece by piece as it is sent (a listing of a million
   * campaigns is ~500 MB, more than one string may hold, and its first byte must not wait for its
   * last). Each call starts the pieces again from the first (cut_body measures the whole first).
   */
  stream?: () => Iterable<string>;
  /** A streamed body's length in bytes when it is known (then announced as Content-Length; otherwise chunked). */
  streamLength?: number;
  /** Content codings applied to a streamed body on the way out, in order (variant compress). */
  streamCodings?: readonly string[];
  /** The connection is dropped after this many bytes of the body (variant cut_body). */
  cutAfterBytes?: number;
  /** The headers are held back this many ms of real time (variant slow_start). */
  holdMs?: number;
}

/** Which API a path belongs to decides the shape of its error bodies (DECISIONS sandbox 5, 10). */
export type ApiKind = 'campaign' | 'push' | 'oauth' | 'html' | 'control' | 'cdn';

export interface LogInfo {
  account: string | null;
  group: LimitedGroup | null;
  budget: Budget | null;
  limited: boolean;
}

export interface RequestContext {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The service's clock when the request is handled (core.serviceNow(): clock_offset_ms included). */
  now: number;
  log: LogInfo;
}

export type Handler = (ctx: RequestContext, params: readonly string[]) => Reply;

export interface Route {
  pattern: RegExp;
  api: ApiKind;
  methods: Partial<Record<string, Handler>>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonReply(status: number, value: unknown, headers?: ReplyHeaders): Reply {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: toJson(value) };
}

export function htmlReply(status: number, html: string, headers?: ReplyHeaders): Reply {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      ...headers,
    },
    body: html,
  };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface ErrorOptions {
  /** Added to the reply (e.g. www-authenticate, the rate-limit headers). */
  headers?: ReplyHeaders;
  /** Further members of the body (the 429's violated_policies): RFC 9457 extension members. */
  extensions?: Record<string, unknown>;
}

export const PROBLEM_TYPE = 'application/problem+json';

/**
 * An error in the API's own shape (DECISIONS sandbox 5, 10). Under the problem_json variant the
 * campaign and push APIs answer RFC 9457 problem details instead; the token endpoint keeps RFC
 * 6749's body and the control API its own, whatever the variant, since neither is the service's
 * choice to make.
 */
export function apiError(variants: Variants, api: ApiKind, status: number, message: string, opts: ErrorOptions = {}): Reply {
  const { headers, extensions } = opts;
  if (variants.problem_json && (api === 'campaign' || api === 'push')) {
    // "about:blank": the status code says it all, so the title is the status phrase (RFC 9457 4.2.1).
    const problem = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail: message, ...extensions };
    return { status, headers: { 'content-type': PROBLEM_TYPE, ...headers }, body: JSON.stringify(problem) };
  }
  // error_shape "message_list": the campaign API's errors (7.3: their shape is not shown; the 429's
  // is, 7.2) in the shape a common server framework writes: the messages as a list, the status
  // phrase as `error`.
  if (variants.error_shape === 'message_list' && api === 'campaign' && status !== 429) {
    return jsonReply(status, { statusCode: status, message: [message], error: STATUS_CODES[status] ?? 'Error', ...extensions }, headers);
  }
  switch (api) {
    case 'push':
      return jsonReply(status, { httpStatus: status, message, ...extensions }, headers);
    case 'oauth':
      return jsonReply(status, { error: status >= 500 ? 'server_error' : 'invalid_request', error_description: message }, headers);
    case 'html':
      return htmlReply(status, `<!doctype html><title>Error</title><p>${escapeHtml(message)}</p>`, headers);
    case 'control':
    case 'cdn':
      return jsonReply(status, { error: message }, headers);
    default:
      return jsonReply(status, { http_status: status, message, ...extensions }, headers);
  }
}

/** The API of a path nobody routes, for its 404 body. */
export function apiOfPath(path: string): ApiKind {
  if (path.startsWith('/epsilon/') || path === '/epsilon') return 'push';
  if (path.startsWith('/_sandbox/') || path === '/_sandbox') return 'control';
  if (path.startsWith('/authentication/oauth/authorize')) return 'html';
  if (path.startsWith('/authentication/') || path === '/core/oauth/token') return 'oauth';
  return 'campaign';
}

function mediaType(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

export function isJsonContent(headers: IncomingHttpHeaders): boolean {
  const t = mediaType(headers);
  return t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));
}

export function isFormContent(headers: IncomingHttpHeaders): boolean {
  return mediaType(headers) === 'application/x-www-form-urlencoded';
}

/** JSON.parse that reports failure as undefined instead of throwing (deep nesting included). */
export function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

export const BODY_LIMIT = 1024 * 1024;
/** Past this we stop draining and drop the connection after answering 413. */
const DRAIN_LIMIT = 32 * BODY_LIMIT;

export type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'too_large'; drained: boolean } | { kind: 'aborted' };

const EMPTY = Buffer.alloc(0);

export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/**
 * Reads the body up to `limit` bytes. A larger body is drained (not kept) so that the 413 reaches a
 * client that is still writing; a body far too large stops being drained.
 */
export function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<BodyResult> {
  if (!hasBody(req)) return Promise.resolve({ kind: 'ok', body: EMPTY });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT) return Promise.resolve({ kind: 'too_large', drained: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult) => {
      if (done) return;
      done = true;
      resolve(r);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) {
        req.pause();
        finish({ kind: 'too_large', drained: false });
      }
    });
    req.on('end', () => finish(size > limit ? { kind: 'too_large', drained: true } : { kind: 'ok', body: Buffer.concat(chunks, size) }));
    req.on('aborted', () => finish({ kind: 'aborted' }));
    req.on('error', () => finish({ kind: 'aborted' }));
  });
}

export function sendReply(res: ServerResponse, reply: Reply, closeAfter = false): void {
  if (reply.stream !== undefined && reply.status !== 204 && reply.status !== 304) {
    sendStream(res, reply, closeAfter).catch((e: unknown) => {
      // The client went away, or a bug: either way this answer cannot be finished.
      if (!res.destroyed) console.error('sandbox: a streamed answer failed', e);
      res.destroy();
    });
    return;
  }
  const headers: ReplyHeaders = { ...reply.headers };
  const noBody = reply.status === 204 || reply.status === 304;
  const body = noBody ? '' : (reply.body ?? '');
  if (!noBody) headers['content-length'] = String(Buffer.byteLength(body));
  if (closeAfter) headers.connection = 'close';
  res.writeHead(reply.status, headers);
  if (reply.cutAfterBytes !== undefined && !noBody) {
    // The whole length was announced; part of the body goes out, then the connection drops.
    const bytes = Buffer.from(body);
    res.write(bytes.subarray(0, Math.min(reply.cutAfterBytes, bytes.length - 1)), () => res.socket?.destroy());
    return;
  }
  res.end(body);
}

/** Pieces are gathered to about this many characters per write: one socket write per row would cost more than the row. */
const STREAM_WRITE_CHARS = 64 * 1024;

const ENCODERS: Record<string, () => Writable & NodeJS.ReadableStream> = {
  gzip: createGzip,
  deflate: createDeflate,
  br: createBrotliCompress,
};

/**
 * A streamed body: the headers at once, then the pieces as they are made, gathered into writes of
 * ~64 KB and held back while the client does not read (so memory holds a few writes, never the
 * body). Without a known length the body goes chunked (RFC 9112 7.1). Coded bodies go through zlib
 * streams; cutAfterBytes ends the connection after that many bytes of the body (cut_body).
 */
async function sendStream(res: ServerResponse, reply: Reply, closeAfter: boolean): Promise<void> {
  const headers: ReplyHeaders = { ...reply.headers };
  if (reply.streamLength !== undefined) headers['content-length'] = String(reply.streamLength);
  if (closeAfter) headers.connection = 'close';
  res.writeHead(reply.status, headers);
  if (res.req.method === 'HEAD') {
    res.end();
    return;
  }
  // The coders are chained in the order applied, the last one writing to the response.
  const coders = (reply.streamCodings ?? []).map((c) => ENCODERS[c]());
  let out: Writable = res;
  for (let i = coders.length - 1; i >= 0; i--) {
    coders[i].pipe(out);
    out = coders[i];
  }
  // Waits while the receiver's buffer is full (backpressure); stops once the client is gone.
  let closed = false;
  let wake: (() => void) | null = null;
  res.once('close', () => {
    closed = true;
    wake?.();
  });
  const put = async (bytes: Buffer) => {
    if (closed) throw new Error('the connection closed');
    if (!out.write(bytes)) await new Promise<void>((resolve) => ((wake = resolve), out.once('drain', resolve)));
    wake = null;
    if (closed) throw new Error('the connection closed');
  };
  const cut = reply.cutAfterBytes;
  let sent = 0;
  let pending = '';
  /** Writes what is gathered; false once cut_body's count of bytes is reached. */
  const flush = async (): Promise<boolean> => {
    if (pending === '') return true;
    let bytes = Buffer.from(pending);
    pending = '';
    if (cut !== undefined && sent + bytes.length > cut) bytes = bytes.subarray(0, cut - sent);
    sent += bytes.length;
    await put(bytes);
    return cut === undefined || sent < cut;
  };
  let whole = true;
  for (const piece of reply.stream!()) {
    pending += piece;
    if (pending.length >= STREAM_WRITE_CHARS && !(await flush())) {
      whole = false;
      break;
    }
  }
  if (whole && !(await flush())) whole = false;
  if (whole) {
    out.end();
    return;
  }
  // cut_body: what was sent reaches the client, then the connection drops.
  res.write('', () => res.socket?.destroy());
}
