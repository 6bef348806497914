// A real desk core against a real sandbox over HTTP, with its data in a temp dir. Optionally a
// recording proxy sits between them: it sees every token the core uses (for the leak test) and
// can be taken down to make the service unreachable (connection refused), as on a train.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, systemClock, type Clock } from '../../../src/main/clock/clock';
import { createDeskCore, type DeskCore, type DeskCoreOptions, type SyncTuning } from '../../../src/main/app/create-core';
import { createSecretStore, type SecretStore } from '../../../src/main/secrets';
import { parseJsonLossless } from '../../../src/main/service/lossless-json';
import type { EventName, EventPayload } from '../../../src/shared/ipc/contract';
import { startSandbox, type Fixtures, type RunningSandbox, type Variants } from '../../../src/sandbox/index';
import { controlHeaders, type SandboxRef } from '../../helpers/control';
import { testVariants } from '../../helpers/variants';

export { until } from '../../helpers/wait';

/** Small waits so that retries happen within a test's time. */
export const FAST: Partial<SyncTuning> = {
  retryBackoff: { baseMs: 20, maxMs: 200 },
  probeBackoff: { baseMs: 20, maxMs: 200 },
  requestTimeoutMs: 5_000,
  uncertainGraceMs: 0,
  // No listing lag assumed unless a test plays one: a lost change is called absent at the second look.
  listingLagMs: 0,
  refreshOnStart: false,
};

/** The secret store's in-memory mode (what the app uses when no keychain answers). */
export function memorySecrets(): Promise<SecretStore> {
  return createSecretStore({ service: 'Campaign Desk (tests)', keytar: () => Promise.reject(new Error('no keychain in these tests')) });
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

export async function startProxy(target: string, rewrite?: AnswerRewrite): Promise<Proxy> {
  const tokens = new Set<string>();
  const sockets = new Set<Socket>();
  const t = new URL(target);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) tokens.add(auth.slice(7));
    const up = httpRequest({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        const received = Buffer.concat(chunks);
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
      });
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  let server: Server = createServer(handler);
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    tokens,
    down: stop,
    async up() {
      server = createServer(handler);
      await listen(port);
    },
    close: stop,
  };
}

export interface Env {
  sandbox: RunningSandbox;
  /** Where the core talks to: the proxy when there is one, else the sandbox. */
  serviceUrl: string;
  proxy?: Proxy;
  /** The clock the sandbox and the core share, with `clock: 'manual'` (advance it with sandbox.advance). */
  clock?: ManualClock;
  dataDir: string;
  secrets: SecretStore;
  core: DeskCore;
  events: { event: EventName; payload: unknown }[];
  /** When each of `events` came (performance.now()), index for index. */
  eventTimes: number[];
  /** A new core on the same data dir (the old one must be closed or abandoned first). */
  restart(opts?: Partial<DeskCoreOptions>): Promise<DeskCore>;
  close(): Promise<void>;
}

export interface EnvOptions {
  fixtures?: Fixtures;
  clock?: 'real' | 'manual';
  proxy?: boolean | { rewrite: AnswerRewrite };
  /** Service variants on top of those SANDBOX_VARIANTS picks for the run (test/helpers/variants.ts). */
  variants?: Variants;
  /** Start with the demo profile pointing at this sandbox (default true). */
  demo?: boolean;
  tuning?: Partial<SyncTuning>;
}

