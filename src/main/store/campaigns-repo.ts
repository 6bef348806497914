// The campaign cache: written by refreshes (batch by batch, as the listing streams in) and by
// single upserts after a create; read by screens through campaign-query.ts. Each account has its
// own table (campaign-tables.ts) with the indexes the window sorts and filters by.
//
// One writer, on the main thread, in short transactions: the caller hands over batches small
// enough that writing one (rows compared with what is stored, and only the columns that differ
// rewritten: row-writer.ts) stays well under 50 ms; refresh.ts sizes them by measured time. Rows
// that arrived are updated in place, so an open list neither flickers nor empties out, and it
// sees the first rows of a first load as soon as their batch commits. Rows the service no longer
// lists disappear only when finish() runs after the last batch; a cancelled or failed refresh
// removes nothing. The cache shows "last known" data, never a half-emptied account.
import type { Database, Statement } from 'better-sqlite3';
import { campaignSchema, type Campaign } from '../../shared/domain/campaign';
import type { AccountsRepo } from './accounts-repo';
import { campaignFromRow, campaignRowValues, CAMPAIGN_WRITE_COLUMNS, idSortKey } from './campaign-columns';
import { createCampaignQuery, type CampaignPage, type CampaignQuery } from './campaign-query';
import { campaignTableName } from './campaign-tables';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import type { QuarantineRepo } from './quarantine-repo';
import { rowStatements, writeRows, type RowStatements } from './row-writer';
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
   * Writes one batch of the listing in one short transaction, now. The campaigns are those the
   * service client has already parsed with the shared campaignSchema (not parsed again here).
   */
  applyPage(campaigns: readonly Campaign[]): PageResult;
  /**
   * After the last batch: removes the rows not seen in this refresh (in short transactions,
   * yielding to the event loop between them) and records the sync time.
   */
  finish(): Promise<RefreshSummary>;
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
  /** Runs fn (synchronous) as one cache transaction: a network's batch and its members' rows commit together. */
  inOneTransaction<T>(fn: () => T): T;
}

/** Text columns holding a service enum (spec 2.1). */
export const ENUM_COLUMNS = ['status', 'pricing_model', 'bid_strategy', 'marketing_objective', 'spending_limit_model', 'campaign_item_type', 'daily_ad_delivery_model'] as const;
export type EnumColumn = (typeof ENUM_COLUMNS)[number];

/** Keys read, and rows deleted, per step of finish(): keeps each synchronous call short. */
const FINISH_CHUNK = 2000;

/**
 * Accounts whose statements are kept prepared. A network's refresh writes to every member's
 * table; thousands of members must not each hold a set of compiled statements.
 */
const PREPARED_TABLES = 32;

interface ActiveRefresh {
  seen: Set<string>;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type RowReader = (accountKey: number, profileId: string, key: { id_num: number; id: string }) => Campaign | undefined;

/**
 * The statements on one account's table, each prepared when first used: a network's refresh
 * writes into thousands of member tables, mostly only inserting, and every statement prepared
 * for nothing is native memory that waits for a full garbage collection to be freed.
 */
class TableStatements {
  readonly #db: Database;
  readonly #t: string;
  #rows?: RowStatements;
  #keysAfter?: Statement<[number, string, number], { id_num: number; id: string }>;
  #deleteKey?: Statement;
  #row?: Statement;
  #count?: Statement;
  #any?: Statement;

  constructor(db: Database, accountKey: number) {
    this.#db = db;
    this.#t = campaignTableName(accountKey);
  }

