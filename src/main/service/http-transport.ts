// One keep-alive undici Pool per origin. The transport's main job besides moving bytes is to tell
// "certainly not sent" (safe to resend) from "sent, outcome unknown": undici calls
// onRequestStart right before it writes the request to a connected socket, so any failure
// before that call left the server untouched, and any failure after it may not have.
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { ACCEPT_ENCODING, codingsToUndo, decodedStream, decodeWhole, UnknownCodingError } from './content-coding';
import { ServiceError } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT' | 'HEAD';

export interface HttpRequest {
  method: HttpMethod;
  /** Absolute URL. */
  url: string | URL;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Overrides the transport's headers timeout for this request. */
  headersTimeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names, as undici delivers them. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface TransportOptions {
  /** Sockets per origin (default 16). */
  connections?: number;
  keepAliveTimeoutMs?: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Larger response bodies (decoded) fail with kind 'protocol' (default 16 MiB). */
  maxBodyBytes?: number;
}

/** Redirects followed per request (RFC 9110 15.4 lets a client bound them). */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * An answer whose body is read as it arrives (stream()): status and headers first, then the body
 * as a Node stream. Reading slower than the network pauses the socket (bounded memory), and a
 * failure mid-body destroys the stream with a ServiceError classified like send()'s.
 */
export interface StreamingResponse {
  status: number;
  headers: HttpResponse['headers'];
  body: Readable;
}

/** Bytes of a streamed body held before the socket is paused. */
const STREAM_HIGH_WATER = 256 * 1024;

class BodyTooLargeError extends Error {}

const CONNECT_CODES: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ENOTFOUND: 'could not be found (check the address and your internet connection)',
  EAI_AGAIN: 'could not be looked up (check your internet connection)',
  EHOSTUNREACH: 'cannot be reached from this network',
  ENETUNREACH: 'cannot be reached: the network is down',
  UND_ERR_CONNECT_TIMEOUT: 'did not accept a connection in time',
};

export class HttpTransport {
  readonly #pools = new Map<string, Pool>();
  readonly #opts: Required<TransportOptions>;
  #closed = false;

