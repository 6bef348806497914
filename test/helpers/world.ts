// The one test world: a real desk core against a real sandbox over HTTP, with its data in a temp
// dir, its secrets in memory, and (with `clock: 'manual'`) one ManualClock the sandbox and the core
// share. Optionally a recording proxy sits between them (proxy.ts): it sees every token the core
// uses (for the leak test) and can be taken down to make the service unreachable (connection
// refused), as on a train. Beside it, the waits of virtual time and the core flows every test of
// the outbox uses. Talking to the sandbox itself is sandbox.ts's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PROFILE_ID } from '../../src/main/app/demo';
import { ManualClock, systemClock, type Clock } from '../../src/main/clock/clock';
import { createDeskCore, type DeskCore, type DeskCoreOptions, type SyncTuning } from '../../src/main/app/create-core';
import { createSecretStore, type SecretStore } from '../../src/main/secrets';
import type { ProfileCreate } from '../../src/shared/domain/profile';
import type { EventName, EventPayload, OutboxItem, Profile } from '../../src/shared/ipc/contract';
import { startSandbox, type Fixtures, type RunningSandbox, type Variants } from '../../src/sandbox/index';
import { startProxy, type AnswerRewrite, type Proxy } from './proxy';
import { testVariants } from './variants';
import { until } from './wait';

/** The demo connection's profile, which the world points at its sandbox (unless `demo: false`). */
export const P = DEMO_PROFILE_ID;

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

export async function outboxItem(e: Env, id: string): Promise<OutboxItem | undefined> {
  return (await e.core.handlers['outbox.list']({ profileId: P })).find((i) => i.id === id);
}

/** Waits until the item is sent, failed or blocked. */
export async function settled(e: Env, id: string, timeoutMs = 30_000): Promise<OutboxItem> {
  return until(
    async () => {
      const item = await outboxItem(e, id);
      return item && ['sent', 'failed', 'blocked'].includes(item.state) ? item : undefined;
    },
    `outbox item ${id} to settle`,
    timeoutMs,
  );
}

/** Saves a campaign draft of the demo connection's `account` and queues it, as the editor's Queue does. */
export async function submitCampaign(e: Env, account: string, payload: Record<string, unknown>): Promise<OutboxItem> {
  const d = await e.core.handlers['drafts.save']({ kind: 'campaign', profileId: P, accountId: account, payload });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

/**
 * A connection the person adds to this world's service (beside the demo's): demo-client signing in
 * with client credentials, named Agency, unless `over` says otherwise; `url` points all three
 * addresses elsewhere (the sandbox itself when a proxy stands before it).
 */
export function addConnection(e: Env, over: Partial<ProfileCreate> & { url?: string } = {}): Promise<Profile> {
  const { url = e.serviceUrl, ...rest } = over;
  return e.core.handlers['profiles.create']({
    name: 'Agency',
    baseUrl: url,
    authUrl: url,
    pushUrl: url,
    clientId: 'demo-client',
    clientSecret: 'demo-secret',
    flow: 'client_credentials',
    redirectUri: null,
    ...rest,
  });
}
