// A profile's applications (auth-apps) and each application's tasks: fetched into the cache on
// sign-in, a manual refresh, or when a screen needs them; tasks are read only when the person
// looks at an app's tasks (DECISIONS client 19), never for every app unasked.
import { DeskError } from '../../shared/errors';
import type { ConnectionView } from '../connections/connections';
import type { Priority } from '../ratelimit/scheduler';
import type { RefreshDeps, RefreshOutcome } from './refresh';
import { describeFailure } from './refresh-words';

/** What is known about fetching a profile's apps (in memory: a new run starts afresh). */
interface AppsState {
  /** The fetch under way: `apps` settles once the apps are stored or failed, `all` when it is done. */
  running: { apps: Promise<void>; all: Promise<RefreshOutcome> } | null;
  /** A fetch of the apps has ended (either way) in this run. */
  fetched: boolean;
  /** Why none are known: the last fetch's error, or why none could be made; null after success. */
  failure: unknown;
  /** Apps whose tasks were read (or asked for) since the apps were last fetched: the next look reads no more. */
  tasksRead: Set<string>;
}

/** Why a profile's apps cannot be fetched now, for a screen that has none to show. */
function notReachable({ connection, signIn }: ConnectionView): DeskError {
  // A lost secret is not the service's fault: say what is missing, and what helps.
  if (connection === 'failing' && signIn.needsSecret)
    return new DeskError(
      'unauthorized',
      `${signIn.message ?? 'The client secret is missing from the keychain.'} The applications are fetched once it is entered.`,
    );
  switch (connection) {
    case 'working_offline':
      return new DeskError('offline', 'You work offline: the applications of this connection are fetched when you go online.');
    case 'signing_in':
      return new DeskError('offline', 'Signing in: the applications of this connection are fetched once that is done.');
    case 'failing':
      return new DeskError('unauthorized', 'Sign in to this connection: its applications are fetched once it is signed in.');
    default:
      return new DeskError(
        'offline',
        'The service cannot be reached now: the applications of this connection are fetched when it answers again.',
      );
  }
}

export class AppsRefresher {
  readonly #deps: RefreshDeps;
  readonly #apps = new Map<string, AppsState>();
  #closed = false;

  constructor(deps: RefreshDeps) {
    this.#deps = deps;
  }

  /**
   * auth-apps, replacing the cache. A call while one runs for the profile joins it. Failures go to
   * the activity log and are kept for appsWanted(). The tasks are not read here (DECISIONS client
   * 19): reading every app's tasks unasked spent a tight push read budget the person's own reads
   * then waited for. Each app's tasks are read when the person looks at them (tasksWanted), and
   * again at the next look after this fetch.
   */
  refreshApps(profileId: string): Promise<RefreshOutcome> {
    const st = this.#appsState(profileId);
    if (st.running) return st.running.all;
    const { connections } = this.#deps;
    if (this.#closed) return Promise.resolve('skipped');
    if (!connections.canUse(profileId)) {
      // Nothing can be asked now; the next sign-in or return online fetches them.
      if (!st.fetched) st.failure = notReachable(connections.view(profileId));
      return Promise.resolve('skipped');
    }
    const apps = this.#fetchApps(profileId, st);
    const all = apps.then((appIds): RefreshOutcome => {
      if (appIds === null) return 'failed';
      st.tasksRead.clear();
      // A Tasks tab that is open reads its list again, and with it the app's tasks.
      this.#deps.hub.emit('data.changed', { profileId, accountId: null, what: 'tasks' });
      return 'done';
    });
    st.running = { apps: apps.then(() => undefined), all };
    void all.finally(() => {
      if (st.running?.all === all) st.running = null;
    });
    return all;
  }

  /**
   * For a screen that finds no apps cached: fetches them, once (a failed fetch is not repeated at
   * every look; sign-in, a manual refresh or the connection coming back fetch again), and waits
   * for the apps themselves (their tasks follow). Says why none are known when that failed.
   */
  async appsWanted(profileId: string): Promise<{ failure: unknown }> {
    const { store } = this.#deps;
    if (store.apps.list(profileId).length > 0) return { failure: null };
    const st = this.#appsState(profileId);
    if (!st.running && !st.fetched) void this.refreshApps(profileId);
    await st.running?.apps;
    return { failure: store.apps.list(profileId).length > 0 ? null : st.failure };
  }

  /**
   * The connection can be reached (or is signed in) again: apps it has none of, because a fetch
   * failed or none could be made, are fetched now.
   */
  appsAfterReconnect(profileId: string): void {
    const st = this.#appsState(profileId);
    if (st.running || this.#deps.store.apps.list(profileId).length > 0) return;
    if (st.failure !== null || !st.fetched) void this.refreshApps(profileId);
  }

  /** The profile is gone: forget what was learned about its apps. */
  forgetApps(profileId: string): void {
    this.#apps.delete(profileId);
  }

  #appsState(profileId: string): AppsState {
    let st = this.#apps.get(profileId);
    if (!st) this.#apps.set(profileId, (st = { running: null, fetched: false, failure: null, tasksRead: new Set() }));
    return st;
  }

  /** The apps into the cache; their ids, or null when the fetch failed (logged). */
  async #fetchApps(profileId: string, st: AppsState): Promise<string[] | null> {
    const { store, connections, hub } = this.#deps;
    try {
      const client = connections.client(profileId);
      const apps = await client.authApps({ priority: 'background' });
      connections.noteSuccess(profileId);
      if (!store.profiles.get(profileId)) return null;
      store.apps.replaceAll(profileId, apps);
      st.fetched = true;
      st.failure = null;
      hub.emit('data.changed', { profileId, accountId: null, what: 'apps' });
      return Object.keys(apps);
    } catch (e) {
      st.fetched = true;
      st.failure = e;
      connections.noteFailure(profileId, e, { read: true });
      this.#deps.note(
        profileId,
        null,
        'error',
        'sync.failed',
        `Fetching the applications of this connection failed: ${describeFailure(e)}`,
      );
      return null;
    }
  }

  /**
   * The person looks at an app's tasks (the Tasks tab lists them): read them from the service once
   * since the apps were fetched, at the person's priority, so that no read they did not ask for
   * stands between them and the budget. The cache answers at once; `data.changed` follows the read.
   * A failed read is logged and not repeated at every look: the tab's Refresh asks again.
   */
  tasksWanted(profileId: string, appId: string): void {
    const { store, connections } = this.#deps;
    const st = this.#appsState(profileId);
    if (this.#closed || st.tasksRead.has(appId) || !connections.canUse(profileId)) return;
    if (!store.apps.get(profileId, appId)) return;
    st.tasksRead.add(appId);
    this.refreshTasks(profileId, appId, 'interactive').catch((e: unknown) => {
      this.#deps.note(profileId, null, 'error', 'sync.failed', `Fetching the tasks of application ${appId} failed: ${describeFailure(e)}`);
    });
  }

  /** The tasks of one app; throws on failure (the caller decides how to report it). */
  async refreshTasks(profileId: string, appId: string, priority: Priority): Promise<void> {
    const { store, connections, hub } = this.#deps;
    const client = connections.client(profileId);
    try {
      const tasks = await client.listTasks(appId, undefined, { priority });
      connections.noteSuccess(profileId);
      store.tasks.replaceForApp(profileId, appId, tasks);
      this.#appsState(profileId).tasksRead.add(appId);
    } catch (e) {
      connections.noteFailure(profileId, e, { read: true });
      throw e;
    }
    hub.emit('data.changed', { profileId, accountId: null, what: 'tasks' });
  }

  close(): void {
    this.#closed = true;
  }
}
