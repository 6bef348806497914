// Proxies a test puts between the core and the sandbox, all on one small forwarding server: one that
// records every token the core uses and can be taken down and up again (the service unreachable,
// as on a train), one that rewrites requests and answers the way another legal service would where
// the sandbox has no variant for it, and one that answers some requests itself (a refusal).
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Listening {
  url: string;
  /** Stops listening and drops every open connection: a client is refused, as by a host that is down. */
  down(): Promise<void>;
  /** Listens again, on the same port. */
  up(): Promise<void>;
}

/** A server on 127.0.0.1 (a free port) that tracks its connections, so that taking it down drops them. */
async function listening(handler: Handler): Promise<Listening> {
  const sockets = new Set<Socket>();
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createServer(handler);
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    down: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
    up: async () => void (await listen(port)),
  };
}

/**
 * Sends `req` on to `target` (at `path`, its own by default) and hands the answer to `answer`; the
 * connection dropped by the sandbox (a close fault) drops ours too, as the service would.
 */
function forward(target: URL, req: IncomingMessage, res: ServerResponse, answer: (r: IncomingMessage) => void, path = req.url): void {
  const up = httpRequest({ host: target.hostname, port: target.port, method: req.method, path, headers: req.headers }, answer);
  up.on('error', () => res.destroy());
  req.pipe(up);
}

/** The whole body of an answer, then `done` with it. */
function readAll(r: IncomingMessage, done: (body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  r.on('data', (c: Buffer) => chunks.push(c));
  r.on('end', () => done(Buffer.concat(chunks)));
}

export interface Proxy {
  url: string;
  /** Every bearer token and token-endpoint answer body seen. */
  tokens: Set<string>;
  /** Refuse connections (the server stops listening) until up() is called. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Changes the body of an answer on its way back (another service's legal choices, or a faulty
 * one); `path` includes the query string. Returning undefined passes the answer through.
 */
export type AnswerRewrite = (path: string, body: Buffer) => Buffer | undefined;

/** The proxy of the test world (startEnv({ proxy })): records tokens, can go down, may rewrite answers. */
export async function startProxy(target: string, rewrite?: AnswerRewrite): Promise<Proxy> {
  const tokens = new Set<string>();
  const t = new URL(target);
  const server = await listening((req, res) => {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) tokens.add(auth.slice(7));
    forward(t, req, res, (r) =>
      readAll(r, (received) => {
        const body = (rewrite && req.url ? rewrite(req.url, received) : undefined) ?? received;
        if (req.url?.includes('/oauth/token')) {
          try {
            const j = JSON.parse(body.toString()) as Record<string, unknown>;
            for (const k of ['access_token', 'refresh_token']) if (typeof j[k] === 'string') tokens.add(j[k] as string);
          } catch {
            // not JSON: nothing to record
          }
        }
        const headers = { ...r.headers };
        if (body !== received) {
          delete headers['transfer-encoding'];
          headers['content-length'] = String(body.length);
        }
        res.writeHead(r.statusCode ?? 502, headers);
        res.end(body);
      }),
    );
  });
  return { url: server.url, tokens, down: server.down, up: server.up, close: server.down };
}

export interface RewritingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A proxy in front of the sandbox that changes requests or answers the way another legal service
 * would behave: `query` may rewrite a request's query string, `status` an answer's status code,
 * `body` an answer's body.
 */
export async function rewritingProxy(
  target: string,
  rewrite: {
    query?(path: string, query: URLSearchParams): void;
    status?(method: string, path: string, status: number): number;
    body?(method: string, path: string, body: Buffer): Buffer | undefined;
  },
): Promise<RewritingProxy> {
  const t = new URL(target);
  const server = await listening((req, res) => {
    const url = new URL(req.url ?? '/', target);
    rewrite.query?.(url.pathname, url.searchParams);
    const qs = url.searchParams.toString();
    const method = req.method ?? 'GET';
    const answer = (r: IncomingMessage) =>
      readAll(r, (received) => {
        const body = rewrite.body?.(method, url.pathname, received) ?? received;
        const status = rewrite.status?.(method, url.pathname, r.statusCode ?? 502) ?? r.statusCode ?? 502;
        const headers = { ...r.headers };
        delete headers['transfer-encoding'];
        headers['content-length'] = String(body.length);
        res.writeHead(status, headers);
        res.end(body);
      });
    forward(t, req, res, answer, `${url.pathname}${qs ? `?${qs}` : ''}`);
  });
  return { url: server.url, close: server.down };
}

/** An answer a proxy gives itself instead of the service's (status and headers), or undefined to pass the request on. */
export type Refusal = (url: URL) => { status: number; headers: Record<string, string> } | undefined;

/** Forwards to `target` as the answer streams, except that `refuse` may answer a request itself. */
export async function refusingProxy(target: string, refuse: Refusal): Promise<RewritingProxy> {
  const t = new URL(target);
  const server = await listening((req, res) => {
    const own = refuse(new URL(req.url ?? '/', target));
    if (own) {
      req.resume();
      res.writeHead(own.status, { 'content-type': 'application/json', ...own.headers });
      res.end(JSON.stringify({ http_status: own.status, message: 'Service temporarily unavailable' }));
      return;
    }
    forward(t, req, res, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
  });
  return { url: server.url, close: server.down };
}
