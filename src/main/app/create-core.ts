// The composition root of the main-process core: one SQLite store, the secret store, the service
// connections and the sync engine (cache refresh and outbox drain), behind the IPC contract's
// handlers and events. The Electron shell, browser mode and the tests all build the app here.
import { makeDataFilePrivate, makePrivateDataDir } from './private-data';
import { join } from 'node:path';
import { DeskError } from '../../shared/errors';
import type { DeskEventSource, DeskHandlers } from '../../shared/ipc/contract';
import type { CoreContext, Level } from './context';
import { nameIfUnnamed } from './account-names';
import { DEMO_PROFILE_ID, ensureDemoProfile } from './demo';
import { translated } from './errors';
import { deskHandlers } from './handlers';
import type { SecretPort } from '../secrets/secret-port';
import { RateLimitScheduler } from '../ratelimit/scheduler';
import { createSecretStore } from '../secrets';
import { HttpTransport } from '../service';
import { cacheFileOf, DataFileProblem, explainOpenError, openStoreAtStart, type OpenedAtStart } from '../store';
import { createAfterSent } from '../sync/after-sent';
import { createCapabilityLearning } from '../sync/capability-learning';
import { DEFAULT_PROBE_BACKOFF, DEFAULT_RETRY_BACKOFF, type BackoffPolicy } from '../connections/backoff';
import { systemClock, type Clock } from '../clock/clock';
import { Connections } from '../connections/connections';
import { EventHub, throttleByKey } from '../events/event-hub';
import { OutboxDrainer } from '../sync/outbox-drain';
import { DEFAULT_LISTING_LAG_MS } from '../sync/posted';
import { Refresher } from '../sync/refresh';

export type SecretStore = SecretPort;

/** Knobs for tests and benchmarks; the app uses the defaults. */
export interface SyncTuning {
  /** How long a request may wait for the answer's headers (default 30 s). */
  requestTimeoutMs: number;
  retryBackoff: BackoffPolicy;
  probeBackoff: BackoffPolicy;
  /** 5xx answers tolerated per item before it is failed with a Retry button (default 5). */
  maxServerAttempts: number;
  /** Wait after the latest send before looking for an item whose answer was lost (default: the request timeout). */
  uncertainGraceMs: number;
  /**
   * How long a listing may take to show a change after it was sent (default 60 s): a lost change is
   * called absent, and a campaign just posted is removed by a refresh, only after it.
   */
  listingLagMs: number;
  /** How long an uncertain change may hold its account's other changes back (default 5 minutes). */
  laneHoldMs: number;
  /** Campaigns per list page (default 1000, the largest the service serves). */
  pageSize: number;
  /** How long the unpaged listing may take to start answering before a refresh reads pages (default 15 s). */
  listingStartMs?: number;
  /** Refresh the demo profile at start-up (default true). */
  refreshOnStart: boolean;
}

export interface DeskCoreOptions {
  dataDir: string;
  transport: 'electron' | 'browser';
  version: string;
  demo?: { url: string };
  openExternal?: (url: string) => Promise<void>;
  secrets?: SecretStore;
  /**
   * The time of every part of the engine, timers included (default: the system clock). Tests pass
   * the ManualClock that drives their sandbox: advancing it fires the drainer's retries and grace
   * periods, the scheduler's waits and the connections' probes.
   */
  clock?: Clock;
  tuning?: Partial<SyncTuning>;
  /**
   * The person chose to start fresh after being told the data file is damaged or not ours: it is
   * moved aside (kept) and an empty one is started. Without it such a file stops the start-up with
   * a DeskError whose details say so (dataFile, canStartFresh), for the shell to ask.
   */
  startFresh?: boolean;
}

export interface DeskCore {
  handlers: DeskHandlers;
  events: DeskEventSource;
  close(): Promise<void>;
}

export const DATABASE_FILE = 'campaign-desk.sqlite';
/** The keychain service name: the app's name. */
export const SECRET_SERVICE = 'Campaign Desk';

