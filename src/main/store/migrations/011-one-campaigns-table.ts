// Version 11: the campaign cache goes back to one table keyed by account (campaigns), with the
// account's key leading every index. The per-account tables of version 3 existed for a bulk load
// that issue 15 removed; what they still cost was a network: its first refresh created one table
// with ten indexes per member account, and each creation made SQLite read its whole schema again,
// which grew with every member (a 5,000-member network took over eight minutes and held the event
// loop for most of a second at a time). One table is created once, here.
//
// An account's rows go with it (ON DELETE CASCADE); the app deletes a large account's rows in
// short steps before removing it (CampaignsRepo.forget), so the cascade finds little to do.
//
// Rows are copied from every account's table (an offline person keeps their cached campaigns)
// and the indexes are built after the copy, one sort each. The table and its index list are
// frozen with this step: a later change needs a new numbered step.
import type { Database } from 'better-sqlite3';
import type { Migration } from '../migrate';

export const CAMPAIGNS_TABLE_V11 = `CREATE TABLE campaigns (
  account_key INTEGER NOT NULL REFERENCES accounts(account_key) ON DELETE CASCADE,
  id_num INTEGER NOT NULL,
  id TEXT NOT NULL,
  advertiser_id TEXT COLLATE NOCASE,
  advertiser_name TEXT COLLATE NOCASE,
  name TEXT NOT NULL COLLATE NOCASE,
  branding_text TEXT COLLATE NOCASE,
  tracking_code TEXT,
  pricing_model TEXT,
  cpc REAL,
  safety_rating TEXT CHECK (safety_rating IS NULL OR json_valid(safety_rating)),
  daily_cap REAL,
  daily_ad_delivery_model TEXT,
  spending_limit REAL,
  spending_limit_model TEXT,
  bid_strategy TEXT,
  marketing_objective TEXT,
  campaign_group_id TEXT,
  start_date TEXT,
  campaign_item_type TEXT,
  status TEXT,
  spent REAL,
  present INTEGER NOT NULL,
  extra TEXT CHECK (extra IS NULL OR json_valid(extra)),
  search TEXT NOT NULL,
  PRIMARY KEY (account_key, id_num, id)
) STRICT, WITHOUT ROWID`;

/**
 * [name suffix, columns after account_key] of the secondary indexes: one per column the grid
 * sorts by, status riding along for the status filter, and the narrow search column the text
 * filter scans (the same list as version 8's per-account tables).
 */
export const CAMPAIGN_INDEXES_V11: readonly (readonly [string, string])[] = [
  ['name', 'name, status'],
  ['advertiser_name', 'advertiser_name, status'],
  ['status', 'status'],
  ['spent', 'spent, status'],
  ['cpc', 'cpc, status'],
  ['daily_cap', 'daily_cap, status'],
  ['spending_limit', 'spending_limit, status'],
  ['bid_strategy', 'bid_strategy, status'],
  ['start_date', 'start_date, status'],
  ['search', 'search'],
];

/** The columns of a version 3-10 per-account table, in its order (that table minus account_key). */
const COLUMNS_V3 =
  'id_num, id, advertiser_id, advertiser_name, name, branding_text, tracking_code, pricing_model, cpc, safety_rating, ' +
  'daily_cap, daily_ad_delivery_model, spending_limit, spending_limit_model, bid_strategy, marketing_objective, ' +
  'campaign_group_id, start_date, campaign_item_type, status, spent, present, extra, search';

function up(db: Database): void {
  db.exec(CAMPAIGNS_TABLE_V11);
  const keys = new Set(db.prepare('SELECT account_key FROM accounts').pluck().all() as number[]);
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'campaigns_[0-9]*'").pluck().all() as string[];
  for (const t of tables) {
    // Names come from the schema and match campaigns_<digits> only: safe to put in SQL.
    const m = /^campaigns_(\d+)$/.exec(t);
    if (!m) continue;
    const key = Number(m[1]);
    // A table whose account is gone (a removal interrupted by a crash) is dropped with its rows.
    if (keys.has(key)) db.prepare(`INSERT INTO campaigns (account_key, ${COLUMNS_V3}) SELECT ?, ${COLUMNS_V3} FROM ${t} ORDER BY id_num, id`).run(key);
    db.exec(`DROP TABLE ${t}`);
  }
  for (const [suffix, cols] of CAMPAIGN_INDEXES_V11) db.exec(`CREATE INDEX campaigns_by_${suffix} ON campaigns(account_key, ${cols})`);
}

export const migration011: Migration = { version: 11, name: 'one-campaigns-table', up };
