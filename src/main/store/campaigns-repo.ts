// The campaign cache: written by refreshes (batch by batch, as the listing streams in) and by
// single upserts after a create; read by screens through campaign-query.ts. The rows live in the
// cache file (cache-file.ts), one campaigns table keyed by account, with the indexes the window
// sorts and filters by.
//
// One writer: the cache writer's worker (cache-writer/), which writes each batch in one
// transaction (rows compared with what is stored, and only the columns that differ rewritten:
// row-writer.ts) while this thread goes on; writes therefore return promises, taken in the order
// they were sent. Reads go through a read-only connection of this thread and see what the writer
// has committed. Rows that arrived are updated in place, so an open list neither flickers nor
// empties out, and it sees the first rows of a first load as soon as their batch commits. Rows the
// service no longer lists disappear only when finish() runs after the last batch. A cancelled or
// failed refresh removes none of the rows that were there before it, and may take back the rows it
// added (the refresher decides: a listing stopped by the person, or one of junk, leaves nothing of
// its own behind); the changes it made to known rows are the service's newer word and stay. The
// cache never shows a half-emptied account.
import type { Database } from 'better-sqlite3';
import { campaignSchema, type Campaign } from '../../shared/domain/campaign';
import { fullTurn } from '../clock/turns';
import type { AccountsRepo } from './accounts-repo';
import type { CacheWriter } from './cache-writer/cache-writer';
import { campaignRowValues, idSortKey } from './campaign-columns';
import type { CacheReader } from './cache-reader';
import { NO_WALK, createDigestWalk, type CachedDigest, type DigestWalk } from './digest-walk';
import {
  createWindowQuery,
  parseCampaignQuery,
  rebuildCampaign,
  type CampaignPage,
  type CampaignQuery,
  type DamagedRow,
  type WindowRead,
  type WindowRows,
} from './campaign-query';
import type { CampaignList } from '../../shared/domain/campaign-query';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import type { QuarantineRepo } from './quarantine-repo';
import type { AccountRef } from './types';
import type { SeenValues } from './seen-values';

export interface PageResult {
  /** New or changed rows written. */
  written: number;
  unchanged: number;
}

export interface RefreshSummary extends PageResult {
  pages: number;
  removed: number;
}

export interface CampaignRefresh {
  readonly account: AccountRef;
  /** A newer refresh of the same account has begun (or this one ended): this one may not write. */
  readonly superseded: boolean;
  /**
   * Writes one batch of the listing in one transaction of the cache writer. The campaigns are
   * those the service client has already parsed with the shared campaignSchema (not parsed again);
   * `digests`, when given, the digest of the listed bytes each came from, index for index (kept
   * with its row for known()).
   */
  applyPage(campaigns: readonly Campaign[], digests?: readonly string[]): Promise<PageResult>;
  /**
   * The id of the account's cached campaign made from a listed record with exactly these bytes
   * (the digest of record-digest.ts, stored with the row), if one is cached as it was when this
   * refresh began and nothing else has written it since.
   */
  known(digest: string): string | undefined;
  /**
   * known() for a listing read in the cache's id order (the refresh's ID_ORDER): the account's
   * cached digests are read beside it a chunk at a time (digest-walk.ts) instead of all at once,
   * and known() is asked only if the listing turns out not to be in that order. Its listed() hears
   * each chunk of the stream after the chunk's look-ups.
   */
  walk(): DigestWalk;
  /** Campaigns the listing shows with the bytes of their cached row (known()): seen, nothing written. */
  listedUnchanged(ids: readonly string[]): void;
  /**
   * After the last batch: removes the rows not seen in this refresh (read in short steps, yielding
   * to the event loop between them) and records the sync time.
   */
  finish(): Promise<RefreshSummary>;
  /** Rows finish() keeps although this refresh did not list them (campaigns just posted, which a lagging listing does not show yet). */
  keep(ids: Iterable<string>): void;
  /**
   * Ids of cached rows this refresh has not seen yet, at most `limit` (what finish() would remove),
   * for the refresher to confirm their absence before they go. Call once every batch is committed.
   */
  unseen(limit: number): string[];
  /**
   * Cancelled or failed: removes the rows this refresh (and the unfinished ones it superseded)
   * added, but for campaigns written by upsert() meanwhile; every row that was there before stays.
   * Resolves with how many went. A refresh already superseded or ended leaves that to the newer one.
   * `keepRows`: what it added stays (a sane listing that failed part way: real campaigns).
   */
  abandon(opts?: { keepRows?: boolean }): Promise<number>;
}

