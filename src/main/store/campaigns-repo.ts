// The campaign cache: written by refreshes (page by page) and by single upserts after a create;
// read by screens through campaign-query.ts. Each account has its own table (campaign-tables.ts).
//
// What a person sees while a refresh runs: each page is its own short transaction, so rows that
// arrived are updated in place (an open list does not flicker or empty out). The rows of a page
// are compared here and those that differ are written by the store worker (row-writer.ts), so a
// page that rewrites many index entries does not hold the event loop. Rows the service
// no longer lists disappear only when finish() runs after the last page. Until then the old rows
// stay visible: the cache shows "last known" data, never an empty or half-filled account. A
// cancelled or failed refresh removes nothing. Staging the whole refresh in a side table and
// swapping it in at the end would switch atomically, but that swap of 100,000 rows would be one
// multi-second call that freezes the main process.
//
// A first load (the account's table is empty) is a bulk load instead: the table's secondary
// indexes are dropped, pages are appended without them, and finish() builds the indexes again,
// one CREATE INDEX at a time on a worker thread (store-worker.ts), so the event loop keeps
// turning. Inserting into 17 indexes page by page rewrites their leaf pages all over the file
// (about 11 s for 100,000 rows on the development VM); one sorted build per index is a fraction
// of that. While the pages arrive, queries of that account scan its table, which is acceptable
// while it is being filled; from finish() until the indexes exist they are answered from sort
// orders the load built in memory (sort-orders.ts). A bulk
// load that never reaches finish() (cancelled, crashed) leaves a table with missing indexes: the
// repository builds them in the background when it notices (abandon(), next open), and the next
// refresh of the account continues as a bulk load.
import { campaignSchema, type Campaign } from '../../shared/domain/campaign';
import type { AccountsRepo } from './accounts-repo';
import { CAMPAIGN_WRITE_COLUMNS, campaignFromRow, campaignRowValues, idSortKey } from './campaign-columns';
import { createCampaignQuery, type CampaignPage, type CampaignQuery } from './campaign-query';
import { campaignTableName, type CampaignIndex } from './campaign-tables';
import { createCheckpointHold } from './checkpoint-hold';
import { COMPARE_ON_WRITE, rowMask, rowStatements, writeRows, type RowTable } from './row-writer';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import type { QuarantineRepo } from './quarantine-repo';
import { SortKeyCollector, type SortOrders } from './sort-orders';
import { BUILD_CACHE_KIB, BUILD_THREADS } from './store-worker';
import type { AccountRef } from './types';

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
  /**
   * Writes one page of the listing in one transaction. The campaigns are those the service
   * client has already parsed with the shared campaignSchema (not parsed again here: on a
   * 100,000-row refresh that would be a second full pass). A first load writes here and now; a
   * refresh of a cached account writes on the store worker, so the caller may fetch or prepare
   * its next page before this one settles (pages are written in the order given).
   */
  applyPage(campaigns: readonly Campaign[]): Promise<PageResult>;
  /**
   * After the last page: removes the rows not seen in this refresh (in short transactions,
   * yielding to the event loop between them), builds the indexes of a bulk load (one per step)
   * and records the sync time. `onIndexing` hears how many of a bulk load's indexes are built
   * (first with 0, then after each): on 100,000 rows that phase takes seconds, after the last
   * page, and the user should see it move.
   */
  finish(onIndexing?: (done: number, total: number) => void): Promise<RefreshSummary>;
  /** Cancelled or failed: keeps every row as it is. */
  abandon(): void;
}

export interface CampaignsRepo {
  beginRefresh(ref: AccountRef): CampaignRefresh;
  /** One campaign learned outside a refresh (the answer to a create). */
  upsert(ref: AccountRef, campaign: Campaign): void;
  get(ref: AccountRef, id: string): Campaign | undefined;
  count(ref: AccountRef): number;
  /** The distinct values of one enum column in the account's cache, in order, at most `limit`. */
  distinctValues(ref: AccountRef, column: EnumColumn, limit?: number): string[];
  query(q: CampaignQuery): CampaignPage;
  /**
   * Resolves once no background index build (after a cancelled or crashed first load) is running
   * and the worker has copied what bulk loads wrote into the database file.
   */
  indexBuilds(): Promise<void>;
  /**
   * Resolves once no index is being built in the background. A refresh waits for this before it
   * begins: its page writes would otherwise wait for each CREATE INDEX on the event loop (up to
   * about 250 ms per page), and beginning drops the in-memory orders the pages are served from.
   */
  whenWritable(): Promise<void>;
  /**
   * Where the account's sorted pages come from: its indexes; the in-memory orders of a first load
   * whose indexes are still being built; or a scan (indexes missing otherwise).
   */
  sortSource(ref: AccountRef): 'indexes' | 'memory' | 'scan';
}

