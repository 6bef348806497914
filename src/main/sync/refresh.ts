// Cache refresh: an account's campaigns (fetch_level RAP); a profile's apps and the tasks of each
// app in apps-refresh.ts. Requests go through the scheduler at background priority and a refresh can be cancelled.
// The campaigns come from the client's one listing walk (walkListing): the whole listing in one
// unpaged request, streamed and parsed as it arrives, then (only when the service capped that
// answer, or it failed) pages; a listing is not a snapshot, so the walk reconciles readings that
// moved by id, and a refresh whose listing is not what the service holds is never reported done.
// Each parsed chunk's rows go to the cache writer (a worker thread)
// at once, which commits them in transactions as large as its backlog while the next chunks are
// parsed; at most IN_FLIGHT_MAX rows wait for it (then reading the answer pauses). The open list
// is told to re-read as rows are committed.
// A network's listing names the owner of each campaign, so it also fills the caches of its member
// accounts (network-members.ts): one listing serves them all.
import { MAX_PAGE_SIZE, type Campaign } from '../../shared/domain/campaign';
import { MAX_CONFIRMED_IDS, READ_RETRY_BACKOFF, StableOrder, unpagedRowLimit, walkListing } from '../service/campaigns-api';
import { StoreError, type Account, type AccountRef, type CampaignRefresh, type Store } from '../store';
import type { Connections } from '../connections/connections';
import { AppsRefresher } from './apps-refresh';
import { KnownDigests } from './known-digests';
import { networkParts } from './network-members';
import { describeFailure, notRefreshedBecause } from './refresh-words';
import type { EventHub } from '../events/event-hub';
import { refreshCost, waitForListBudget } from './refresh-budget';
import { systemClock, type Clock } from '../clock/clock';
import { turnTaker } from '../clock/turns';
import { DEFAULT_LISTING_LAG_MS, justPostedCampaignIds } from './posted';
import { ListingStartDeadlines } from './listing-deadline';

export interface RefreshDeps {
  store: Store;
  connections: Connections;
  hub: EventHub;
  note(profileId: string, accountId: string | null, level: 'info' | 'warning' | 'error', kind: string, message: string): void;
  pageSize?: number;
  /** Waits for room in the list budget run on it, like the budget's own windows (default: the system clock). */
  clock?: Clock;
  /** How long a listing may lag behind a create (default 60 s): campaigns we posted that recently stay cached unlisted. */
  listingLagMs?: number;
  /** Backoff before a failed page is read again, when the answer named no Retry-After (default READ_RETRY_BACKOFF). */
  retryBackoff?: { baseMs: number; maxMs: number };
  /**
   * The least time the unpaged listing may take to start answering (its headers) before the
   * refresh reads pages instead (default LISTING_START_MS; longer for a large or slow account:
   * listing-deadline.ts).
   */
  listingStartMs?: number;
}

export type RefreshOutcome = 'done' | 'cancelled' | 'failed' | 'skipped';

/**
 * While a refresh runs, the open list is told at most this often that more rows are cached: a
 * first load of a large account takes minutes at the service's list limit, and its campaigns
 * should appear as their pages land, not all at the end. Each notice makes the window re-query
 * what it shows, so they are spaced.
 */
export const LIVE_LIST_INTERVAL_MS = 1000;

/**
 * Rows handed to the cache writer and not yet committed, at most: bounds what waits in memory (and
 * the writer's largest transaction). Beyond it the listing is read no further until it catches up.
 */
const IN_FLIGHT_MAX = 20_000;

/** Campaigns of a network's listing handed on at a time (each may add a member account). */
const NETWORK_SLICE = 50;

const isSuperseded = (e: unknown) => e instanceof StoreError && e.code === 'REFRESH_SUPERSEDED';

const keyOf = (r: AccountRef) => `${r.profileId}\u0000${r.accountId}`;

export class Refresher {
  readonly #deps: RefreshDeps;
  readonly #running = new Map<string, AbortController>();
  /** The profiles' applications and their tasks. */
  readonly apps: AppsRefresher;
  /** What each account's last listing looked like: its total, and the page size when the service capped it. */
  readonly #lastListing = new Map<string, { total: number; pageSize: number | null }>();
  /** How long each account's unpaged listing may take to start. */
  readonly #starts: ListingStartDeadlines;
  #closed = false;

