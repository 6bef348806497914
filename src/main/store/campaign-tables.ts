// The per-account campaign tables (campaigns_<account_key>): their names, their shape today, and
// creating and dropping them with their account. The migrations keep their own frozen copies of the
// shape they created (columns: 3, indexes: 8); test/main/store/migrations.test.ts proves a table
// made here and one a migrated file holds are the same, so the two cannot drift apart unseen.
import type { Database } from 'better-sqlite3';

/** A new account's table, `{t}` its name. */
export const CAMPAIGN_TABLE_SQL = `CREATE TABLE {t} (
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
  PRIMARY KEY (id_num, id)
) STRICT, WITHOUT ROWID`;

/** [name suffix, columns] of its secondary indexes: only what the window sorts and filters by, status riding along. */
export const CAMPAIGN_INDEXES: readonly (readonly [string, string])[] = [
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

const TABLE_NAME = /^campaigns_(\d+)$/;

/** The table of one account. The key is SQLite's integer primary key, never user text. */
export function campaignTableName(accountKey: number): string {
  if (!Number.isSafeInteger(accountKey) || accountKey < 0) throw new Error(`invalid account key ${accountKey}`);
  return `campaigns_${accountKey}`;
}

export interface CampaignTables {
  exists(accountKey: number): boolean;
  /** Creates the table with its indexes when it does not exist yet (then it is empty). */
  ensure(accountKey: number): void;
  /** Drops any table left under this key and creates an empty one (a key can be reused). */
  reset(accountKey: number): void;
  drop(accountKey: number): void;
  /** Keys of every per-account table in the file. */
  keys(): number[];
  /** Called after a table is dropped, so statements prepared on it are thrown away. */
  onDrop(listener: (accountKey: number) => void): void;
}

export function createCampaignTables(db: Database): CampaignTables {
  const listeners: ((key: number) => void)[] = [];
  const existsStmt = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck();
  const tableNames = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'campaigns_[0-9]*'").pluck();
  const exists = (key: number) => existsStmt.get(campaignTableName(key)) !== undefined;
  const inTx = (fn: () => void) => (db.inTransaction ? fn() : db.transaction(fn).immediate());

  const tables: CampaignTables = {
    exists,
    ensure(key) {
      if (exists(key)) return;
      const t = campaignTableName(key);
      inTx(() => {
        db.exec(CAMPAIGN_TABLE_SQL.replaceAll('{t}', t));
        for (const [suffix, cols] of CAMPAIGN_INDEXES) db.exec(`CREATE INDEX ${t}_by_${suffix} ON ${t}(${cols})`);
      });
    },
    reset(key) {
      inTx(() => {
        tables.drop(key);
        tables.ensure(key);
      });
    },
    drop(key) {
      db.exec(`DROP TABLE IF EXISTS ${campaignTableName(key)}`);
      for (const l of listeners) l(key);
    },
    keys() {
      return (tableNames.all() as string[]).flatMap((n) => {
        const m = TABLE_NAME.exec(n);
        return m ? [Number(m[1])] : [];
      });
    },
    onDrop(listener) {
      listeners.push(listener);
    },
  };
  return tables;
}
