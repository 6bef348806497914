// Cache refresh: an account's campaigns (fetch_level RAP, every page), a profile's apps and the
// tasks of each app. Requests go through the scheduler at background priority, each page is
// applied in its own short transaction, progress is reported per page and a refresh can be
// cancelled. A network's listing names the owner of each campaign, so it also fills the caches
// of its member accounts (added to the profile when first seen): one listing serves them all.
import { MAX_PAGE_SIZE, type Campaign } from '../../shared/domain/campaign';
import type { SyncProgress } from '../../shared/ipc/contract';
import { isServiceError } from '../service';
import { StoreError, type Account, type AccountRef, type CampaignRefresh, type Store } from '../store';
import type { Connections } from './connections';
import type { EventHub } from './event-hub';

export interface RefreshDeps {
  store: Store;
  connections: Connections;
  hub: EventHub;
  note(profileId: string, accountId: string | null, level: 'info' | 'warning' | 'error', kind: string, message: string): void;
  pageSize?: number;
}

export type RefreshOutcome = 'done' | 'cancelled' | 'failed' | 'skipped';

/**
 * While a refresh runs, the open list is told at most this often that more rows are cached: a
 * first load of a large account takes minutes at the service's list limit, and its campaigns
 * should appear as their pages land, not all at the end. Each notice makes the window re-query
 * what it shows, so they are spaced.
 */
export const LIVE_LIST_INTERVAL_MS = 1000;

const isSuperseded = (e: unknown) => e instanceof StoreError && e.code === 'REFRESH_SUPERSEDED';

const keyOf = (r: AccountRef) => `${r.profileId}\u0000${r.accountId}`;

function describe(e: unknown): string {
  if (isServiceError(e) || e instanceof Error) return e.message;
  return 'The refresh failed.';
}

export class Refresher {
  readonly #deps: RefreshDeps;
  readonly #running = new Map<string, AbortController>();
  #closed = false;

  constructor(deps: RefreshDeps) {
    this.#deps = deps;
  }

  isRunning(ref: AccountRef): boolean {
    return this.#running.has(keyOf(ref));
  }

  cancel(ref: AccountRef): void {
    this.#running.get(keyOf(ref))?.abort();
  }