export interface CampaignsRepo {
  beginRefresh(ref: AccountRef): CampaignRefresh;
  /**
   * One transaction of the cache writer holding a batch of several refreshes: a network's batch
   * and its members' rows commit together. (written and unchanged count applyPage's batches only.)
   */
  applyBatches(parts: readonly { refresh: CampaignRefresh; campaigns: readonly Campaign[] }[]): Promise<void>;
  /** One campaign learned outside a refresh (the answer to a create). */
  upsert(ref: AccountRef, campaign: Campaign): Promise<void>;
  get(ref: AccountRef, id: string): Campaign | undefined;
  /**
   * Who owns the account's first `limit` cached campaigns (id order): their ids, advertiser ids
   * and names, read without rebuilding the campaigns (what naming an account needs).
   */
  owners(ref: AccountRef, limit: number): CampaignOwner[];
  count(ref: AccountRef): number;
  /**
   * How many campaigns each account's cache holds, counted on the counter reader's thread (one
   * read for every account, again only after the cache changed): the accounts list asks at every
   * change of the accounts, and counting a 1,000,000-campaign account held the main thread ~28 ms.
   */
  countsByAccount(): Promise<(ref: AccountRef) => number>;
  /**
   * The values of the extendable enum fields seen in the account's cache (seen-values.ts), read on
   * the counter reader's thread; callers asking while a read of the same account runs share it.
   */
  seenValues(ref: AccountRef): Promise<SeenValues>;
  query(q: CampaignQuery): CampaignPage;
  /**
   * The same page read on the cache reader's thread (cache-reader.ts): what the window's queries
   * use, so that no search holds the main thread's event loop.
   */
  readWindow(q: CampaignQuery): Promise<CampaignPage>;
  /** readWindow without the total, which a new search asks apart (countWindow) so its rows never wait for it. */
  readRows(q: CampaignQuery): Promise<{ rows: Campaign[] }>;
  /**
   * The list's total, counted on a reader thread of its own: a count of a common word's matches
   * (~300 ms at 1,000,000) never holds the page of the next keystroke.
   */
  countWindow(list: CampaignList): Promise<number>;
  /** Deletes the account's cached campaigns (on the writer) before the account itself is removed. */
  forget(ref: AccountRef): Promise<number>;
}

/** Who owns a campaign (null or absent: the service did not say). */
export interface CampaignOwner {
  id: string;
  advertiser_id?: string | null;
  advertiser_name?: string | null;
}

/** Keys read per step of finish(): keeps each synchronous read short. */
const CHUNK = 2000;

interface ActiveRefresh {
  /**
   * Ids listed in this refresh (written, or named unchanged outside a walk), kept by keep(), or
   * upserted. A row is listed when it is here or in a run of one of `walks` (listed()).
   */
  seen: Set<string>;
  /** Its digest walks (walk()): the runs of rows they named unchanged are listed too. */
  walks: DigestWalk[];
  /** Campaigns written by upsert() while it ran (a create's answer): never taken back. */
  upserted: Set<string>;
  /**
   * Cached rows by the digest of the bytes they were made from, read at the first known() (null
   * until then). Not trusted for ids written or removed outside this refresh since (upserted,
   * distrusted), nor at all when the refresh took over from one that did not finish (its writes
   * may still be on their way to the writer).
   */
  digests: Map<string, string> | null;
  /** Rows removed outside the refresh while it ran (quarantined): known() does not name them. */
  distrusted: Set<string>;
  /** A refresh of the account that did not finish was running when this one began. */
  tookOver: boolean;
  /**
   * The keys of every cached row unseen() found not yet seen, when it read them all: finish()
   * removes those still unseen without reading the account's keys a second time (~150 ms of the
   * main thread at 100,000 campaigns). Rows cached after that read were written by this refresh
   * or by upsert(), and so seen.
   */
  unseenKeys: { id_num: number; id: string }[] | null;
  /**
   * The account held no rows when the first of its unfinished refreshes began: undoing it removes
   * every row but the upserted ones. Otherwise the writer tracks the rows it inserts.
   */
  startedEmpty: boolean;
}

/**
 * What a refresh hands the writer for one batch: its rows, whether its account started empty, and
 * whether the writer tracks the rows it inserts (to take them back if the refresh is undone).
 */
