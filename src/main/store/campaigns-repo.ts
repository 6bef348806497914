// The campaign cache: written by refreshes (page by page) and by single upserts after a create;
// read by screens through campaign-query.ts.
//
// What a person sees while a refresh runs: each page is its own short transaction, so rows that
// arrived are updated in place (an open list does not flicker or empty out), and rows the service
// no longer lists disappear only when finish() runs after the last page. Until then the old rows
// stay visible: the cache shows "last known" data, never an empty or half-filled account. A
// cancelled or failed refresh removes nothing. Staging the whole refresh in a side table and
// swapping it in at the end would switch atomically, but that swap of 100,000 rows would be one
// multi-second call that freezes the main process.
import { campaignSchema, type Campaign } from '../../shared/domain/campaign';
import type { AccountsRepo } from './accounts-repo';
import { CAMPAIGN_UPDATE_COLUMNS, CAMPAIGN_WRITE_COLUMNS, campaignFromRow, campaignRowValues, idSortKey } from './campaign-columns';
import { createCampaignQuery, type CampaignPage, type CampaignQuery } from './campaign-query';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import type { QuarantineRepo } from './quarantine-repo';
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
   * 100,000-row refresh that would be a second full pass).
   */
  applyPage(campaigns: readonly Campaign[]): PageResult;
  /**
   * After the last page: removes the rows not seen in this refresh (in short transactions,
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
  query(q: CampaignQuery): CampaignPage;
}

/** Keys read, and rows deleted, per step of finish(): keeps each synchronous call short. */
const FINISH_CHUNK = 2000;

interface ActiveRefresh {
  seen: Set<string>;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type RowReader = (accountKey: number, profileId: string, key: { id_num: number; id: string }) => Campaign | undefined;

export function createCampaignsRepo(ctx: RepoContext, accounts: AccountsRepo, quarantine: QuarantineRepo): CampaignsRepo {
  const { db } = ctx;
  const marks = CAMPAIGN_WRITE_COLUMNS.map(() => '?').join(', ');
  // Unchanged rows match the WHERE of DO UPDATE as false: nothing is written for them, which
  // keeps an unchanged refresh to index look-ups.
  const upsertStmt = db.prepare(
    `INSERT INTO campaigns (${CAMPAIGN_WRITE_COLUMNS.join(', ')}) VALUES (${marks})
     ON CONFLICT (account_key, id_num, id) DO UPDATE SET
       (${CAMPAIGN_UPDATE_COLUMNS.join(', ')}) = (${CAMPAIGN_UPDATE_COLUMNS.map((c) => `excluded.${c}`).join(', ')})
     WHERE (${CAMPAIGN_UPDATE_COLUMNS.map((c) => `campaigns.${c}`).join(', ')})
       IS NOT (${CAMPAIGN_UPDATE_COLUMNS.map((c) => `excluded.${c}`).join(', ')})`,
  );
  const keysAfter = db.prepare<[number, number, string, number], { id_num: number; id: string }>(
    `SELECT id_num, id FROM campaigns WHERE account_key = ? AND (id_num, id) > (?, ?)
     ORDER BY id_num, id LIMIT ?`,
  );
  const deleteKey = db.prepare('DELETE FROM campaigns WHERE account_key = ? AND id_num = ? AND id = ?');
  const rowStmt = db.prepare('SELECT * FROM campaigns WHERE account_key = ? AND id_num = ? AND id = ?');
  const countStmt = db.prepare<[number], number>('SELECT count(*) FROM campaigns WHERE account_key = ?').pluck();

  const active = new Map<number, ActiveRefresh>();

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
    quarantine.add(
      { source: 'campaigns', sourceKey: `${accountKey}/${key.id}`, profileId, row, reason },
      () => deleteKey.run(accountKey, key.id_num, key.id),
    );
    return undefined;
  };

  const query = createCampaignQuery(ctx, accounts, readRow);

  return {
    beginRefresh(ref) {
      const accountKey = accounts.keyOf(ref);
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
          let written = 0;
          ctx.cacheTx(() => {
            for (const c of campaigns) written += upsertStmt.run(campaignRowValues(accountKey, c)).changes;
          });
          for (const c of campaigns) state.seen.add(c.id);
          const page = { written, unchanged: campaigns.length - written };
          totals.written += page.written;
          totals.unchanged += page.unchanged;
          totals.pages++;
          return page;
        },
        async finish() {
          check();
          let after = { id_num: -2, id: '' };
          for (;;) {
            const keys = keysAfter.all(accountKey, after.id_num, after.id, FINISH_CHUNK);
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
          accounts.markSynced(ref, ctx.clock.now());
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
      ctx.tx(() => upsertStmt.run(campaignRowValues(accountKey, parsed)));
      // A refresh that listed before this campaign existed must not remove it at finish().
      active.get(accountKey)?.seen.add(parsed.id);
    },
    get(ref, id) {
      return readRow(accounts.keyOf(ref), ref.profileId, { id_num: idSortKey(id), id });
    },
    count(ref) {
      return countStmt.get(accounts.keyOf(ref)) as number;
    },
    query,
  };
}