  /** Insert, compare and masked update (row-writer.ts). */
  get rows(): RowStatements {
    return (this.#rows ??= rowStatements(this.#db, { table: this.#t, columns: CAMPAIGN_WRITE_COLUMNS }));
  }
  get keysAfter() {
    return (this.#keysAfter ??= this.#db.prepare<[number, string, number], { id_num: number; id: string }>(
      `SELECT id_num, id FROM ${this.#t} WHERE (id_num, id) > (?, ?) ORDER BY id_num, id LIMIT ?`,
    ));
  }
  get deleteKey(): Statement {
    return (this.#deleteKey ??= this.#db.prepare(`DELETE FROM ${this.#t} WHERE id_num = ? AND id = ?`));
  }
  get row(): Statement {
    return (this.#row ??= this.#db.prepare(`SELECT * FROM ${this.#t} WHERE id_num = ? AND id = ?`));
  }
  get count(): Statement {
    return (this.#count ??= this.#db.prepare(`SELECT count(*) FROM ${this.#t}`).pluck());
  }
  get any(): Statement {
    return (this.#any ??= this.#db.prepare(`SELECT 1 FROM ${this.#t} LIMIT 1`).pluck());
  }
}

export function createCampaignsRepo(ctx: RepoContext, accounts: AccountsRepo, quarantine: QuarantineRepo): CampaignsRepo {
  const { db, campaignTables: tables } = ctx;
  // Most recently used last (a Map keeps insertion order).
  const statements = new Map<number, TableStatements>();
  const active = new Map<number, ActiveRefresh>();
  tables.onDrop((key) => {
    statements.delete(key);
    active.delete(key);
  });

  /** Statements on the account's table; the caller has checked that the account exists. */
  const stmts = (accountKey: number): TableStatements => {
    let s = statements.get(accountKey);
    if (s) {
      statements.delete(accountKey);
    } else {
      tables.ensure(accountKey);
      s = new TableStatements(db, accountKey);
      if (statements.size >= PREPARED_TABLES) statements.delete(statements.keys().next().value!);
    }
    statements.set(accountKey, s);
    return s;
  };

  // Cache metadata, committed like the cache rows it describes.
  const markSynced = (ref: AccountRef) => ctx.cacheTx(() => accounts.markSynced(ref, ctx.clock.now()));

  // On open: tables of accounts that are gone (a removal interrupted by a crash) are dropped, and
  // accounts without a table get one.
  const accountKeys = new Set(db.prepare('SELECT account_key FROM accounts').pluck().all() as number[]);
  for (const key of tables.keys()) if (!accountKeys.has(key)) tables.drop(key);
  for (const key of accountKeys) tables.ensure(key);

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
    quarantine.add({ source: 'campaigns', sourceKey: `${accountKey}/${key.id}`, profileId, row, reason }, () => {
      stmts(accountKey).deleteKey.run(key.id_num, key.id);
    });
    return undefined;
  };

  const query = createCampaignQuery(ctx, accounts, readRow);

  return {
    beginRefresh(ref) {
      const accountKey = accounts.keyOf(ref);
      // Empty table: a first load, which has nothing to remove at its end.
      const empty = stmts(accountKey).any.get() === undefined;
      const state: ActiveRefresh = { seen: new Set() };
      // A newer refresh of the same account supersedes an older one still running.
      active.set(accountKey, state);
      const totals: RefreshSummary = { written: 0, unchanged: 0, pages: 0, removed: 0 };
      let done = false;
      const check = () => {
        if (done) throw new StoreError('REFRESH_SUPERSEDED', 'This refresh has already finished or was abandoned');
        if (active.get(accountKey) !== state) {
          throw new StoreError('REFRESH_SUPERSEDED', 'A newer refresh of this account has started; this one stops');
        }
      };
      return {
        account: { profileId: ref.profileId, accountId: ref.accountId },
        applyPage(campaigns) {
          check();
          const s = stmts(accountKey);
          if (!empty) for (const c of campaigns) state.seen.add(c.id);
          const written = ctx.cacheTx(() => writeRows(s.rows, campaigns.map(campaignRowValues)));
          totals.written += written;
          totals.unchanged += campaigns.length - written;
          totals.pages++;
          return { written, unchanged: campaigns.length - written };
        },
        async finish() {
          check();
          let after = { id_num: -2, id: '' };
          // Started empty: every row was written by this refresh or by upsert(), all of them seen.
          while (!empty) {
            const s = stmts(accountKey);
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
          markSynced(ref);
          done = true;
          active.delete(accountKey);
          return { ...totals };
        },
        abandon() {
          done = true;
          if (active.get(accountKey) === state) active.delete(accountKey);
        },
      };
    },
    upsert(ref, campaign) {
      const accountKey = accounts.keyOf(ref);
      const result = campaignSchema.safeParse(campaign);
      if (!result.success) throw new StoreError('INVALID_INPUT', describeIssues(result.error.issues));
      const parsed = result.data;
      const s = stmts(accountKey);
      ctx.tx(() => writeRows(s.rows, [campaignRowValues(parsed)]));
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
      // The column is one of ENUM_COLUMNS (checked above). Columns with an index (status,
      // bid_strategy) are read from it; the others in one pass over the account's rows.
      const sql = `SELECT ${column} FROM ${campaignTableName(key)} WHERE ${column} IS NOT NULL GROUP BY ${column} ORDER BY ${column} LIMIT ?`;
      return db.prepare(sql).pluck().all(limit) as string[];
    },
    query,
    inOneTransaction: (fn) => ctx.cacheTx(fn),
  };
}