  constructor(opts: TransportOptions = {}) {
    this.#opts = {
      connections: opts.connections ?? 16,
      keepAliveTimeoutMs: opts.keepAliveTimeoutMs ?? 4_000,
      connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
      headersTimeoutMs: opts.headersTimeoutMs ?? 30_000,
      bodyTimeoutMs: opts.bodyTimeoutMs ?? 30_000,
      maxBodyBytes: opts.maxBodyBytes ?? 16 * 1024 * 1024,
    };
  }

  #pool(origin: string): Pool {
    let p = this.#pools.get(origin);
    if (!p) {
      p = new Pool(origin, {
        connections: this.#opts.connections,
        pipelining: 1,
        keepAliveTimeout: this.#opts.keepAliveTimeoutMs,
        connectTimeout: this.#opts.connectTimeoutMs,
        headersTimeout: this.#opts.headersTimeoutMs,
        bodyTimeout: this.#opts.bodyTimeoutMs,
      });
      this.#pools.set(origin, p);
    }
    return p;
  }

  /**
   * One request and its whole answer, decoded (content codings) and after same-origin redirects.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    let current = withAcceptEncoding(req);
    for (let hops = 0; ; hops++) {
      const res = await this.#sendOnce(current);
      const next = redirectTarget(current, res.status, res.headers, hops);
      if (!next) return res;
      current = next;
    }
  }

  #sendOnce(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    const host = url.host;
    const max = this.#opts.maxBodyBytes;
    return new Promise<HttpResponse>((resolve, reject) => {
      if (this.#closed) {
        reject(closedError());
        return;
      }
      let headers: HttpResponse['headers'] = {};
      let codings: string[] = [];
      const chunks: Buffer[] = [];
      let size = 0;
      const flight = new Flight(req.signal, host, isSafe(req.method), reject);
      if (!flight.watch()) return;

      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(ctrl) {
          flight.requestStart(ctrl);
        },
        onResponseStart(ctrl, statusCode, hdrs) {
          if (!flight.answer(statusCode)) return;
          headers = hdrs as HttpResponse['headers'];
          try {
            codings = codingsToUndo(headers['content-encoding']);
          } catch (e) {
            ctrl.abort(e as Error);
            return;
          }
          // The limit is on the decoded body; a coded one is checked as it is decoded.
          const declared = Number(hdrs['content-length']);
          if (codings.length === 0 && Number.isFinite(declared) && declared > max) ctrl.abort(new BodyTooLargeError());
        },
        onResponseData(ctrl, chunk) {
          size += chunk.length;
          if (size > max) ctrl.abort(new BodyTooLargeError());
          else chunks.push(chunk);
        },
        onResponseEnd() {
          if (!flight.settle()) return;
          const raw = Buffer.concat(chunks);
          decodeWhole(raw, codings, max, (reason) => unreadableBody(host, flight.status, reason)).then(
            (body) =>
              body === null
                ? reject(classify(new BodyTooLargeError(), flight.progress(max)))
                : resolve({ status: flight.status, headers, body }),
            reject,
          );
        },
        onResponseError(_ctrl, err) {
          flight.failFrom(err, max);
        },
      };
      this.#dispatch(url, req, handler, (e) => flight.fail(e));
    });
  }

  /**
   * Like send(), but resolves once the headers are in, with the body as a stream: for answers too
   * large to hold (a whole campaign listing is ~50 MB). No size limit applies to the body; the
   * reader decides how much it keeps. send() stays the path of every other request.
   */
  async stream(req: HttpRequest): Promise<StreamingResponse> {
    let current = withAcceptEncoding(req);
    for (let hops = 0; ; hops++) {
      const res = await this.#streamOnce(current);
      const next = redirectTarget(current, res.status, res.headers, hops);
      if (!next) return res;
      // The redirect's own body is not wanted.
      res.body.destroy();
      current = next;
    }
  }

  #streamOnce(req: HttpRequest): Promise<StreamingResponse> {
    const url = new URL(req.url);
    const host = url.host;
    return new Promise<StreamingResponse>((resolve, reject) => {
      if (this.#closed) {
        reject(closedError());
        return;
      }
      // Created with the headers; until then failures reject the promise.
      let body: Readable | null = null;
      const flight = new Flight(req.signal, host, isSafe(req.method), (e) => {
        if (body) body.destroy(e);
        else reject(e);
      });
      if (!flight.watch()) return;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(ctrl) {
          flight.requestStart(ctrl);
        },
        onResponseStart(ctrl, statusCode, hdrs) {
          if (!flight.answer(statusCode)) return;
          const headers = hdrs as HttpResponse['headers'];
          let codings: string[];
          try {
            codings = codingsToUndo(headers['content-encoding']);
          } catch (e) {
            ctrl.abort(e as Error);
            return;
          }
          body = new Readable({
            highWaterMark: STREAM_HIGH_WATER,
            // The reader wants more: let the socket deliver again.
            read: () => ctrl.resume(),
            destroy: (err, cb) => {
              // The reader stopped early (or failed): the rest of the answer is not wanted.
              if (flight.settle()) ctrl.abort(new Error('cancelled'));
              cb(err);
            },
          });
          const decoded = decodedStream(body, codings, STREAM_HIGH_WATER, (reason) => unreadableBody(host, statusCode, reason));
          resolve({ status: flight.status, headers, body: decoded });
        },
        onResponseData(ctrl, chunk) {
          // Over the high-water mark: hold the socket until the reader catches up.
          if (body && !body.push(chunk)) ctrl.pause();
        },
        onResponseEnd() {
          if (flight.settle()) body?.push(null);
        },
        onResponseError(_ctrl, err) {
          flight.failFrom(err, Infinity);
        },
      };
      this.#dispatch(url, req, handler, (e) => flight.fail(e));
    });
  }

  /** Hands the request to its origin's pool; a request undici cannot even build fails through `fail`. */
  #dispatch(url: URL, req: HttpRequest, handler: Dispatcher.DispatchHandler, fail: (e: ServiceError) => void): void {
    try {
      this.#pool(url.origin).dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: req.method,
          headers: req.headers,
          body: req.body,
          headersTimeout: req.headersTimeoutMs ?? this.#opts.headersTimeoutMs,
          bodyTimeout: this.#opts.bodyTimeoutMs,
        },
        handler,
      );
    } catch (err) {
      fail(
        new ServiceError({
          kind: 'protocol',
          requestWritten: false,
          message: `The request to ${url.host} could not be built: ${err instanceof Error ? err.message : 'unknown error'}`,
        }),
      );
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((p) => p.close().catch(() => p.destroy())));
  }
}

