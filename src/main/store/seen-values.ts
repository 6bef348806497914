// The values of the service's extendable enum fields seen in an account's cached campaigns
// (campaigns.values: the Campaigns tab's status filter, the campaign form's suggestions). Read on
// the counter reader's thread (cache-reader.ts): the columns without an index are each a pass over
// the account's rows, and at 1,000,000 campaigns the five reads took ~1 s of the main thread at
// every switch to the account, and again at every refresh notice while its grid was open.
import type { Database, Statement } from 'better-sqlite3';

/** The columns read, each a text column holding a service enum (spec 2.1). */
export const SEEN_VALUE_COLUMNS = ['bid_strategy', 'marketing_objective', 'spending_limit_model', 'campaign_item_type', 'status'] as const;
export type SeenValueColumn = (typeof SEEN_VALUE_COLUMNS)[number];
export type SeenValues = Record<SeenValueColumn, string[]>;

/** Values read per column at most: a filter or a list of suggestions, not a report. */
export const SEEN_VALUES_MAX = 100;

/** The distinct values of each column in the account's cache, in order (status and bid_strategy from their indexes). */
export function seenValuesQuery(db: Database): (accountKey: number) => SeenValues {
  // The column names are the constants above, never input.
  const statements = SEEN_VALUE_COLUMNS.map((c): [SeenValueColumn, Statement] => [
    c,
    db.prepare(`SELECT ${c} FROM campaigns WHERE account_key = ? AND ${c} IS NOT NULL GROUP BY ${c} ORDER BY ${c} LIMIT ?`).pluck(),
  ]);
  return (accountKey) => Object.fromEntries(statements.map(([c, s]) => [c, s.all(accountKey, SEEN_VALUES_MAX) as string[]])) as SeenValues;
}
