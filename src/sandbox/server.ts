// The HTTP server: routing, body limits, injected faults, the request log, and prompt shutdown.
// node:http with keep-alive, one dispatch per request, no per-request scans beyond the route table.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authRoutes } from './auth-routes';
import { campaignRoutes } from './campaign-routes';
import { cdnReply } from './cdn';
import { compressed } from './codings';
import { inJsonText } from './json-text';
import { controlRoutes } from './control-routes';
import { CONTROL_SECRET_ENV, CONTROL_SECRET_HEADER, controlSecretMatches } from './control-secret';
import type { SandboxCore } from './core';
import {
  apiError,
  apiOfPath,
  BODY_LIMIT,
  readBody,
  sendReply,
  type ApiKind,
  type Handler,
  type Reply,
  type ReplyHeaders,
  type RequestContext,
  type Route,
} from './http';
import { httpDate } from './http-date';
import { answerParseErrors } from './parse-errors';
import { pushLimitedRoutes } from './push-limit';
import { pushRoutes } from './push-routes';
import { outcomeOf, type Outcome } from './request-log';
import { taskRoutes } from './task-routes';

type Match = { handler: Handler; params: string[]; api: ApiKind } | { handler?: undefined; api: ApiKind; allow?: string };

function match(routes: readonly Route[], method: string, path: string): Match {
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (m === null) continue;
    const handler = r.methods[method] ?? (method === 'HEAD' ? r.methods.GET : undefined);
    if (handler) return { handler, params: m.slice(1), api: r.api };
    const methods = Object.keys(r.methods);
    if (methods.includes('GET')) methods.push('HEAD');
    return { api: r.api, allow: methods.join(', ') };
  }
  return { api: apiOfPath(path) };
}

function splitTarget(target: string): { path: string; query: URLSearchParams } {
  if (!target.startsWith('/')) {
    // Absolute-form targets (RFC 9112 3.2.2) are rare but legal.
    try {
      const u = new URL(target);
      return { path: u.pathname, query: u.searchParams };
    } catch {
      return { path: target, query: new URLSearchParams() };
    }
  }
  const q = target.indexOf('?');
  return q < 0
    ? { path: target, query: new URLSearchParams() }
    : { path: target.slice(0, q), query: new URLSearchParams(target.slice(q + 1)) };
}

const isControlPath = (path: string): boolean => path.startsWith('/_sandbox/') || path === '/_sandbox';
const isLoopbackHost = (host: string | undefined): boolean => host !== undefined && /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/i.test(host);
const isCdnPath = (path: string): boolean => path === '/_cdn' || path.startsWith('/_cdn/');
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Where the redirect variant sends API requests: the same path under this prefix, same origin. */
export const REDIRECT_ALIAS = '/alias';
const isServiceApi = (api: ApiKind): boolean => api === 'campaign' || api === 'push';
/** A request that changes the service's data (the token endpoint issues, it does not write). */
const isApiWrite = (method: string, api: ApiKind): boolean => WRITE_METHODS.has(method) && (api === 'campaign' || api === 'push');

/**
 * Variant transient_5xx: now and then a request of the campaign or push API fails with 502 or 503
 * before anything is applied (DECISIONS sandbox 12), its Retry-After in one of the forms RFC 9110
 * allows, or none. Drawn from core.choices, so a seed replays the same failures.
 */
function transientFailure(core: SandboxCore, api: ApiKind): Reply | undefined {
  if (!core.choices.chance(core.variants.transient_5xx ?? 0)) return undefined;
  const status = core.choices.pick([502, 503]);
  const seconds = core.choices.int(1, 3);
  const form = core.choices.pick(['seconds', 'date', 'none'] as const);
  const headers: Record<string, string> = {};
  if (form === 'seconds') headers['retry-after'] = String(seconds);
  // A date is on the service's clock, as its Date header (whole seconds: the date has no finer unit).
  if (form === 'date')
    headers['retry-after'] = httpDate(Math.ceil(core.serviceNow() / 1000) * 1000 + seconds * 1000, core.variants.date_header);
  return apiError(core.variants, api, status, status === 502 ? 'Bad gateway' : 'Service temporarily unavailable', { headers });
}

/**
 * Variant request_timeout: now and then the service says it did not receive the whole request in
 * time (RFC 9110 15.5.9) and closes the connection, before anything is applied.
 */
function timedOutRequest(core: SandboxCore, api: ApiKind): Reply | undefined {
  if (!core.choices.chance(core.variants.request_timeout ?? 0)) return undefined;
  return apiError(core.variants, api, 408, 'The request did not arrive in time');
}

/** Variant token_unavailable: now and then the token endpoint is unavailable (503), nothing issued. */
function tokenEndpointDown(core: SandboxCore): Reply | undefined {
  if (!core.choices.chance(core.variants.token_unavailable ?? 0)) return undefined;
  const seconds = core.choices.int(1, 3);
  const headers: Record<string, string> = core.choices.chance(0.5) ? { 'retry-after': String(seconds) } : {};
  return apiError(core.variants, 'oauth', 503, 'The authorization server is temporarily unavailable', { headers });
}