  /** Refreshes one account; a newer call for the same account supersedes an older one. */
  async refreshAccount(ref: AccountRef): Promise<RefreshOutcome> {
    const { store, connections, hub } = this.#deps;
    const progress = (
      state: 'running' | 'done' | 'cancelled' | 'failed',
      pagesDone: number,
      pagesTotal: number | null,
      message: string | null,
      indexing: SyncProgress['indexing'] = null,
    ) => hub.emit('sync.progress', { profileId: ref.profileId, accountId: ref.accountId, state, pagesDone, pagesTotal, message, indexing });
    if (this.#closed) return 'skipped';
    const account = store.accounts.get(ref);
    if (!account) return 'skipped';
    if (!connections.canUse(ref.profileId)) {
      progress('failed', 0, null, connections.isWorkingOffline(ref.profileId) ? 'Working offline: not refreshed.' : 'The service cannot be reached now; showing the last synced data.');
      return 'skipped';
    }
    this.#running.get(keyOf(ref))?.abort();
    const ctl = new AbortController();
    this.#running.set(keyOf(ref), ctl);
    // Right after a first load its indexes are still being built for a few seconds: starting now
    // would make every page write wait for them on the event loop.
    progress('running', 0, null, null);
    await store.campaigns.whenWritable();
    if (ctl.signal.aborted || this.#closed || !store.accounts.get(ref)) {
      if (this.#running.get(keyOf(ref)) === ctl) this.#running.delete(keyOf(ref));
      progress('cancelled', 0, null, 'Refresh cancelled; the last synced data is kept.');
      return 'cancelled';
    }
    const refreshes = new Map<string, CampaignRefresh>();
    refreshes.set(ref.accountId, store.campaigns.beginRefresh(ref));
    const skipped = new Set<string>();
    const pageSize = this.#deps.pageSize ?? MAX_PAGE_SIZE;
    let pagesDone = 0;
    let pagesTotal: number | null = null;
    let lastLiveNotice = -Infinity;
    try {
      const client = connections.client(ref.profileId);
      let seen = 0;
      // The page being written while the next one is fetched and compared; its failure shows at
      // the next await.
      let writing: Promise<void> = Promise.resolve();
      const pageWritten = () => {
        pagesDone++;
        progress('running', pagesDone, pagesTotal, null);
        if (performance.now() - lastLiveNotice >= LIVE_LIST_INTERVAL_MS) {
          lastLiveNotice = performance.now();
          // One notice however many member accounts a network's pages touched (null: any account
          // of the profile), since each makes the window re-read its list and its account tree.
          const accountId = refreshes.size > 1 ? null : ref.accountId;
          hub.emit('data.changed', { profileId: ref.profileId, accountId, what: 'campaigns' });
        }
      };
      for (let page = 1; ; page++) {
        const p = await client.listCampaigns(ref.accountId, { fetchLevel: 'RAP', page, pageSize }, { priority: 'background', signal: ctl.signal });
        connections.noteSuccess(ref.profileId);
        if (ctl.signal.aborted) throw new Error('cancelled');
        pagesTotal = Math.max(1, Math.ceil(p.total / pageSize));
        // This page is compared now and queued behind the one being written; at most two wait.
        const next = this.#applyPage(account, p.campaigns, refreshes, skipped).then(pageWritten);
        next.catch(() => undefined);
        await writing;
        writing = next;
        seen += p.campaigns.length;
        // A page shorter than asked is not the end on its own (a real service may cap page_size).
        if (p.campaigns.length === 0 || seen >= p.total || page > pagesTotal + 10) break;
      }
      await writing;
      for (const [accountId, r] of refreshes) {
        try {
          // A first load's sort indexes take seconds after the last page on 100,000 rows.
          await r.finish((done, total) => progress('running', pagesDone, pagesTotal, null, { done, total }));
        } catch (e) {
          // A member refreshed on its own meanwhile: its newer refresh wins, the network's goes on.
          if (accountId === ref.accountId || !isSuperseded(e)) throw e;
          continue;
        }
        hub.emit('data.changed', { profileId: ref.profileId, accountId, what: 'campaigns' });
      }
      hub.emit('data.changed', { profileId: ref.profileId, accountId: null, what: 'accounts' });
      progress('done', pagesDone, pagesTotal, null);
      return 'done';
    } catch (e) {
      for (const r of refreshes.values()) r.abandon();
      if (ctl.signal.aborted) {
        progress('cancelled', pagesDone, pagesTotal, 'Refresh cancelled; the last synced data is kept.');
        return 'cancelled';
      }
      connections.noteFailure(ref.profileId, e, { read: true });
      const message = describe(e);
      this.#deps.note(ref.profileId, ref.accountId, 'error', 'sync.failed', `Refreshing ${ref.accountId} failed: ${message}`);
      progress('failed', pagesDone, pagesTotal, message);
      return 'failed';
    } finally {
      if (this.#running.get(keyOf(ref)) === ctl) this.#running.delete(keyOf(ref));
    }
  }

  async #applyPage(account: Account, campaigns: readonly Campaign[], refreshes: Map<string, CampaignRefresh>, skipped: Set<string>): Promise<void> {
    const { store, hub } = this.#deps;
    await refreshes.get(account.accountId)!.applyPage(campaigns);
    if (account.type !== 'NETWORK') return;
    const byOwner = new Map<string, Campaign[]>();
    for (const c of campaigns) {
      const owner = c.advertiser_id;
      if (!owner || owner === account.accountId || !/^[A-Za-z]+$/.test(owner)) continue;
      let list = byOwner.get(owner);
      if (!list) byOwner.set(owner, (list = []));
      list.push(c);
    }
    for (const [owner, list] of byOwner) {
      if (skipped.has(owner)) continue;
      let r = refreshes.get(owner);
      if (!r) {
        const ref = { profileId: account.profileId, accountId: owner };
        const known = store.accounts.get(ref);
        if (!known) {
          store.accounts.add({ ...ref, name: list[0].advertiser_name ?? null, type: 'ADVERTISER', networkId: account.accountId });
          hub.emit('data.changed', { profileId: account.profileId, accountId: null, what: 'accounts' });
        } else if (known.networkId !== account.accountId) {
          continue; // listed under two networks? keep the member's own view as it is
        }
        r = store.campaigns.beginRefresh(ref);
        refreshes.set(owner, r);
      }
      try {
        await r.applyPage(list);
      } catch (e) {
        if (!isSuperseded(e)) throw e;
        refreshes.delete(owner);
        skipped.add(owner);
      }
    }
  }

  /** auth-apps, then the tasks of every app, replacing the caches. */
  async refreshApps(profileId: string): Promise<RefreshOutcome> {
    const { store, connections, hub } = this.#deps;
    if (this.#closed || !connections.canUse(profileId)) return 'skipped';
    try {
      const client = connections.client(profileId);
      const apps = await client.authApps({ priority: 'background' });
      connections.noteSuccess(profileId);
      store.apps.replaceAll(profileId, apps);
      hub.emit('data.changed', { profileId, accountId: null, what: 'apps' });
      for (const appId of Object.keys(apps)) await this.refreshTasks(profileId, appId, 'background');
      return 'done';
    } catch (e) {
      connections.noteFailure(profileId, e, { read: true });
      this.#deps.note(profileId, null, 'error', 'sync.failed', `Refreshing the applications failed: ${describe(e)}`);
      return 'failed';
    }
  }

  /** The tasks of one app; throws on failure (the caller decides how to report it). */
  async refreshTasks(profileId: string, appId: string, priority: 'interactive' | 'background'): Promise<void> {
    const { store, connections, hub } = this.#deps;
    const client = connections.client(profileId);
    try {
      const tasks = await client.listTasks(appId, undefined, { priority });
      connections.noteSuccess(profileId);
      store.tasks.replaceForApp(profileId, appId, tasks);
    } catch (e) {
      connections.noteFailure(profileId, e, { read: true });
      throw e;
    }
    hub.emit('data.changed', { profileId, accountId: null, what: 'tasks' });
  }

  /** Every account of a profile (members through their network) plus apps and tasks. */
  async refreshProfile(profileId: string): Promise<void> {
    const accounts = this.#deps.store.accounts.list(profileId);
    const ids = new Set(accounts.map((a) => a.accountId));
    const top = accounts.filter((a) => a.networkId === null || !ids.has(a.networkId));
    await Promise.all([...top.map((a) => this.refreshAccount(a)), this.refreshApps(profileId)]);
  }

  close(): void {
    this.#closed = true;
    for (const c of this.#running.values()) c.abort();
  }
}