/** The store, or a DeskError that tells the person what is wrong with the file and whether starting fresh can help. */
function openDataFile(dataDir: string, now: () => number, startFresh: boolean): OpenedAtStart {
  const file = join(dataDir, DATABASE_FILE);
  try {
    makePrivateDataDir(dataDir);
    return openStoreAtStart({ file, clock: { now }, startFresh, at: () => new Date(now()) });
  } catch (caught) {
    // The folder's refusals (a file in its place, a read-only disk) are the data file's too.
    const e = explainOpenError(caught, file);
    if (!(e instanceof DataFileProblem)) throw e;
    const details: Record<string, unknown> = { dataFile: e.kind, canStartFresh: e.canStartFresh, file: e.file };
    if (e.version !== undefined) details.version = e.version;
    throw new DeskError('database', e.message, details);
  }
}

export async function createDeskCore(opts: DeskCoreOptions): Promise<DeskCore> {
  const clock = opts.clock ?? systemClock;
  const now = () => clock.now();
  const tuning: SyncTuning = {
    requestTimeoutMs: 30_000,
    retryBackoff: DEFAULT_RETRY_BACKOFF,
    probeBackoff: DEFAULT_PROBE_BACKOFF,
    maxServerAttempts: 5,
    listingLagMs: DEFAULT_LISTING_LAG_MS,
    laneHoldMs: 5 * 60_000,
    pageSize: 1000,
    refreshOnStart: true,
    ...opts.tuning,
    uncertainGraceMs: opts.tuning?.uncertainGraceMs ?? opts.tuning?.requestTimeoutMs ?? 30_000,
  };
  const { store, movedAside } = openDataFile(opts.dataDir, now, opts.startFresh === true);
  makeDataFilePrivate(join(opts.dataDir, DATABASE_FILE));
  makeDataFilePrivate(cacheFileOf(join(opts.dataDir, DATABASE_FILE)));
  let secrets: SecretPort;
  // The cache writer (a worker thread) starts meanwhile; a refresh waits for nothing once it runs.
  const cacheProblem = store.ready.then(
    () => null,
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  try {
    secrets = opts.secrets ?? (await createSecretStore({ service: SECRET_SERVICE }));
  } catch (e) {
    await store.close();
    throw e;
  }
  const hub = new EventHub();
  const transport = new HttpTransport({ headersTimeoutMs: tuning.requestTimeoutMs, bodyTimeoutMs: tuning.requestTimeoutMs });
  const scheduler = new RateLimitScheduler({ clock });
  const log = (profileId: string | null, accountId: string | null, level: Level, kind: string, message: string) => {
    try {
      store.activity.log({ profileId, accountId, kind, message, details: { level } });
      hub.emit('data.changed', { profileId, accountId, what: 'activity' });
    } catch {
      // The log must never break the work it describes (e.g. a profile removed meanwhile).
    }
  };

  // Said where the person looks: without its writer the campaign cache cannot be refreshed.
  const cannotWriteCache = await cacheProblem;
  if (cannotWriteCache !== null) log(null, null, 'error', 'store.cache', cannotWriteCache);

  // Items a crash left "sending" may or may not have reached the service: they are looked for
  // before anything is sent again.
  const interrupted = store.outbox.recoverInterrupted();
  const notes = store.sendNotes;
  const inFlight = (seq: number) => {
    const item = store.outbox.get(seq);
    return item !== undefined && (item.state === 'queued' || item.state === 'sending' || item.state === 'uncertain') ? item : undefined;
  };
  notes.prune((seq) => inFlight(seq) !== undefined);

  // Built bottom-up: connections, then the refresher and drainer that use them. A connection coming
  // back online resumes the drainer and refetches apps; that callback only runs after start-up (a
  // probe answer arrives asynchronously), when both below exist.
  const connections: Connections = new Connections({
    store,
    secrets,
    hub,
    clock,
    transport,
    scheduler,
    probeBackoff: tuning.probeBackoff,
    ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
    note: (profileId, level, kind, message) => log(profileId, null, level, kind, message),
    onOnline: (profileId) => {
      drainer.resume(profileId);
      refresher.apps.appsAfterReconnect(profileId);
    },
  });
  const refresher = new Refresher({
    store,
    connections,
    hub,
    clock,
    pageSize: tuning.pageSize,
    listingLagMs: tuning.listingLagMs,
    retryBackoff: tuning.retryBackoff,
    ...(tuning.listingStartMs !== undefined ? { listingStartMs: tuning.listingStartMs } : {}),
    note: (profileId, accountId, level, kind, message) => log(profileId, accountId, level, kind, message),
  });
  // An account still shown by id gets its name when its own refresh ends (start-up, a manual one,
  // after signing in), as when it is added (account-names.ts).
  hub.on('sync.progress', (p) => {
    if (p.state !== 'done') return;
    const named = nameIfUnnamed(store, p);
    if (!named) return;
    // Said once, so the person knows why the id they typed now reads as a name.
    log(
      p.profileId,
      p.accountId,
      'info',
      'account.named',
      `Account ${p.accountId} is "${named.name}" on the service: shown by that name from now on.`,
    );
    hub.emit('data.changed', { profileId: p.profileId, accountId: null, what: 'accounts' });
  });
  // What an account may use is learned from what the service posts and refuses (DECISIONS client 13).
  const capabilities = createCapabilityLearning(store, hub, log);
  const withCapabilitiesLearned =
    (afterSent: ReturnType<typeof createAfterSent>): ReturnType<typeof createAfterSent> =>
    async (item, result) => {
      try {
        if (result.kind === 'create_campaign') capabilities.posted(item);
      } catch {
        // Learning is a bonus: the send itself succeeded and the caches must still be updated.
      }
      return afterSent(item, result);
    };
  const drainer = new OutboxDrainer({
    store,
    connections,
    hub,
    notes,
    clock,
    retryBackoff: tuning.retryBackoff,
    maxServerAttempts: tuning.maxServerAttempts,
    uncertainGraceMs: tuning.uncertainGraceMs,
    listingLagMs: tuning.listingLagMs,
    laneHoldMs: tuning.laneHoldMs,
    note: log,
    afterSent: withCapabilitiesLearned(createAfterSent(store, hub, refresher)),
    afterRefused: (item, refusal) => {
      try {
        capabilities.refused(item, refusal);
      } catch {
        // The refusal is recorded on the item whatever this learns.
      }
      // A push refused for access: an app may have been withdrawn. The apps are read again, so one
      // the service no longer lists leaves the composer's picker now, not at the next start.
      if (item.kind === 'send_push' && (refusal.status === 403 || refusal.status === 404)) void refresher.apps.refreshApps(item.profileId);
    },
  });
  const ctx: CoreContext = {
    store,
    secrets,
    hub,
    scheduler,
    notes,
    now,
    connections,
    refresher,
    drainer,
    info: { version: opts.version, transport: opts.transport },
    demo: opts.demo ?? null,
    log,
  };

  const rateEvents = throttleByKey(250, (profileId) => hub.emit('ratelimit.changed', { profileId }));
  const unsubscribe = scheduler.subscribe(() => {
    for (const p of store.profiles.list()) rateEvents.request(p.id);
  });

  const handlers = translated(deskHandlers(ctx)) satisfies DeskHandlers;

  try {
    if (movedAside) log(null, null, 'warning', 'data.moved_aside', movedAside.note);
    if (secrets.kind === 'memory' && secrets.warning) log(null, null, 'warning', 'secrets.memory', secrets.warning);
    if (interrupted > 0) {
      log(
        null,
        null,
        'warning',
        'outbox.interrupted',
        `${interrupted} change(s) were being sent when the app stopped; checking the service before sending them again.`,
      );
    }
    if (opts.demo) await ensureDemoProfile(ctx);
  } catch (e) {
    await closeAll();
    throw e;
  }
  ctx.drainer.kick();
  // Every connection is 'Not checked yet' until its service answers: ask each once, now.
  void connections.checkOnStart();
  if (opts.demo && tuning.refreshOnStart && store.profiles.get(DEMO_PROFILE_ID)) void ctx.refresher.refreshProfile(DEMO_PROFILE_ID);

  let closing: Promise<void> | undefined;
  async function closeAll(): Promise<void> {
    unsubscribe();
    rateEvents.close();
    ctx.refresher.close();
    // Queued requests are cancelled (never sent); requests on the wire finish first.
    scheduler.close();
    await ctx.drainer.close();
    await ctx.connections.close();
    await transport.close();
    hub.close();
    // Until the store worker's connection is closed too, the database's -wal and -shm files stay.
    await store.close();
  }

  return {
    handlers,
    events: hub,
    close: () => (closing ??= closeAll()),
  };
}