export async function startEnv(opts: EnvOptions = {}): Promise<Env> {
  const variants = opts.variants ? { ...testVariants(), ...opts.variants } : testVariants();
  // A manual clock is shared: the sandbox reads and moves it, the core runs its timers on it, so
  // env.sandbox.advance(ms) (or the control API) also fires the engine's retries, grace periods
  // and probes that fall due.
  const manual =
    opts.clock === 'manual' ? new ManualClock(opts.fixtures?.now === undefined ? Date.now() : Date.parse(opts.fixtures.now)) : undefined;
  const clock: Clock = manual ?? systemClock;
  const sandbox = await startSandbox({ port: 0, variants, clock: manual ?? 'real', ...(opts.fixtures ? { fixtures: opts.fixtures } : {}) });
  const proxy = opts.proxy ? await startProxy(sandbox.url, typeof opts.proxy === 'object' ? opts.proxy.rewrite : undefined) : undefined;
  const serviceUrl = proxy?.url ?? sandbox.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-core-'));
  const secrets = await memorySecrets();
  const events: Env['events'] = [];
  const eventTimes: number[] = [];
  const make = async (extra: Partial<DeskCoreOptions> = {}) => {
    const core = await createDeskCore({
      dataDir,
      transport: 'browser',
      version: 'test',
      secrets,
      clock,
      tuning: { ...FAST, ...opts.tuning },
      ...(opts.demo === false ? {} : { demo: { url: serviceUrl } }),
      ...extra,
    });
    for (const e of ['sync.progress', 'outbox.changed', 'connection.changed', 'ratelimit.changed', 'data.changed'] as const) {
      core.events.on(e, (payload: EventPayload<typeof e>) => {
        events.push({ event: e, payload });
        eventTimes.push(performance.now());
      });
    }
    return core;
  };
  const env: Env = {
    sandbox,
    serviceUrl,
    ...(proxy ? { proxy } : {}),
    ...(manual ? { clock: manual } : {}),
    dataDir,
    secrets,
    core: await make(),
    events,
    eventTimes,
    async restart(extra) {
      env.core = await make(extra);
      return env.core;
    },
    async close() {
      await env.core.close();
      await proxy?.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return env;
}

/** Control API of the sandbox, read losslessly: under id_range ids beyond 2^53 come as their digits (strings). */
export async function control(sb: SandboxRef, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: { ...controlHeaders(sb, path), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return parseJsonLossless(await res.text());
}

export async function sandboxCampaigns(sb: SandboxRef, account?: string): Promise<{ id: number; name: string; advertiser_id: string }[]> {
  const r = (await control(sb, 'GET', `/_sandbox/state/campaigns${account ? `?account=${account}` : ''}`)) as {
    campaigns: { id: number; name: string; advertiser_id: string }[];
  };
  return r.campaigns;
}

export const fault = (sb: SandboxRef, spec: Record<string, unknown>) => control(sb, 'POST', '/_sandbox/faults', spec);

/** A valid native campaign draft payload. */
export function campaignPayload(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    branding_text: 'Acme Shoes',
    bid_strategy: 'FIXED',
    cpc: 0.35,
    spending_limit: 1500,
    spending_limit_model: 'MONTHLY',
    marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
    ...overrides,
  };
}

/**
 * With `clock: 'manual'`: lets real I/O (HTTP on 127.0.0.1, the cache writer) finish without moving
 * virtual time, until the service saw no new request, the core emitted no event and the next timer
 * stayed put for a few polls in a row. Bounded by polls, not by the wall clock.
 */
export async function settleIo(env: Env): Promise<void> {
  const clock = env.clock;
  if (!clock) throw new Error('settleIo needs startEnv({ clock: "manual" })');
  let last = '';
  for (let same = 0, i = 0; same < 5 && i < 1000; i++) {
    await new Promise((res) => setTimeout(res, 1));
    const sig = `${env.sandbox.lastRequestSeq()}/${env.events.length}/${clock.nextTimerAt() ?? '-'}`;
    same = sig === last ? same + 1 : 0;
    last = sig;
  }
}

/**
 * With `clock: 'manual'`: advances virtual time timer by timer (at most `stepMs` at once) until
 * `done` holds; throws, naming `what`, once `boundMs` of virtual time passed without it.
 */
export async function advanceUntil(
  env: Env,
  done: () => boolean | Promise<boolean>,
  what: string,
  boundMs: number,
  stepMs = 60_000,
): Promise<void> {
  const clock = env.clock;
  if (!clock) throw new Error('advanceUntil needs startEnv({ clock: "manual" })');
  const start = clock.now();
  for (;;) {
    await settleIo(env);
    if (await done()) return;
    if (clock.now() - start > boundMs) throw new Error(`${what} did not happen within ${Math.round(boundMs / 1000)} s of virtual time`);
    const next = clock.nextTimerAt();
    env.sandbox.advance(next === undefined ? 1_000 : Math.min(Math.max(1, next - clock.now()), stepMs));
  }
}
