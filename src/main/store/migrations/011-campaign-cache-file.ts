// Version 11: the campaign cache leaves the data file for a file of its own (cache-file.ts),
// written by one worker thread in large transactions while this file's drafts and outbox commit
// undisturbed. Before this step runs, the store has copied every per-account table's rows into the
// cache file (prepareCacheFile), so an offline person keeps their cached campaigns; this step drops
// the tables. A network's first refresh no longer creates a table with ten indexes per member
// either (each creation made SQLite read its growing schema again: 5,000 members took minutes).
import type { Database } from 'better-sqlite3';
import type { Migration } from '../migrate';

/** The per-account tables of versions 3-10 (campaigns_<account_key>). */
export function perAccountTables(db: Database): { accountKey: number; table: string }[] {
  const names = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'campaigns_[0-9]*'")
    .pluck()
    .all() as string[];
  return names.flatMap((table) => {
    const m = /^campaigns_(\d+)$/.exec(table);
    return m ? [{ accountKey: Number(m[1]), table }] : [];
  });
}

function up(db: Database): void {
  // Names come from the schema and match campaigns_<digits> only: safe to put in SQL.
  for (const { table } of perAccountTables(db)) db.exec(`DROP TABLE ${table}`);
}

export const migration011: Migration = { version: 11, name: 'campaign-cache-file', up };