  constructor(deps: RefreshDeps) {
    this.#deps = deps;
    this.apps = new AppsRefresher(deps);
    this.#starts = new ListingStartDeadlines({
      clock: deps.clock ?? systemClock,
      ...(deps.listingStartMs !== undefined ? { baseMs: deps.listingStartMs } : {}),
    });
  }

  cancel(ref: AccountRef): void {
    this.#running.get(keyOf(ref))?.abort();
  }

  /**
   * Refreshes one account; a newer call for the same account supersedes an older one. A
   * background refresh (not asked for by the person) first waits while its list reads would take
   * what the person's own actions need (refresh-budget.ts), saying so in its progress message.
   */
  async refreshAccount(ref: AccountRef, opts: { background?: boolean } = {}): Promise<RefreshOutcome> {
    const { store, connections, hub } = this.#deps;
    const progress = (
      state: 'running' | 'done' | 'cancelled' | 'failed',
      pagesDone: number,
      pagesTotal: number | null,
      message: string | null,
    ) => hub.emit('sync.progress', { profileId: ref.profileId, accountId: ref.accountId, state, pagesDone, pagesTotal, message });
    if (this.#closed) return 'skipped';
    const account = store.accounts.get(ref);
    if (!account) return 'skipped';
    if (!connections.canUse(ref.profileId)) {
      progress('failed', 0, null, notRefreshedBecause(connections.view(ref.profileId)));
      return 'skipped';
    }
    this.#running.get(keyOf(ref))?.abort();
    const ctl = new AbortController();
    this.#running.set(keyOf(ref), ctl);
    progress('running', 0, null, null);
    const refreshes = new Map<string, CampaignRefresh>();
    refreshes.set(ref.accountId, store.campaigns.beginRefresh(ref));
    const skipped = new Set<string>();
    const pageSize = this.#deps.pageSize ?? MAX_PAGE_SIZE;
    let pagesDone = 0;
    let pagesTotal: number | null = null;
    let lastLiveNotice = -Infinity;
    /** Rows handed to the cache in this reading, and the listing's count: whether it gave more than it counts. */
    let rowsSent = 0;
    let listedTotal = 0;
    try {
      const client = connections.client(ref.profileId);
      if (opts.background) {
        await waitForListBudget({
          snapshot: () => connections.client(ref.profileId).snapshot(),
          accountId: ref.accountId,
          cost: refreshCost(this.#lastListing.get(keyOf(ref))),
          clock: this.#deps.clock ?? systemClock,
          signal: ctl.signal,
          stopped: () => this.#closed,
          say: (message) => progress('running', 0, null, message),
        });
      }
      let firstRequestRows = 0;
      const takeTurn = turnTaker();
      /** Batches sent to the cache writer, oldest first, until committed (it answers in order). */
      const inFlight: { rows: number; committed: Promise<void> }[] = [];
      let inFlightRows = 0;
      let reported = -1;
      const liveNotice = () => {
        if (performance.now() - lastLiveNotice < LIVE_LIST_INTERVAL_MS) return;
        lastLiveNotice = performance.now();
        // One notice however many member accounts a network's rows touched (null: any account
        // of the profile), since each makes the window re-read its list and its account tree.
        const accountId = refreshes.size > 1 ? null : ref.accountId;
        hub.emit('data.changed', { profileId: ref.profileId, accountId, what: 'campaigns' });
      };
      /** Sends a chunk's rows to the writer now; the window hears of them once they are committed. */
      const send = (campaigns: readonly Campaign[], digests?: readonly string[]) => {
        if (campaigns.length === 0) return;
        rowsSent += campaigns.length;
        const committed = this.#applyBatch(account, campaigns, digests, refreshes, skipped).then(liveNotice);
        // Awaited by settle(); until then a failure must not count as unhandled.
        committed.catch(() => undefined);
        inFlight.push({ rows: campaigns.length, committed });
        inFlightRows += campaigns.length;
      };
      /** Waits while too much is waiting for the writer, or (all) until everything is committed. */
      const settle = async (all: boolean) => {
        while (inFlight.length > 0 && (all || inFlightRows > IN_FLIGHT_MAX)) {
          const oldest = inFlight.shift()!;
          inFlightRows -= oldest.rows;
          await oldest.committed;
          if (ctl.signal.aborted) throw new Error('cancelled');
        }
      };
      const call = { priority: 'background' as const, signal: ctl.signal };
      // In id order while the service accepts it: an order nothing but a create or delete moves.
      const order = new StableOrder(client.sortMemory);
      const read = (page: number, size: number) =>
        order.read((sort) =>
          client.listCampaigns(ref.accountId, { fetchLevel: 'RAP', page, pageSize: size, ...(sort ? { sort } : {}) }, call),
        );
      // Records the cache holds already, by their bytes' digest, are not parsed or written again.
      const digests = new KnownDigests(account, refreshes);
      // The account's size as the last listing counted it, else as cached (counted off this thread).
      const size =
        this.#lastListing.get(keyOf(ref))?.total ??
        (await store.campaigns.countWindow({ profileId: ref.profileId, accountId: ref.accountId }).catch(() => null));
      const startMs = this.#starts.deadlineMs(keyOf(ref), size);
      const whole = () =>
        this.#starts.watch(
          keyOf(ref),
          startMs,
          order.stream((sort) =>
            client.streamCampaigns(
              ref.accountId,
              { fetchLevel: 'RAP', ...(sort ? { sort } : {}) },
              { ...call, headersTimeoutMs: startMs },
              { known: digests.for(sort) },
            ),
          ),
        );
      const byId = async (ids: string[]) =>
        (await client.listAllCampaigns(ref.accountId, { fetchLevel: 'RAP', campaignIds: ids }, call)).campaigns;
      const retry = { clock: this.#deps.clock ?? systemClock, ...(this.#deps.retryBackoff ?? READ_RETRY_BACKOFF) };
      let pass = 1;
      // The walk asks for the whole listing, falls back to pages, reads a failed page again, and
      // ends only when what was listed is what the service holds, reconciled by id when the
      // listing moved (or fails saying it did not): a cache is never "done" with rows missing.
      for await (const step of walkListing(read, { pageSize, what: ref.accountId, signal: ctl.signal, whole, retry, confirm: byId })) {
        connections.noteSuccess(ref.profileId);
        if (ctl.signal.aborted) throw new Error('cancelled');
        pagesTotal = step.pagesTotal;
        if (step.pass !== pass) {
          // The first reading did not add up: the second is a refresh of its own, so rows only the
          // first one listed (since deleted) are removed at its end like any stale row.
          pass = step.pass;
          await settle(true);
          this.#deps.note(
            ref.profileId,
            ref.accountId,
            'warning',
            'sync.recount',
            `The listing of ${ref.accountId} did not add up to its total; reading it once more.`,
          );
          if (ctl.signal.aborted || this.#closed || !store.accounts.get(ref)) throw new Error('cancelled');
          // The account's new refresh begins before the old one ends, so it takes over the rows
          // the first reading added (kept if listed again); members' refreshes begin anew.
          const first = [...refreshes.values()];
          refreshes.clear();
          skipped.clear();
          rowsSent = 0;
          refreshes.set(ref.accountId, store.campaigns.beginRefresh(ref));
          await Promise.all(first.map((r) => r.abandon()));
        }
        // The walk hears each streamed chunk once its records were looked up, before the next one's.
        if (step.streaming) digests.walk?.listed(step.campaigns);
        const unchanged = step.unchanged ?? [];
        if (unchanged.length > 0) {
          rowsSent += unchanged.length;
          refreshes.get(ref.accountId)!.listedUnchanged(unchanged);
        }
        if (step.pagesDone === 0 && step.pass === 1) firstRequestRows += step.campaigns.length + unchanged.length;
        listedTotal = step.total;
        // A network's chunk is sent in slices: each of its campaigns may bring in a member account
        // (a chunk of 470 campaigns of new members took 30 ms), and the person's own work gets in
        // between them. Chunks already received are parsed one after another without a turn of the
        // event loop in between (promises only): the turns are taken here.
        const slice = account.type === 'NETWORK' ? NETWORK_SLICE : step.campaigns.length;
        for (let i = 0; i < step.campaigns.length; i += slice) {
          send(step.campaigns.slice(i, i + slice), step.digests?.slice(i, i + slice));
          await takeTurn();
        }
        // Rows of a finished request are all written before its progress says so.
        await settle(!step.streaming);
        pagesDone = step.pagesDone;
        if (pagesDone !== reported) {
          reported = pagesDone;
          progress('running', pagesDone, pagesTotal, null);
        }
      }
      await settle(true);
      // A listing may not show a campaign we posted seconds ago yet: it is kept, not removed (and
      // not looked up by id either: a lagging service would not show it there yet).
      const clock = this.#deps.clock ?? systemClock;
      const justPosted = justPostedCampaignIds(store, ref.profileId, clock.now() - (this.#deps.listingLagMs ?? DEFAULT_LISTING_LAG_MS));
      for (const r of refreshes.values()) r.keep(justPosted);
      // Cached rows the listing did not show are removed only once a look-up by id confirms them
      // gone: a listing that moved may have skipped a campaign that is still there. Up to
      // MAX_CONFIRMED_IDS of them (about 25 requests); beyond that the listing's word is taken.
      const main = refreshes.get(ref.accountId);
      const unseen = main ? main.unseen(MAX_CONFIRMED_IDS + 1) : [];
      if (unseen.length > 0 && unseen.length <= MAX_CONFIRMED_IDS) {
        send(await byId(unseen));
        await settle(true);
      }
      // Capped: the first request held one page of the service's size (the cost of the next one).
      this.#lastListing.set(keyOf(ref), { total: listedTotal, pageSize: pagesTotal !== null && pagesTotal > 1 ? firstRequestRows : null });
      // A network finishes thousands of member caches: finishing one that started empty never
      // waits, so the loop yields by the clock, and the window is told once for all of them.
      for (const [accountId, r] of refreshes) {
        try {
          await r.finish();
        } catch (e) {
          // A member refreshed on its own meanwhile: its newer refresh wins, the network's goes on.
          if (accountId === ref.accountId || !isSuperseded(e)) throw e;
        }
        await takeTurn();
      }
      hub.emit('data.changed', { profileId: ref.profileId, accountId: refreshes.size > 1 ? null : ref.accountId, what: 'campaigns' });
      hub.emit('data.changed', { profileId: ref.profileId, accountId: null, what: 'accounts' });
      progress('done', pagesDone, pagesTotal, null);
      return 'done';
    } catch (e) {
      // Stopped by the person, or given more rows than the listing counts (junk, or a listing that
      // never ends): what this refresh added goes with it. A sane listing that failed part way
      // (a count that never adds up, the connection lost) keeps what it listed: real campaigns,
      // and the account is not marked synced. The window re-reads once rows have gone.
      const keepRows = !ctl.signal.aborted && rowsSent <= unpagedRowLimit(listedTotal || null);
      const undone = await Promise.allSettled([...refreshes.values()].map((r) => r.abandon({ keepRows })));
      if (undone.some((u) => u.status === 'fulfilled' && u.value > 0)) {
        hub.emit('data.changed', { profileId: ref.profileId, accountId: refreshes.size > 1 ? null : ref.accountId, what: 'campaigns' });
      }
      if (ctl.signal.aborted) {
        progress('cancelled', pagesDone, pagesTotal, 'Refresh cancelled; the last synced data is kept.');
        return 'cancelled';
      }
      // A listing read that failed after the service answered (cut, slow, 5xx) is not proof that
      // it cannot be reached (DECISIONS client 15): only a connection that could not be made is.
      connections.noteFailure(ref.profileId, e, { read: false });
      const message = describeFailure(e);
      this.#deps.note(ref.profileId, ref.accountId, 'error', 'sync.failed', `Refreshing ${ref.accountId} failed: ${message}`);
      progress('failed', pagesDone, pagesTotal, message);
      return 'failed';
    } finally {
      if (this.#running.get(keyOf(ref)) === ctl) this.#running.delete(keyOf(ref));
    }
  }

  /**
   * One batch into the account's cache and, for a network, its members' caches: one transaction of
   * the cache writer. Not async: a suspended async function would keep the campaigns alive until
   * the writer answers (see CampaignsRepo's write). A throw becomes the rejection. A network's rows keep
   * no digests: its listing is never read as unchanged (refreshAccount's `known`).
   */
  #applyBatch(
    account: Account,
    campaigns: readonly Campaign[],
    digests: readonly string[] | undefined,
    refreshes: Map<string, CampaignRefresh>,
    skipped: Set<string>,
  ): Promise<unknown> {
    return new Promise((resolve) =>
      resolve(
        account.type !== 'NETWORK'
          ? refreshes.get(account.accountId)!.applyPage(campaigns, digests)
          : this.#deps.store.campaigns.applyBatches(networkParts(this.#deps, account, campaigns, refreshes, skipped)),
      ),
    );
  }

  /** Every account of a profile (members through their network) plus apps and tasks. */
  async refreshProfile(profileId: string): Promise<void> {
    const accounts = this.#deps.store.accounts.list(profileId);
    const ids = new Set(accounts.map((a) => a.accountId));
    const top = accounts.filter((a) => a.networkId === null || !ids.has(a.networkId));
    // Not asked for by the person (start-up, sign-in): mindful of the budget their actions need.
    await Promise.all([...top.map((a) => this.refreshAccount(a, { background: true })), this.apps.refreshApps(profileId)]);
  }

  close(): void {
    this.#closed = true;
    this.apps.close();
    for (const c of this.#running.values()) c.abort();
  }
}
