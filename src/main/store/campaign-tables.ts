// The per-account campaign tables (campaigns_<account_key>): their names, creation from the frozen
// templates (columns: migration 3; indexes: migration 8), and dropping them with their account.
import type { Database } from 'better-sqlite3';
import { CAMPAIGN_TABLE_TEMPLATE_V3 } from './migrations/003-campaigns-per-account';
import { CAMPAIGN_INDEX_TEMPLATES_V8 } from './migrations/008-campaign-indexes-the-window-uses';

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
        db.exec(CAMPAIGN_TABLE_TEMPLATE_V3.replaceAll('{t}', t));
        for (const [suffix, cols] of CAMPAIGN_INDEX_TEMPLATES_V8) db.exec(`CREATE INDEX ${t}_by_${suffix} ON ${t}(${cols})`);
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