export interface SandboxServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export async function startServer(core: SandboxCore, port: number, controlSecret: string): Promise<SandboxServer> {
  const routes: Route[] = [
    ...campaignRoutes(core),
    ...pushLimitedRoutes(core, [...pushRoutes(core), ...taskRoutes(core)]),
    ...authRoutes(core),
    ...controlRoutes(core),
  ];
  const timers = new Set<NodeJS.Timeout>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  function run(m: Match, ctx: RequestContext): Reply {
    if (!m.handler) {
      return m.allow === undefined
        ? apiError(core.variants, m.api, 404, 'Not found')
        : apiError(core.variants, m.api, 405, `Method ${ctx.method} is not allowed here`, { headers: { allow: m.allow } });
    }
    try {
      return m.handler(ctx, m.params);
    } catch (e) {
      // A bug, not bad input: answer like a real server would and say what happened on stderr.
      console.error('sandbox: internal error on', ctx.method, ctx.path, e);
      return apiError(core.variants, m.api, 500, 'Internal server error');
    }
  }

  /**
   * Queues a dropped write to run `delayMs` later on the sandbox clock, stamped with the service
   * time at which it was due. A manual clock gets there through requests and clock moves (both
   * apply what is due first); a real clock gets a timer as well.
   */
  function applyLater(m: Match, ctx: RequestContext, delayMs: number, record: (status: number | null, outcome: Outcome) => void): void {
    core.lateWrites.add(core.clock.now() + delayMs, (dueAt) => {
      ctx.now = core.serviceTimeAt(dueAt);
      const status = run(m, ctx).status;
      record(status, 'late_applied');
      if (status < 400) core.changed();
    });
    if (core.clock.mode === 'real') {
      const t = setTimeout(() => {
        timers.delete(t);
        core.applyDueWrites();
      }, delayMs);
      timers.add(t);
    }
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    core.applyDueWrites();
    const method = req.method ?? 'GET';
    const target = splitTarget(req.url ?? '/');
    const { query } = target;
    let path = target.path;
    // The Date header is the service's clock (RFC 9110 6.6.1): clients read service time from it.
    res.setHeader('date', httpDate(core.serviceNow(), core.variants.date_header));
    if (isCdnPath(path)) {
      sendReply(
        res,
        method === 'GET' || method === 'HEAD'
          ? cdnReply()
          : apiError(core.variants, 'cdn', 405, 'Method not allowed', { headers: { allow: 'GET, HEAD' } }),
      );
      return;
    }
    const logged = !isControlPath(path);
    if (!logged && !isLoopbackHost(req.headers.host)) {
      // A web page could reach 127.0.0.1 through DNS rebinding; it must not reset or steer the sandbox.
      sendReply(res, apiError(core.variants, 'control', 403, 'the control API only answers requests addressed to 127.0.0.1 or localhost'));
      return;
    }
    if (!logged && !controlSecretMatches(controlSecret, req.headers[CONTROL_SECRET_HEADER])) {
      // Any page the person visits can send a request to 127.0.0.1: only the sandbox's starter knows this.
      sendReply(
        res,
        apiError(
          core.variants,
          'control',
          403,
          `the control API needs the ${CONTROL_SECRET_HEADER} header with this run's secret (npm run sandbox prints it, or takes one with --control-secret or ${CONTROL_SECRET_ENV}; startSandbox returns it as controlSecret)`,
        ),
      );
      return;
    }
    // redirect: an API request is first sent to its alias on the same origin (as a front server
    // moving an API may); the alias is served like the address itself.
    const redirect = core.variants.redirect;
    if (redirect !== undefined && logged) {
      if (path.startsWith(`${REDIRECT_ALIAS}/`)) path = path.slice(REDIRECT_ALIAS.length);
      else if (isServiceApi(apiOfPath(path))) {
        const search = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
        await readBody(req);
        sendReply(res, { status: redirect, headers: { location: `${REDIRECT_ALIAS}${path}${search}` }, body: '' });
        return;
      }
    }
    const m = match(routes, method, path);
    const api = logged && isServiceApi(m.api);
    const coding = core.variants.compress;
    const jsonText = core.variants.json_text;
    const send = (reply: Reply, closeAfter = false) => {
      // early_hints: a 103 right before the answer (an interim answer the client must pass over).
      if (api && core.variants.early_hints) res.writeEarlyHints({ link: '</_cdn/>; rel=preconnect' });
      // json_text: the same JSON in another legal text (token answers too: a client reads them alike).
      if (jsonText !== undefined && (api || (logged && m.api === 'oauth'))) reply = inJsonText(reply, jsonText);
      // compress: the answer in a content coding the request accepts.
      sendReply(res, api && coding !== undefined ? compressed(reply, coding, req.headers['accept-encoding']) : reply, closeAfter);
    };
    const ctx: RequestContext = {
      method,
      path,
      query,
      headers: req.headers,
      body: Buffer.alloc(0),
      now: core.serviceNow(),
      log: { account: null, group: null, budget: null, limited: false },
    };
    const record = (status: number | null, outcome: Outcome) => {
      if (!logged) return;
      const { account, group, budget, limited } = ctx.log;
      core.log.add({ time: ctx.now, method, path, sort: query.get('sort'), account, group, budget, limited, status, outcome });
    };

    const body = await readBody(req);
    if (body.kind === 'aborted') return;
    if (body.kind === 'too_large') {
      const reply = apiError(core.variants, m.api, 413, `Request body is larger than ${BODY_LIMIT} bytes`);
      record(413, 'client_error');
      sendReply(res, reply, !body.drained);
      return;
    }
    ctx.body = body.body;

    const fault = logged ? core.faults.take(method, path) : undefined;
    if (fault?.mode === 'close_before') {
      ctx.now = core.serviceNow();
      record(null, 'fault_close_before');
      req.socket.destroy();
      return;
    }
    if (fault?.mode === 'status_500') {
      ctx.now = core.serviceNow();
      record(500, 'fault_500');
      send(apiError(core.variants, m.api, 500, 'Internal server error'));
      return;
    }
    if (fault?.mode === 'status_503') {
      ctx.now = core.serviceNow();
      record(503, 'fault_503');
      const after = fault.retry_after;
      // Seconds, or an HTTP-date on the service clock under retry_after_date (RFC 9110 10.2.3).
      const retryAfter: ReplyHeaders =
        after === null
          ? {}
          : { 'retry-after': core.variants.retry_after_date ? httpDate(ctx.now + after * 1000, core.variants.date_header) : String(after) };
      send(apiError(core.variants, m.api, 503, 'Service unavailable', { headers: retryAfter }));
      return;
    }
    if (fault?.mode === 'delay') await sleep(fault.delay_ms ?? 0);

    if (fault?.mode === 'close_after' && core.variants.late_apply_ms !== undefined && m.handler && isApiWrite(method, m.api)) {
      // late_apply_ms: the connection drops before the write is applied; it is applied later.
      record(null, 'fault_close_after');
      req.socket.destroy();
      applyLater(m, ctx, core.variants.late_apply_ms, record);
      return;
    }
    core.applyDueWrites();
    ctx.now = core.serviceNow();
    const transient = m.handler && (m.api === 'campaign' || m.api === 'push') ? transientFailure(core, m.api) : undefined;
    if (transient) {
      record(transient.status, 'server_error');
      sendReply(res, transient);
      return;
    }
    const servedApi = m.handler !== undefined && (m.api === 'campaign' || m.api === 'push' || m.api === 'oauth');
    const timedOut = servedApi ? timedOutRequest(core, m.api) : undefined;
    if (timedOut) {
      record(timedOut.status, outcomeOf(timedOut.status));
      // The connection is not used again (RFC 9110 15.5.9: a new one serves the repeat).
      sendReply(res, timedOut, true);
      return;
    }
    const tokenDown = m.handler && m.api === 'oauth' ? tokenEndpointDown(core) : undefined;
    if (tokenDown) {
      record(tokenDown.status, 'server_error');
      sendReply(res, tokenDown);
      return;
    }
    const reply = run(m, ctx);
    // A write that was applied (the API's, or a control one such as a reset): whoever keeps the
    // world between runs is told. A refused request applied nothing (DECISIONS sandbox 12).
    if (reply.status < 400 && (isApiWrite(method, m.api) || (m.api === 'control' && WRITE_METHODS.has(method)))) core.changed();
    if (reply.holdMs !== undefined) await sleep(reply.holdMs);
    if (fault?.mode === 'close_after') {
      record(reply.status, 'fault_close_after');
      req.socket.destroy();
      return;
    }
    record(reply.status, outcomeOf(reply.status));
    send(reply);
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    dispatch(req, res).catch((e: unknown) => {
      console.error('sandbox: request failed', e);
      if (!res.headersSent) sendReply(res, apiError(core.variants, apiOfPath(req.url ?? '/'), 500, 'Internal server error'), true);
    });
  };

  const server = createServer({ requestTimeout: 30_000, headersTimeout: 20_000, noDelay: true }, onRequest);
  server.keepAliveTimeout = 10_000;
  answerParseErrors(server, core);
  // Answer 413 before the client sends a body it announced as too large.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length'] ?? 0) > BODY_LIMIT) {
      sendReply(res, apiError(core.variants, apiOfPath(req.url ?? '/'), 413, `Request body is larger than ${BODY_LIMIT} bytes`), true);
      return;
    }
    res.writeContinue();
    onRequest(req, res);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;

  return {
    server,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
