// Version 8: each per-account campaign table keeps only the indexes the window uses: one per
// column the grid sorts by (name, advertiser name, status, spent, cpc, daily cap, limit, bidding,
// start date; id is the primary key) with status riding along for the status filter, and the
// narrow search column the text filter scans. The other seven (advertiser_id, branding_text and
// five enum columns) backed no sort the window offers, yet every write of a row paid for them.
//
// Tables left without some indexes by the old bulk load (a first load cancelled or crashed before
// its end built them) get the missing ones here, so every table is complete from now on.
//
// The list below is frozen with this step: campaign-tables.ts creates every new account's table
// with these indexes. A later change needs a new numbered step and a new list.
import type { Database } from 'better-sqlite3';
import type { Migration } from '../migrate';

/** [name suffix, columns] of the secondary indexes of a per-account table from version 8 on. */
export const CAMPAIGN_INDEX_TEMPLATES_V8: readonly (readonly [string, string])[] = [
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

/** Indexes of version 3 that no longer exist from version 8 on. */
const DROPPED_V8 = [
  'advertiser_id',
  'branding_text',
  'pricing_model',
  'marketing_objective',
  'spending_limit_model',
  'campaign_item_type',
  'daily_ad_delivery_model',
];

function up(db: Database): void {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'campaigns_[0-9]*'")
    .pluck()
    .all() as string[];
  for (const t of tables) {
    // Names come from the schema and match campaigns_<digits> only: safe to put in SQL.
    if (!/^campaigns_\d+$/.test(t)) continue;
    for (const suffix of DROPPED_V8) db.exec(`DROP INDEX IF EXISTS ${t}_by_${suffix}`);
    for (const [suffix, cols] of CAMPAIGN_INDEX_TEMPLATES_V8) db.exec(`CREATE INDEX IF NOT EXISTS ${t}_by_${suffix} ON ${t}(${cols})`);
  }
}

export const migration008: Migration = { version: 8, name: 'campaign-indexes-the-window-uses', up };
