// The campaign cache: written by refreshes (batch by batch, as the listing streams in) and by
// single upserts after a create; read by screens through campaign-query.ts. Each account has its
// rows in the one campaigns table (migration 11), keyed by the account, with the indexes the
// window sorts and filters by.
//
// One writer, on the main thread, in short transactions: the caller hands over batches small
// enough that writing one (rows compared with what is stored, and only the columns that differ
// rewritten: row-writer.ts) stays well under 50 ms; refresh.ts sizes them by measured time. Rows
// that arrived are updated in place, so an open list neither flickers nor empties out, and it
// sees the first rows of a first load as soon as their batch commits. Rows the service no longer
// lists disappear only when finish() runs after the last batch; a cancelled or failed refresh
// removes nothing. The cache shows "last known" data, never a half-emptied account.
import { campaignSchema, type Campaign } from '../../shared/domain/campaign';
import type { AccountsRepo } from './accounts-repo';
import { campaignFromRow, campaignRowValues, CAMPAIGN_KEY_COLUMNS, CAMPAIGN_WRITE_COLUMNS, idSortKey } from './campaign-columns';
import { createCampaignQuery, type CampaignPage, type CampaignQuery } from './campaign-query';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import type { QuarantineRepo } from './quarantine-repo';
import { rowStatements, writeRows } from './row-writer';
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
  /**
   * Deletes the account's cached campaigns in short steps, yielding between them, before the
   * account itself is removed (its cascade would delete 100,000 rows in one long statement).
   */
  forget(ref: AccountRef): Promise<number>;
  /** Runs fn (synchronous) as one cache transaction: a network's batch and its members' rows commit together. */
  inOneTransaction<T>(fn: () => T): T;
}

/** Text columns holding a service enum (spec 2.1). */
export const ENUM_COLUMNS = ['status', 'pricing_model', 'bid_strategy', 'marketing_objective', 'spending_limit_model', 'campaign_item_type', 'daily_ad_delivery_model'] as const;
export type EnumColumn = (typeof ENUM_COLUMNS)[number];

/** Keys read, and rows deleted, per step of finish() and forget(): keeps each synchronous call short. */
const CHUNK = 2000;

interface ActiveRefresh {
  seen: Set<string>;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type RowReader = (accountKey: number, profileId: string, key: { id_num: number; id: string }) => Campaign | undefined;

/** The one campaigns table (migration 11); every statement names the account's key first. */
const TABLE = 'campaigns';

export function createCampaignsRepo(ctx: RepoContext, accounts: AccountsRepo, quarantine: QuarantineRepo): CampaignsRepo {
  const { db } = ctx;
  const active = new Map<number, ActiveRefresh>();
  const rows = rowStatements(db, { table: TABLE, key: CAMPAIGN_KEY_COLUMNS, columns: CAMPAIGN_WRITE_COLUMNS });
  const keysAfter = db.prepare<[number, number, string, number], { id_num: number; id: string }>(
    `SELECT id_num, id FROM ${TABLE} WHERE account_key = ? AND (id_num, id) > (?, ?) ORDER BY id_num, id LIMIT ?`,
  );
  const deleteKey = db.prepare(`DELETE FROM ${TABLE} WHERE account_key = ? AND id_num = ? AND id = ?`);
  const rowStmt = db.prepare(`SELECT * FROM ${TABLE} WHERE account_key = ? AND id_num = ? AND id = ?`);
  const countStmt = db.prepare(`SELECT count(*) FROM ${TABLE} WHERE account_key = ?`).pluck();
  const anyStmt = db.prepare(`SELECT 1 FROM ${TABLE} WHERE account_key = ? LIMIT 1`).pluck();
  const deleteSome = db.prepare(
    `DELETE FROM ${TABLE} WHERE account_key = ? AND (id_num, id) IN (SELECT id_num, id FROM ${TABLE} WHERE account_key = ? LIMIT ?)`,
  );

  // Cache metadata, committed like the cache rows it describes.
  const markSynced = (ref: AccountRef) => ctx.cacheTx(() => accounts.markSynced(ref, ctx.clock.now()));

  /** A cached row that no longer rebuilds into a campaign is quarantined; the next refresh fetches it again. */
  const readRow: RowReader = (accountKey, profileId, key) => {
    const row = rowStmt.get(accountKey, key.id_num, key.id) as Record<string, unknown> | undefined;
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
      deleteKey.run(accountKey, key.id_num, key.id);
    });
    return undefined;
  };

  const query = createCampaignQuery(ctx, accounts, readRow);

  return {
    beginRefresh(ref) {
      const accountKey = accounts.keyOf(ref);
      // Nothing cached: a first load, which has nothing to remove at its end.
      const empty = anyStmt.get(accountKey) === undefined;
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
          if (!empty) for (const c of campaigns) state.seen.add(c.id);
          const values = campaigns.map((c) => campaignRowValues(accountKey, c));
          const written = ctx.cacheTx(() => writeRows(rows, values, { mostlyNew: empty }));
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
            const keys = keysAfter.all(accountKey, after.id_num, after.id, CHUNK);
            if (keys.length === 0) break;
            after = keys[keys.length - 1];
            const stale = keys.filter((k) => !state.seen.has(k.id));
            if (stale.length > 0) {
              ctx.cacheTx(() => {
                for (const k of stale) totals.removed += deleteKey.run(accountKey, k.id_num, k.id).changes;
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
    async forget(ref) {
      const accountKey = accounts.keyOf(ref);
      active.delete(accountKey);
      let removed = 0;
      for (;;) {
        const n = ctx.cacheTx(() => deleteSome.run(accountKey, accountKey, CHUNK).changes);
        removed += n;
        if (n < CHUNK || !accounts.get(ref)) return removed;
        await yieldToEventLoop();
      }
    },
    upsert(ref, campaign) {
      const accountKey = accounts.keyOf(ref);
      const result = campaignSchema.safeParse(campaign);
      if (!result.success) throw new StoreError('INVALID_INPUT', describeIssues(result.error.issues));
      const parsed = result.data;
      ctx.tx(() => writeRows(rows, [campaignRowValues(accountKey, parsed)]));
      // A refresh that listed before this campaign existed must not remove it at finish().
      active.get(accountKey)?.seen.add(parsed.id);
    },
    get(ref, id) {
      return readRow(accounts.keyOf(ref), ref.profileId, { id_num: idSortKey(id), id });
    },
    count(ref) {
      return countStmt.get(accounts.keyOf(ref)) as number;
    },
    distinctValues(ref, column, limit = 100) {
      if (!(ENUM_COLUMNS as readonly string[]).includes(column)) throw new StoreError('INVALID_INPUT', `${String(column)} is not an enum column`);
      // The column is one of ENUM_COLUMNS (checked above). Columns with an index (status,
      // bid_strategy) are read from it; the others in one pass over the account's rows.
      const sql = `SELECT ${column} FROM ${TABLE} WHERE account_key = ? AND ${column} IS NOT NULL GROUP BY ${column} ORDER BY ${column} LIMIT ?`;
      return db.prepare(sql).pluck().all(accounts.keyOf(ref), limit) as string[];
    },
    query,
    inOneTransaction: (fn) => ctx.cacheTx(fn),
  };
}