/**
 * One request on its way, for send() and stream() alike: whether its bytes may have gone out,
 * the caller's signal tied to it until it settles, and settling once (an abort racing the answer,
 * or a failure after the end, changes nothing).
 */
class Flight {
  /** undici is writing (or wrote) the request: from here a failure may have reached the service. */
  started = false;
  /** The answer's status once its headers are in; 0 before. */
  status = 0;
  #settled = false;
  #controller: Dispatcher.DispatchController | undefined;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly host: string,
    /** A read (RFC 9110 9.2.1): nothing it did can have changed the service, whatever became of it. */
    private readonly safe: boolean,
    private readonly onFail: (e: ServiceError) => void,
  ) {}

  readonly #onAbort = (): void => {
    this.fail(abortedError(this.signal, this.host, this.started, this.safe));
    this.#controller?.abort(new Error('cancelled'));
  };

  /** Starts watching the caller's signal; false when it had fired already (the request then failed). */
  watch(): boolean {
    if (this.signal?.aborted) {
      this.#onAbort();
      return false;
    }
    this.signal?.addEventListener('abort', this.#onAbort, { once: true });
    return true;
  }

  requestStart(ctrl: Dispatcher.DispatchController): void {
    this.#controller = ctrl;
    // Cancelled while queued in the pool: stop before a byte is written.
    if (this.#settled) ctrl.abort(new Error('cancelled'));
    else this.started = true;
  }

  /** The headers of an answer are in; false for an interim (1xx) one, which is not the answer awaited. */
  answer(statusCode: number): boolean {
    if (statusCode < 200) return false;
    this.status = statusCode;
    return true;
  }

  /** undici failed the request: said by how far it got (`max`: the body limit, for the message). */
  failFrom(err: Error, max: number): void {
    this.fail(classify(err, this.progress(max)));
  }

  progress(max: number): Progress {
    return { started: this.started, safe: this.safe, answered: this.status !== 0, status: this.status, host: this.host, max };
  }

  /** Ends the request; true only the first time, for the caller to deliver its outcome. */
  settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.signal?.removeEventListener('abort', this.#onAbort);
    return true;
  }

  fail(e: ServiceError): void {
    if (this.settle()) this.onFail(e);
  }
}

const closedError = (): ServiceError =>
  new ServiceError({ kind: 'cancelled', requestWritten: false, message: 'The connection to the service was closed' });

/** Methods that only read (RFC 9110 9.2.1): a failure of one is never "may have been applied". */
const isSafe = (method: string | undefined) => ['GET', 'HEAD', 'OPTIONS'].includes((method ?? 'GET').toUpperCase());

/** The caller's signal fired: a timeout of theirs or a cancel, after or before a byte was written. */
function abortedError(signal: AbortSignal | undefined, host: string, started: boolean, safe: boolean): ServiceError {
  const reason: unknown = signal?.reason;
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  const maybe = started && !safe ? '; it may or may not have been applied' : '';
  return new ServiceError({
    kind: timedOut ? 'timeout' : 'cancelled',
    requestWritten: started,
    message: timedOut ? `The request to ${host} took too long and was stopped${maybe}` : `The request to ${host} was cancelled${maybe}`,
  });
}

interface Progress {
  started: boolean;
  safe: boolean;
  answered: boolean;
  status: number;
  host: string;
  max: number;
}

/** An answer that arrived but cannot be read (`reason`: what is wrong with its body). */
function unreadableBody(host: string, status: number, reason: string): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    requestWritten: true,
    status,
    message: `The answer of the service at ${host} could not be read: ${reason}.`,
  });
}