/** Text columns holding a service enum (spec 2.1), each with its (column, status) index. */
export const ENUM_COLUMNS = ['status', 'pricing_model', 'bid_strategy', 'marketing_objective', 'spending_limit_model', 'campaign_item_type', 'daily_ad_delivery_model'] as const;
export type EnumColumn = (typeof ENUM_COLUMNS)[number];

/** Keys read, and rows deleted, per step of finish(): keeps each synchronous call short. */
const FINISH_CHUNK = 2000;

interface ActiveRefresh {
  seen: Set<string>;
  /** Writing without secondary indexes; finish() builds them. */
  bulk: boolean;
  /** A bulk load holds the main connection's checkpoints until it ends (checkpoint-hold.ts). */
  holdsCheckpoints: boolean;
  /**
   * A first load into an empty table keeps the sort keys of what it writes, row for row, so
   * finish() can order them in memory (sort-orders.ts); null when not a first load, without a
   * store worker, or once something else wrote to the table.
   */
  collected: SortKeyCollector | null;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type RowReader = (accountKey: number, profileId: string, key: { id_num: number; id: string }) => Campaign | undefined;

function prepareFor(ctx: RepoContext, accountKey: number) {
  const { db } = ctx;
  const t = campaignTableName(accountKey);
  const cols = CAMPAIGN_WRITE_COLUMNS;
  const marks = cols.map(() => '?').join(', ');
  const rowTable: RowTable = { table: t, columns: cols };
  return {
    rowTable,
    /** Insert, compare and masked update (row-writer.ts), on this connection. */
    rows: rowStatements(db, rowTable),
    // Bulk pages: REPLACE because a listing paged by offset can repeat a row on the next page.
    replace: db.prepare(`INSERT OR REPLACE INTO ${t} (${cols.join(', ')}) VALUES (${marks})`),
    keysAfter: db.prepare<[number, string, number], { id_num: number; id: string }>(
      `SELECT id_num, id FROM ${t} WHERE (id_num, id) > (?, ?) ORDER BY id_num, id LIMIT ?`,
    ),
    deleteKey: db.prepare(`DELETE FROM ${t} WHERE id_num = ? AND id = ?`),
    row: db.prepare(`SELECT * FROM ${t} WHERE id_num = ? AND id = ?`),
    count: db.prepare(`SELECT count(*) FROM ${t}`).pluck(),
    any: db.prepare(`SELECT 1 FROM ${t} LIMIT 1`).pluck(),
  };
}
type TableStatements = ReturnType<typeof prepareFor>;

export function createCampaignsRepo(ctx: RepoContext, accounts: AccountsRepo, quarantine: QuarantineRepo): CampaignsRepo {
  const { db, campaignTables: tables } = ctx;
  const statements = new Map<number, TableStatements>();
  const active = new Map<number, ActiveRefresh>();
  const building = new Map<number, Promise<void>>();
  // Sort orders of accounts whose first load has finished while their indexes are still being
  // built: queries read them instead of scanning. Dropped at the next write to the table.
  const memoryOrders = new Map<number, SortOrders>();
  // Accounts whose first load finished and whose indexes are being built in the background: their
  // table is complete, so a refresh meanwhile is an ordinary one, not the continuation of a bulk load.
  const completeLoads = new Set<number>();
  const dropCollection = (state: ActiveRefresh | undefined) => {
    state?.collected?.discard();
    if (state) state.collected = null;
  };
  /** The table of `key` changed outside a refresh's own page writes. */
  const changed = (key: number) => {
    memoryOrders.delete(key);
    dropCollection(active.get(key));
  };
  tables.onDrop((key) => {
    statements.delete(key);
    memoryOrders.delete(key);
    completeLoads.delete(key);
    // A first load of a removed account ends here, whether or not its caller finishes it.
    letGo(active.get(key));
    active.delete(key);
  });

  /** Statements on the account's table; the caller has checked that the account exists. */
  const stmts = (accountKey: number): TableStatements => {
    let s = statements.get(accountKey);
    if (!s) {
      tables.ensure(accountKey);
      s = prepareFor(ctx, accountKey);
      statements.set(accountKey, s);
    }
    return s;
  };

  /** The old way, kept as the fallback: the build on this connection, blocking the event loop. */
  const buildHere = (sql: string) => {
    const threads = db.pragma('threads', { simple: true }) as number;
    const cache = db.pragma('cache_size', { simple: true }) as number;
    db.pragma(`threads = ${BUILD_THREADS}`);
    db.pragma(`cache_size = -${BUILD_CACHE_KIB}`);
    try {
      ctx.cacheTx(() => db.exec(sql));
    } finally {
      db.pragma(`threads = ${threads}`);
      db.pragma(`cache_size = ${cache}`);
    }
  };
  const checkpoints = createCheckpointHold(db, ctx.worker);
  /** A deferred transaction: reads share one snapshot, no write lock is taken. */
  const readTx = (fn: () => void) => (db.inTransaction ? fn() : db.transaction(fn).deferred());
  // Cache metadata, committed like the cache pages it describes: a commit with fsync right after a
  // first load would flush its whole unsynced log (tens of megabytes) on the event loop.
  const markSynced = (ref: AccountRef) => ctx.cacheTx(() => accounts.markSynced(ref, ctx.clock.now()));
  const letGo = (state: ActiveRefresh | undefined) => {
    dropCollection(state);
    if (!state?.holdsCheckpoints) return;
    state.holdsCheckpoints = false;
    checkpoints.release();
  };
  const buildIndex = async (ix: CampaignIndex): Promise<void> => {
    if (ctx.worker) await ctx.worker.build(ix.sql, () => buildHere(ix.sql));
    else buildHere(ix.sql);
  };

  /** Builds the missing indexes of a table left by an unfinished bulk load, one at a time. */
  const buildInBackground = (accountKey: number) => {
    if (building.has(accountKey)) return;
    checkpoints.hold();
    const run = (async () => {
      for (;;) {
        await yieldToEventLoop();
        // A bulk refresh of the account builds them itself at its finish().
        if (!db.open || active.get(accountKey)?.bulk) return;
        const missing = tables.missingIndexes(accountKey);
        if (missing.length === 0) return;
        await buildIndex(missing[0]);
      }
    })()
      // A failure leaves the table usable (queries scan); the next open or refresh tries again.
      .catch(() => {})
      .finally(() => {
        building.delete(accountKey);
        // The indexes answer from here on (a failed build keeps the orders: they are still right).
        if (!db.open || tables.missingIndexes(accountKey).length === 0) {
          memoryOrders.delete(accountKey);
          completeLoads.delete(accountKey);
        }
        checkpoints.release();
      });
    building.set(accountKey, run);
  };

  // On open: tables of accounts that are gone (a removal interrupted by a crash) are dropped,
  // accounts without a table get one, and unfinished bulk loads get their indexes.
  const accountKeys = new Set(db.prepare('SELECT account_key FROM accounts').pluck().all() as number[]);
  for (const key of tables.keys()) if (!accountKeys.has(key)) tables.drop(key);
  for (const key of accountKeys) {
    tables.ensure(key);
    if (tables.missingIndexes(key).length > 0) buildInBackground(key);
  }

  /** A cached row that no longer rebuilds into a campaign is quarantined; the next refresh fetches it again. */
  const readRow: RowReader = (accountKey, profileId, key) => {
    const s = stmts(accountKey);
    const row = s.row.get(key.id_num, key.id) as Record<string, unknown> | undefined;
    if (row === undefined) return undefined;
    let reason: string;
    try {
      const parsed = campaignSchema.safeParse(campaignFromRow(row));
      if (parsed.success) return parsed.data;
      reason = describeIssues(parsed.error.issues);
    } catch {
      reason = 'stored JSON is damaged';
    }
    quarantine.add(
      { source: 'campaigns', sourceKey: `${accountKey}/${key.id}`, profileId, row, reason },
      () => {
        s.deleteKey.run(key.id_num, key.id);
        changed(accountKey);
      },
    );
    return undefined;
  };

  const query = createCampaignQuery(ctx, accounts, readRow, (key) => memoryOrders.get(key));

  return {
    beginRefresh(ref) {
      const accountKey = accounts.keyOf(ref);
      const s = stmts(accountKey);
      // Empty table: a first load. Indexes missing: an earlier bulk load did not finish; this one
      // continues it (REPLACE keeps what that one wrote, finish() removes what is no longer listed).
      const empty = s.any.get() === undefined;
      const bulk = empty || (tables.missingIndexes(accountKey).length > 0 && !completeLoads.has(accountKey));
      memoryOrders.delete(accountKey);
      if (bulk) {
        ctx.cacheTx(() => tables.dropIndexes(accountKey));
        checkpoints.hold();
        // The indexes are built on the worker after the last page: have it ready by then.
        ctx.worker?.warm();
      }
      const state: ActiveRefresh = {
        seen: new Set(),
        bulk,
        holdsCheckpoints: bulk,
        collected: empty && ctx.worker ? new SortKeyCollector() : null,
      };
      // A newer refresh of the same account supersedes an older one still running.
      letGo(active.get(accountKey));
      active.set(accountKey, state);
      const totals: RefreshSummary = { written: 0, unchanged: 0, pages: 0, removed: 0 };
      // The last page handed to the store worker: finish() waits for it (and so for all before it).
      let lastWrite: Promise<unknown> = Promise.resolve();
      // Ids of the rows handed to the worker and not yet written, with how many pages carry them.
      const sending = new Map<string, number>();
      let done = false;
      const check = () => {
        if (done) throw new StoreError('REFRESH_SUPERSEDED', 'This refresh has already finished or was abandoned');
        if (active.get(accountKey) !== state) {
          throw new StoreError('REFRESH_SUPERSEDED', 'A newer refresh of this account has started; this one stops');
        }
      };
      return {
        account: { profileId: ref.profileId, accountId: ref.accountId },
        async applyPage(campaigns) {
          check();
          // A first load removes nothing at its end, so it need not remember what it saw.
          if (!empty) for (const c of campaigns) state.seen.add(c.id);
          let written = 0;
          if (bulk) {
            ctx.cacheTx(() => {
              const collected = state.collected;
              for (const c of campaigns) {
                const values = campaignRowValues(c);
                written += s.replace.run(...values).changes > 0 ? 1 : 0;
                collected?.add(values);
              }
            });
          } else {
            // Into a table with its indexes. Comparing with the stored rows is quick and stays here;
            // the rows that differ are written on the store worker, so the event loop is not held
            // while SQLite rewrites their index entries (row-writer.ts). A row of a page still being
            // written is compared again by the worker, after that page. The caller may prepare its
            // next page meanwhile.
            const changed: unknown[][] = [];
            const masks: number[] = [];
            // One read transaction for the page: each read on its own would take and release the
            // log's read lock, which made a refresh of unchanged rows half again as slow.
            readTx(() => {
              for (const c of campaigns) {
                const values = campaignRowValues(c);
                const mask = sending.has(c.id) ? COMPARE_ON_WRITE : rowMask(s.rows, values);
                if (mask === 0) continue;
                changed.push(values);
                masks.push(mask);
              }
            });
            if (changed.length > 0) {
              const ids = changed.map((v) => v[1] as string);
              for (const id of ids) sending.set(id, (sending.get(id) ?? 0) + 1);
              // Without a worker they are written now, as compared. When the worker cannot write
              // them they are written here after all, compared again (what was stored may have moved).
              const writing = (
                ctx.worker
                  ? ctx.worker.writeRows(s.rowTable, changed, masks, () => ctx.cacheTx(() => writeRows(s.rows, changed)))
                  : Promise.resolve(ctx.cacheTx(() => writeRows(s.rows, changed, masks)))
              ).finally(() => {
                for (const id of ids) {
                  const n = sending.get(id)! - 1;
                  if (n === 0) sending.delete(id);
                  else sending.set(id, n);
                }
              });
              lastWrite = writing.catch(() => undefined);
              written = await writing;
            }
          }
          const page = { written, unchanged: campaigns.length - written };
          totals.written += page.written;
          totals.unchanged += page.unchanged;
          totals.pages++;
          return page;
        },
        async finish(onIndexing) {
          try {
            await lastWrite;
            return await finishSteps(onIndexing);
          } finally {
            letGo(state);
          }
        },
        abandon() {
          done = true;
          if (active.get(accountKey) !== state) return letGo(state);
          active.delete(accountKey);
          // The rows stay (a cancel removes nothing); their indexes are built in the background
          // (which holds checkpoints itself before this refresh lets go).
          if (bulk) buildInBackground(accountKey);
          letGo(state);
        },
      };
      /**
       * A first load: its rows are ordered in memory (a fraction of a second) and answered from
       * there at once, while the worker builds the indexes in the background. False when that
       * cannot be (then finish() builds the indexes before it resolves, as for other bulk loads).
       */
      async function inMemory(onIndexing?: (done: number, total: number) => void): Promise<boolean> {
        const collected = state.collected;
        if (!collected || !ctx.worker) return false;
        const orders = await collected.build({
          expected: s.count.get() as number,
          step: async (built, total) => {
            onIndexing?.(built, total);
            await yieldToEventLoop();
            check();
          },
        });
        // Anything else that wrote to the table meanwhile dropped the collection: the orders may
        // be stale then.
        if (!orders || state.collected !== collected || !db.open) return false;
        state.collected = null;
        memoryOrders.set(accountKey, orders);
        completeLoads.add(accountKey);
        markSynced(ref);
        done = true;
        active.delete(accountKey);
        buildInBackground(accountKey);
        return true;
      }
      async function finishSteps(onIndexing?: (done: number, total: number) => void): Promise<RefreshSummary> {
        check();
        let after = { id_num: -2, id: '' };
        // Started empty: every row was written by this refresh or by upsert(), all of them seen.
        for (;;) {
          if (empty) break;
          const keys = s.keysAfter.all(after.id_num, after.id, FINISH_CHUNK);
          if (keys.length === 0) break;
          after = keys[keys.length - 1];
          const stale = keys.filter((k) => !state.seen.has(k.id));
          if (stale.length > 0) {
            ctx.cacheTx(() => {
              for (const k of stale) totals.removed += s.deleteKey.run(k.id_num, k.id).changes;
            });
          }
          await yieldToEventLoop();
          check();
        }
        if (bulk && (await inMemory(onIndexing))) return { ...totals };
        if (bulk) {
          const missing = tables.missingIndexes(accountKey);
          let built = 0;
          if (missing.length > 0) onIndexing?.(built, missing.length);
          for (const ix of missing) {
            await buildIndex(ix);
            // Matters when a build ran on this thread (the fallback): let the event loop turn.
            await yieldToEventLoop();
            check();
            onIndexing?.(++built, missing.length);
          }
        }
        markSynced(ref);
        done = true;
        active.delete(accountKey);
        return { ...totals };
      }
    },
    upsert(ref, campaign) {
      const accountKey = accounts.keyOf(ref);
      const result = campaignSchema.safeParse(campaign);
      if (!result.success) throw new StoreError('INVALID_INPUT', describeIssues(result.error.issues));
      const parsed = result.data;
      const s = stmts(accountKey);
      ctx.tx(() => writeRows(s.rows, [campaignRowValues(parsed)]));
      // In-memory orders (and a first load's collection) no longer match the table.
      changed(accountKey);
      // A refresh that listed before this campaign existed must not remove it at finish().
      active.get(accountKey)?.seen.add(parsed.id);
    },
    get(ref, id) {
      return readRow(accounts.keyOf(ref), ref.profileId, { id_num: idSortKey(id), id });
    },
    count(ref) {
      return stmts(accounts.keyOf(ref)).count.get() as number;
    },
    distinctValues(ref, column, limit = 100) {
      if (!(ENUM_COLUMNS as readonly string[]).includes(column)) throw new StoreError('INVALID_INPUT', `${String(column)} is not an enum column`);
      const key = accounts.keyOf(ref);
      stmts(key);
      const t = campaignTableName(key);
      // Each step asks the column's index for the next larger value: one look-up per distinct
      // value, not a pass over the account's rows.
      const sql = `WITH RECURSIVE v(x) AS (SELECT min(${column}) FROM ${t} UNION ALL SELECT (SELECT min(${column}) FROM ${t} WHERE ${column} > v.x) FROM v WHERE v.x IS NOT NULL) SELECT x FROM v WHERE x IS NOT NULL LIMIT ?`;
      return db.prepare(sql).pluck().all(limit) as string[];
    },
    query,
    sortSource(ref) {
      const key = accounts.keyOf(ref);
      if (memoryOrders.has(key)) return 'memory';
      return tables.missingIndexes(key).length > 0 ? 'scan' : 'indexes';
    },
    async whenWritable() {
      while (building.size > 0) await Promise.all([...building.values()]);
    },
    async indexBuilds() {
      while (building.size > 0) await Promise.all([...building.values()]);
      await checkpoints.settled();
    },
  };
}