interface Batch {
  values: unknown[][];
  accountKey: number;
  fresh: boolean;
  tracked: boolean;
  count(written: number | null, rows: number): void;
}

const BATCH = Symbol('batch');
type InternalRefresh = CampaignRefresh & { [BATCH](campaigns: readonly Campaign[], digests?: readonly string[]): Batch };

export interface CampaignCache {
  /** Read-only connection to the cache file. */
  read: Database;
  writer: CacheWriter;
  /** The thread that runs the window's page queries on a read-only connection of its own. */
  reader: CacheReader;
  /** Another such thread, that counts the lists' totals (countWindow), so pages never wait behind a count. */
  counter: CacheReader;
}

export function createCampaignsRepo(
  ctx: RepoContext,
  accounts: AccountsRepo,
  quarantine: QuarantineRepo,
  cache: CampaignCache,
): CampaignsRepo {
  const { read, writer, reader, counter } = cache;
  const active = new Map<number, ActiveRefresh>();
  const keysAfter = read.prepare<[number, number, string, number], { id_num: number; id: string }>(
    'SELECT id_num, id FROM campaigns WHERE account_key = ? AND (id_num, id) > (?, ?) ORDER BY id_num, id LIMIT ?',
  );
  const rowStmt = read.prepare('SELECT * FROM campaigns WHERE account_key = ? AND id_num = ? AND id = ?');
  const countStmt = read.prepare('SELECT count(*) FROM campaigns WHERE account_key = ?').pluck();
  const anyStmt = read.prepare('SELECT 1 FROM campaigns WHERE account_key = ? LIMIT 1').pluck();
  const digestsStmt = read
    .prepare<[number], [string, string]>('SELECT raw_digest, id FROM campaigns WHERE account_key = ? AND raw_digest IS NOT NULL')
    .raw();
  const digestsAfter = read
    .prepare<
      [number, number, string, number],
      CachedDigest
    >('SELECT id_num, id, raw_digest FROM campaigns WHERE account_key = ? AND (id_num, id) > (?, ?) ORDER BY id_num, id LIMIT ?')
    .raw();
  const ownersStmt = read.prepare<[number, number], CampaignOwner>(
    'SELECT id, advertiser_id, advertiser_name FROM campaigns WHERE account_key = ? ORDER BY id_num, id LIMIT ?',
  );

  // Cache metadata, in the data file.
  const markSynced = (ref: AccountRef) => ctx.cacheTx(() => accounts.markSynced(ref, ctx.clock.now()));

  /** A cached row that no longer rebuilds into a campaign is quarantined; the next refresh fetches it again. */
  const quarantineRow = (accountKey: number, profileId: string, d: DamagedRow): void => {
    const { key, row, reason } = d;
    active.get(accountKey)?.distrusted.add(key.id);
    quarantine.add({ source: 'campaigns', sourceKey: `${accountKey}/${key.id}`, profileId, row, reason }, () => {
      // Until the writer has removed it, the row is skipped again (and quarantined once: same key).
      writer.send({ type: 'delete', accountKey, keys: [[key.id_num, key.id]] }).catch(() => undefined);
    });
  };
  const readRow = (accountKey: number, profileId: string, key: { id_num: number; id: string }): Campaign | undefined => {
    const row = rowStmt.get(accountKey, key.id_num, key.id) as Record<string, unknown> | undefined;
    if (row === undefined) return undefined;
    const rebuilt = rebuildCampaign(row);
    if ('campaign' in rebuilt) return rebuilt.campaign;
    quarantineRow(accountKey, profileId, { key, row, reason: rebuilt.reason });
    return undefined;
  };
  const rowsOf = (accountKey: number, profileId: string, read: WindowRows): { rows: Campaign[] } => {
    for (const d of read.damaged) quarantineRow(accountKey, profileId, d);
    return { rows: read.rows };
  };
  const pageOf = (accountKey: number, profileId: string, read: WindowRead): CampaignPage => ({
    ...rowsOf(accountKey, profileId, read),
    total: read.total,
  });

  const windowQuery = createWindowQuery(read);
  const query = (q: CampaignQuery): CampaignPage => {
    const parsed = parseCampaignQuery(q);
    const accountKey = accounts.keyOf(parsed);
    return pageOf(accountKey, parsed.profileId, windowQuery.page(accountKey, parsed));
  };
  const readWindow = async (q: CampaignQuery): Promise<CampaignPage> => {
    const parsed = parseCampaignQuery(q);
    const accountKey = accounts.keyOf(parsed);
    return pageOf(accountKey, parsed.profileId, await reader.page(accountKey, parsed));
  };
  const readRows = async (q: CampaignQuery): Promise<{ rows: Campaign[] }> => {
    const parsed = parseCampaignQuery(q);
    const accountKey = accounts.keyOf(parsed);
    return rowsOf(accountKey, parsed.profileId, await reader.rows(accountKey, parsed));
  };
  /** Reads of the values seen in an account's cache under way, by account key (seenValues). */
  const seenReads = new Map<number, Promise<SeenValues>>();
  const countWindow = async (list: CampaignList): Promise<number> => {
    // Checked as the list's first page (a count reads neither offset nor limit).
    const parsed = parseCampaignQuery({ ...list, offset: 0 });
    return counter.count(accounts.keyOf(parsed), parsed);
  };

  /**
   * Rows of accounts that started empty sent to the writer since its last settle. The writer may
   * have dropped its indexes for them (a bulk load, cache-writer/worker.ts); the refresh that ends
   * first after them asks it to build them again. Counted here so that the thousands of members a
   * network's refresh finishes together (all their rows already written) cost one settle, not one
   * each.
   */
  let freshRowsSent = 0;
  const buildText = (): void => {
    writer.send({ type: 'buildText' }).catch(() => undefined);
  };
  const settleLoad = (): Promise<number> => {
    if (freshRowsSent === 0) return Promise.resolve(0);
    freshRowsSent = 0;
    return writer.send({ type: 'settle' });
  };

  /**
   * Sends the batches' rows to the writer (encoded as they are sent) and keeps only their counts
   * while it works. Not an async function, nor are its callers here and in the refresh: a
   * suspended async function keeps its arguments alive until it resumes, so each chunk's campaigns
   * and rows (up to 20,000 in flight) outlived their use, and the garbage collector copied them into
   * the old generation (in a 100,000-campaign refresh each young collection kept ~2.5 MB; now ~1.5).
   */
  const write = (batches: readonly Batch[]): Promise<void> => {
    const values = batches.length === 1 ? batches[0].values : batches.flatMap((b) => b.values);
    if (values.length === 0) return Promise.resolve();
    const fresh = [...new Set(batches.filter((b) => b.fresh).map((b) => b.accountKey))];
    const track = [...new Set(batches.filter((b) => b.tracked).map((b) => b.accountKey))];
    if (fresh.length > 0) freshRowsSent += values.length;
    const sent = writer.send({ type: 'write', rows: values, fresh, track });
    const counts = batches.map((b) => ({ count: b.count, rows: b.values.length }));
    return sent.then((written) => {
      for (const c of counts) c.count(counts.length === 1 ? written : null, c.rows);
    });
  };

  /**
   * One refresh of one account (beginRefresh). A class, not an object of closures: a network's
   * refresh holds one for each member account, and 5,000 of them, each with its own dozen closures
   * and their contexts, were ~15 MB of the main thread's heap at the peak of that refresh.
   */
  class Refresh implements InternalRefresh {
    readonly account: AccountRef;
    readonly #accountKey: number;
    /** Nothing was cached when it began: a first load, which has nothing to remove at its end. */
    readonly #empty: boolean;
    readonly #state: ActiveRefresh;
    readonly #totals: RefreshSummary = { written: 0, unchanged: 0, pages: 0, removed: 0 };
    #done = false;

    constructor(ref: AccountRef) {
      this.account = { profileId: ref.profileId, accountId: ref.accountId };
      this.#accountKey = accounts.keyOf(ref);
      this.#empty = anyStmt.get(this.#accountKey) === undefined;
      // A refresh it supersedes did not finish: what that one added is this one's to keep or undo.
      const prior = active.get(this.#accountKey);
      this.#state = {
        seen: new Set(),
        walks: [],
        upserted: new Set(prior?.upserted),
        startedEmpty: prior?.startedEmpty ?? this.#empty,
        digests: null,
        distrusted: new Set(),
        tookOver: prior !== undefined,
        unseenKeys: null,
      };
      // A newer refresh of the same account supersedes an older one still running.
      active.set(this.#accountKey, this.#state);
    }

    get superseded(): boolean {
      return this.#done || active.get(this.#accountKey) !== this.#state;
    }

    /** Whether this refresh listed the cached row (what finish() keeps). */
    #listed(k: { id_num: number; id: string }): boolean {
      return this.#state.seen.has(k.id) || this.#state.walks.some((w) => w.coversKey(k.id_num, k.id));
    }

    #named(id: string): boolean {
      return this.#state.walks.some((w) => w.covers(id));
    }

    /**
     * Where the look for unlisted rows goes on after key `k`: past the run of named rows that
     * covers it, if any (an unchanged account of 1,000,000 rows is one run: its keys are not
     * read, ~1 s of this thread).
     */
    #onFrom(k: { id_num: number; id: string }): { id_num: number; id: string } {
      for (const w of this.#state.walks) {
        const end = w.runEnd(k.id_num, k.id);
        if (end !== null) return { id_num: end[0], id: end[1] };
      }
      return k;
    }

    #check(): void {
      if (this.#done) throw new StoreError('REFRESH_SUPERSEDED', 'This refresh has already finished or was abandoned');
      if (active.get(this.#accountKey) !== this.#state) {
        throw new StoreError('REFRESH_SUPERSEDED', 'A newer refresh of this account has started; this one stops');
      }
    }

    [BATCH](campaigns: readonly Campaign[], digests?: readonly string[]): Batch {
      this.#check();
      const state = this.#state;
      const accountKey = this.#accountKey;
      const totals = this.#totals;
      if (!this.#empty) for (const c of campaigns) state.seen.add(c.id);
      totals.pages++;
      return {
        values: campaigns.map((c, i) => campaignRowValues(accountKey, c, digests?.[i] ?? null)),
        accountKey,
        fresh: this.#empty,
        tracked: !state.startedEmpty,
        count(written, rows) {
          if (written === null) return;
          totals.written += written;
          totals.unchanged += rows - written;
        },
      };
    }

    known(digest: string): string | undefined {
      const state = this.#state;
      if (this.#empty || state.tookOver) return undefined;
      state.digests ??= new Map(digestsStmt.all(this.#accountKey));
      const id = state.digests.get(digest);
      // Listed twice (a listing that moved): the later record is written, as any would be.
      if (id === undefined || state.seen.has(id) || state.upserted.has(id) || state.distrusted.has(id) || this.#named(id)) return undefined;
      return id;
    }

    walk(): DigestWalk {
      const state = this.#state;
      if (this.#empty || state.tookOver) return NO_WALK;
      const accountKey = this.#accountKey;
      const w = createDigestWalk({
        read: (idNum, id, limit) => digestsAfter.all(accountKey, idNum, id, limit),
        accept: (id) => !state.seen.has(id) && !state.upserted.has(id) && !state.distrusted.has(id),
        unordered: (digest) => this.known(digest),
        chunk: CHUNK,
      });
      state.walks.push(w);
      return w;
    }

    listedUnchanged(ids: readonly string[]): void {
      this.#check();
      // Rows a walk named are listed by its runs: a set of every id of the account is what
      // the walk saves (~1,000,000 strings at 1,000,000 campaigns).
      for (const id of ids) if (!this.#named(id)) this.#state.seen.add(id);
      this.#totals.unchanged += ids.length;
    }

    applyPage(campaigns: readonly Campaign[], digests?: readonly string[]): Promise<PageResult> {
      const totals = this.#totals;
      const before = { ...totals };
      // (Not async: see write. The executor runs at once; a throw becomes the rejection.)
      return new Promise<void>((resolve) => resolve(write([this[BATCH](campaigns, digests)]))).then(() => ({
        written: totals.written - before.written,
        unchanged: totals.unchanged - before.unchanged,
      }));
    }

    async finish(): Promise<RefreshSummary> {
      this.#check();
      const state = this.#state;
      const accountKey = this.#accountKey;
      const totals = this.#totals;
      let after = { id_num: -2, id: '' };
      if (state.unseenKeys !== null) {
        const stale = state.unseenKeys.filter((k) => !this.#listed(k));
        for (let i = 0; i < stale.length; i += CHUNK) {
          const keys = stale.slice(i, i + CHUNK).map((k): [number, string] => [k.id_num, k.id]);
          totals.removed += await writer.send({ type: 'delete', accountKey, keys });
          this.#check();
        }
      }
      // Started empty: every row was written by this refresh or by upsert(), all of them seen.
      while (!this.#empty && state.unseenKeys === null) {
        const keys = keysAfter.all(accountKey, after.id_num, after.id, CHUNK);
        if (keys.length === 0) break;
        after = this.#onFrom(keys[keys.length - 1]);
        const stale = keys.filter((k) => !this.#listed(k));
        if (stale.length > 0) totals.removed += await writer.send({ type: 'delete', accountKey, keys: stale.map((k) => [k.id_num, k.id]) });
        else await fullTurn();
        this.#check();
      }
      // A first load's indexes are built after it is done, while its rows are already shown (cache-writer/worker.ts, "Bulk load").
      if (this.#empty) settleLoad().catch(() => undefined);
      markSynced(this.account);
      this.#done = true;
      active.delete(accountKey);
      await writer.send({ type: 'endRefresh', accountKey, undo: null });
      // The text index a bulk load emptied is built after the refresh has ended (not awaited).
      if (this.#empty) buildText();
      return { ...totals };
    }

    keep(ids: Iterable<string>): void {
      for (const id of ids) this.#state.seen.add(id);
    }

    unseen(limit: number): string[] {
      this.#check();
      const out: { id_num: number; id: string }[] = [];
      let after = { id_num: -2, id: '' };
      while (!this.#empty && out.length < limit) {
        const keys = keysAfter.all(this.#accountKey, after.id_num, after.id, CHUNK);
        if (keys.length === 0) {
          this.#state.unseenKeys = out;
          break;
        }
        after = this.#onFrom(keys[keys.length - 1]);
        for (const k of keys) if (!this.#listed(k) && out.length < limit) out.push(k);
      }
      return out.map((k) => k.id);
    }

    abandon({ keepRows = false }: { keepRows?: boolean } = {}): Promise<number> {
      const accountKey = this.#accountKey;
      const current = !this.#done && active.get(accountKey) === this.#state;
      const load = this.#empty && !this.#done;
      this.#done = true;
      if (current) active.delete(accountKey);
      const undo = keepRows ? null : { all: this.#state.startedEmpty, keep: [...this.#state.upserted] };
      const undone = current ? writer.send({ type: 'endRefresh', accountKey, undo }) : Promise.resolve(0);
      // A first load's indexes are built again after its rows went (the writer takes requests
      // in order), so no index is built for rows about to be removed.
      if (load) {
        settleLoad().catch(() => undefined);
        buildText();
      }
      return undone;
    }
  }

  return {
    beginRefresh: (ref) => new Refresh(ref),
    applyBatches(parts) {
      // (Not async: see write.)
      return new Promise<void>((resolve) => resolve(write(parts.map((p) => (p.refresh as InternalRefresh)[BATCH](p.campaigns)))));
    },
    async forget(ref) {
      const accountKey = accounts.keyOf(ref);
      active.delete(accountKey);
      return writer.send({ type: 'forget', accountKey });
    },
    async upsert(ref, campaign) {
      const accountKey = accounts.keyOf(ref);
      const result = campaignSchema.safeParse(campaign);
      if (!result.success) throw new StoreError('INVALID_INPUT', describeIssues(result.error.issues));
      const parsed = result.data;
      // A refresh that listed before this campaign existed must not remove it at finish(), nor take
      // it back if it is undone.
      const running = active.get(accountKey);
      running?.seen.add(parsed.id);
      running?.upserted.add(parsed.id);
      await writer.send({ type: 'write', rows: [campaignRowValues(accountKey, parsed)], fresh: [] });
    },
    get(ref, id) {
      return readRow(accounts.keyOf(ref), ref.profileId, { id_num: idSortKey(id), id });
    },
    owners(ref, limit) {
      return ownersStmt.all(accounts.keyOf(ref), limit);
    },
    count(ref) {
      return countStmt.get(accounts.keyOf(ref)) as number;
    },
    async countsByAccount() {
      const counts = await counter.accountCounts();
      return (ref) => counts.get(accounts.keyOf(ref)) ?? 0;
    },
    seenValues(ref) {
      const accountKey = accounts.keyOf(ref);
      let read = seenReads.get(accountKey);
      if (read === undefined) {
        read = counter.values(accountKey).finally(() => seenReads.delete(accountKey));
        seenReads.set(accountKey, read);
      }
      return read;
    },
    query,
    readWindow,
    readRows,
    countWindow,
  };
}