/** The request with Accept-Encoding naming the codings this transport decodes, unless it names its own. */
function withAcceptEncoding(req: HttpRequest): HttpRequest {
  const has = Object.keys(req.headers ?? {}).some((k) => k.toLowerCase() === 'accept-encoding');
  return has ? req : { ...req, headers: { ...req.headers, 'accept-encoding': ACCEPT_ENCODING } };
}

/**
 * Where a redirect sends the request next (RFC 9110 15.4), or null when the answer is not one to
 * follow (no Location, or not 301/302/303/307/308). Only the same origin is followed: the request
 * carries the bearer token, which must never reach another server, so a redirect elsewhere is an
 * error that says so. 303 turns the request into a GET without a body; the others repeat it as it
 * was (the method kept, as 307 and 308 require and 301 and 302 allow).
 */
function redirectTarget(req: HttpRequest, status: number, headers: HttpResponse['headers'], hops: number): HttpRequest | null {
  const location = headers.location;
  if (!REDIRECT_STATUSES.has(status) || typeof location !== 'string' || location === '') return null;
  const from = new URL(req.url);
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return null;
  }
  const written = { requestWritten: true, status } as const;
  if (to.origin !== from.origin) {
    throw new ServiceError({
      ...written,
      kind: 'protocol',
      message: `The service at ${from.host} redirected the request to another server (${to.origin}); it was not followed, so that the sign-in goes to no other server. Check the connection's addresses.`,
    });
  }
  if (hops + 1 > MAX_REDIRECTS) {
    throw new ServiceError({
      ...written,
      kind: 'protocol',
      message: `The service at ${from.host} redirected the request more than ${MAX_REDIRECTS} times; it was not followed further.`,
    });
  }
  if (status === 303 && req.method !== 'GET' && req.method !== 'HEAD') {
    const headersWithoutBody = Object.fromEntries(Object.entries(req.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'content-type'));
    return { ...req, method: 'GET', url: to, headers: headersWithoutBody, body: undefined };
  }
  return { ...req, url: to };
}

function classify(err: Error, p: Progress): ServiceError {
  const code = (err as { code?: unknown }).code;
  if (err instanceof UnknownCodingError) return unreadableBody(p.host, p.status, err.message);
  if (err instanceof BodyTooLargeError) {
    return new ServiceError({
      kind: 'protocol',
      requestWritten: true,
      status: p.status,
      message: `The service at ${p.host} sent a response larger than ${p.max} bytes; it was not read`,
    });
  }
  if (!p.started) {
    const what = typeof code === 'string' ? CONNECT_CODES[code] : undefined;
    return new ServiceError({
      kind: 'network',
      requestWritten: false,
      message: `The service at ${p.host} ${what ?? 'could not be reached'}. Nothing was sent; check your connection and try again.`,
    });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ServiceError({
      kind: 'timeout',
      requestWritten: true,
      ...(p.answered ? { status: p.status } : {}),
      message: p.safe
        ? `The service at ${p.host} did not answer in time. Nothing was changed by it; try again in a moment.`
        : `The service at ${p.host} did not answer in time. The request may or may not have been applied; check before sending it again.`,
    });
  }
  return new ServiceError({
    kind: 'outcome_unknown',
    requestWritten: true,
    ...(p.answered ? { status: p.status } : {}),
    message: p.safe
      ? `The connection to ${p.host} was lost ${p.answered ? 'while the answer was coming' : 'before the answer came'}. Nothing was changed by it; try again in a moment.`
      : `The connection to ${p.host} was lost after the request was sent. It may or may not have been applied; check before sending it again.`,
  });
}
