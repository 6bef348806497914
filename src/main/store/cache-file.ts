// The campaign cache's own SQLite file, beside the data file (campaign-desk.sqlite ->
// campaign-desk.campaigns.sqlite). Why a file of its own: a first refresh of a large account writes
// 100,000 rows into nine indexes, which costs SQLite seconds; in the data file, the only way to keep
// a draft save from waiting was for the main thread to write them itself in transactions of about
// 12 ms, and small transactions write every index page they touch again and again (hundreds of MB
// of log for a 78 MB table). In a file of its own the rows are written by the cache writer
// (cache-writer/) on a worker thread, in large transactions, while drafts and the outbox commit to
// the data file undisturbed and the window reads the cache through its own connection.
//
// It holds nothing that cannot be fetched again, so a cache file this app cannot read (damaged, or
// from a newer app) is replaced by an empty one, and the next refresh fills it.
import Database, { type Database as Db } from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { CAMPAIGN_WRITE_COLUMNS, LONG_ID_KEY } from './campaign-columns';

const CACHE_PAGE_SIZE = 16384;

/**
 * The schema version of the cache file (its own user_version, apart from the data file's).
 * 3: ids of 16 digits or more have the sort key LONG_ID_KEY + their length (idSortKey), not -1.
 * 4: raw_digest, the digest of the listed bytes a row was made from (record-digest.ts). A change
 * to how a record becomes a row must bump this version and clear raw_digest: a skipped record
 * keeps the row an older app made from the same bytes.
 * 5: the text index (campaign_text) and each row's text_rowid, its row in that index.
 * 6: the text index holds each row's text with two separators after it (indexedText): built again.
 */
export const CACHE_SCHEMA_VERSION = 6;

export const CAMPAIGNS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS campaigns (
  account_key INTEGER NOT NULL,
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
  raw_digest TEXT,
  text_rowid INTEGER,
  PRIMARY KEY (account_key, id_num, id)
) STRICT, WITHOUT ROWID`;

/**
 * The text index: every row's search text (campaign-columns.ts, searchText) cut into trigrams, so
 * a word of three characters or more is found without reading the account's rows (the search box
 * read them all: 0.3-0.6 s at 1,000,000 campaigns). A phrase of trigrams matches exactly where the
 * word occurs in the text, which is instr()'s meaning: `case_sensitive 1` because the text and the
 * word are both lower-cased in JS already (FTS5's own folding differs from toLowerCase on some
 * letters), and no removal of diacritics (the search box never folded them).
 *
 * Contentless (the text is in campaigns.search already), the row's key kept in UNINDEXED columns
 * (contentless_unindexed) so a match names its campaign without a look-up, and contentless_delete
 * so a row can be deleted by its rowid alone. That rowid is campaigns.text_rowid (the campaigns
 * table has no rowid of its own): the account's key in the high 32 bits and a number the cache
 * writer hands out per account in the low ones (cache-writer/worker.ts), so a search reads only
 * its account's range of the index (`rowid BETWEEN`), which FTS5 seeks to. The triggers keep the
 * index in step with every write of the table, whichever statement makes it.
 */
export const TEXT_INDEX_SQL =
  "CREATE VIRTUAL TABLE IF NOT EXISTS campaign_text USING fts5(search, id_num UNINDEXED, id UNINDEXED, content='', contentless_delete=1, contentless_unindexed=1, tokenize='trigram case_sensitive 1')";

/**
 * What the text index holds of a row (`of`: the table or trigger row it is read from): its search
 * text and two separators (U+0001, which no search word holds) after it, so that every character
 * of the text begins a trigram. A word of one or two characters, which has no trigram of its own,
 * is then in a row exactly when one of the trigrams it begins is (campaign-query.ts,
 * shortWordTerms), at the text's end too.
 */
const indexedText = (of: 'new' | 'campaigns') => `${of}.search || char(1, 1)`;

const TEXT_TRIGGERS_SQL = [
  `CREATE TRIGGER campaign_text_insert AFTER INSERT ON campaigns BEGIN
  INSERT INTO campaign_text (rowid, search, id_num, id) VALUES (new.text_rowid, ${indexedText('new')}, new.id_num, new.id);
END`,
  `CREATE TRIGGER campaign_text_delete AFTER DELETE ON campaigns BEGIN
  DELETE FROM campaign_text WHERE rowid = old.text_rowid;
END`,
  `CREATE TRIGGER campaign_text_update AFTER UPDATE OF search ON campaigns BEGIN
  DELETE FROM campaign_text WHERE rowid = old.text_rowid;
  INSERT INTO campaign_text (rowid, search, id_num, id) VALUES (new.text_rowid, ${indexedText('new')}, new.id_num, new.id);
END`,
];
const TEXT_TRIGGERS = ['campaign_text_insert', 'campaign_text_delete', 'campaign_text_update'];

/** The range of text_rowid (and of the text index's rowids) that belongs to an account. */
export const textRowidRange = (accountKey: number): [number, number] => [accountKey * 2 ** 32, accountKey * 2 ** 32 + 2 ** 32 - 1];

/**
 * Whether the text index answers for every row: it is emptied, and its triggers dropped, while a
 * bulk load writes the bare table and until the writer has built it again after (dropTextIndex,
 * buildTextIndex), so the triggers are what says it is whole.
 */
export function hasTextIndex(db: Db): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name = 'campaign_text_insert'").pluck().get() === 1;
}

/**
 * Takes the text index out of use: its triggers go (rows are written without it) and its rows are
 * deleted (FTS5's 'delete-all', which drops its segments whole). Why not DROP TABLE: SQLite 3.51
 * leaves a contentless_unindexed table's content table behind when the table is dropped, and a
 * shadow table may not be dropped by hand (better-sqlite3 runs SQLite in defensive mode).
 */
export function dropTextIndex(db: Db): void {
  for (const name of TEXT_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
  db.exec(TEXT_INDEX_SQL);
  db.exec("INSERT INTO campaign_text (campaign_text) VALUES ('delete-all')");
}

/**
 * Builds the text index from the table when it is not whole (a new or upgraded file, or after a
 * bulk load): rows without a text_rowid (an older file's, or ones copied in by prepareCacheFile)
 * are numbered after their account's highest, then every row's text is indexed in one statement,
 * which FTS5 writes as a few large segments instead of merging small ones row by row. Runs in a
 * transaction of its own. Returns whether it built the index.
 */
export function buildTextIndex(db: Db): boolean {
  if (hasTextIndex(db)) return false;
  db.transaction(() => {
    dropTextIndex(db);
    db.exec(`UPDATE campaigns SET text_rowid = numbered.base + numbered.n
FROM (SELECT c.account_key, c.id_num, c.id, row_number() OVER (PARTITION BY c.account_key) AS n,
        coalesce((SELECT max(m.text_rowid) FROM campaigns m WHERE m.account_key = c.account_key), c.account_key * 4294967296) AS base
      FROM campaigns c WHERE c.text_rowid IS NULL) AS numbered
WHERE campaigns.account_key = numbered.account_key AND campaigns.id_num = numbered.id_num AND campaigns.id = numbered.id`);
    db.exec(
      `INSERT INTO campaign_text (rowid, search, id_num, id) SELECT text_rowid, ${indexedText('campaigns')}, id_num, id FROM campaigns`,
    );
    for (const sql of TEXT_TRIGGERS_SQL) db.exec(sql);
  })();
  return true;
}

/**
 * [name suffix, columns after account_key] of the secondary indexes: one per column the grid sorts
 * by. Each is led by the account, so a screen walks its account's range in order. Ties are broken
 * by the id (id_num, id), which is unique, so inserting a row never compares past it; status rides
 * along after it, so the status filter is read from the index without visiting rows. (Status
 * before the id, as in cache schema 1, made a first refresh of 100,000 campaigns spend ~0.1 s
 * more: many campaigns share a bid strategy, a budget or an advertiser, and each insert among them
 * compared statuses.)
 *
 * The text filter has none: it reads the account's range of the table itself, which at 100,000
 * campaigns took 11-23 ms against 7-20 ms through an index on the search column, while keeping
 * that index cost a first refresh of those campaigns ~0.1 s.
 */
export const CAMPAIGN_INDEXES: readonly (readonly [string, string])[] = [
  ['name', 'name, id_num, id, status'],
  ['advertiser_name', 'advertiser_name, id_num, id, status'],
  ['status', 'status'],
  ['spent', 'spent, id_num, id, status'],
  ['cpc', 'cpc, id_num, id, status'],
  ['daily_cap', 'daily_cap, id_num, id, status'],
  ['spending_limit', 'spending_limit, id_num, id, status'],
  ['bid_strategy', 'bid_strategy, id_num, id, status'],
  ['start_date', 'start_date, id_num, id, status'],
];

/**
 * A first load of accounts that started empty goes into the table without its secondary indexes
 * once it has written this many rows and more than the table held before it; the indexes are built
 * after its rows (cache-writer/worker.ts, "Bulk load").
 */
export const BULK_LOAD_MIN_ROWS = 20_000;

/** The statement that creates an index, as SQLite keeps it in sqlite_schema. */
export const indexSql = (suffix: string, cols: string) => `CREATE INDEX campaigns_by_${suffix} ON campaigns(account_key, ${cols})`;

/**
 * Makes the campaigns table's indexes exactly CAMPAIGN_INDEXES: creates the missing ones, and drops
 * and recreates any an older app defined differently or no longer keeps (an upgrade rebuilds them
 * once; a first refresh afterwards finds them ready).
 */
function matchIndexes(db: Db): void {
  const wanted = new Map(CAMPAIGN_INDEXES.map(([suffix, cols]) => [`campaigns_by_${suffix}`, indexSql(suffix, cols)]));
  const existing = db
    .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'campaigns' AND sql IS NOT NULL")
    .all() as { name: string; sql: string }[];
  for (const { name, sql } of existing) {
    if (wanted.get(name) === sql) wanted.delete(name);
    // Names come from the file's own schema; they are quoted as identifiers.
    else db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  }
  for (const sql of wanted.values()) db.exec(sql);
}

/** The cache file that goes with a data file. */
export function cacheFileOf(dataFile: string): string {
  const ext = extname(dataFile);
  return join(dirname(dataFile), `${basename(dataFile, ext)}.campaigns${ext || '.sqlite'}`);
}

/**
 * The most page cache (KB) each connection to the cache file keeps. Each fills up to its limit as
 * it works, and a network's first refresh peaked at ~335 MB with 32 MB for all three. The window's
 * reader walks the sort indexes (~30 MB for 100,000 campaigns; a smaller cache re-reads pages);
 * the writer appends a first load to a bare table and otherwise updates rows by key; the main
 * thread's own connection reads keys and digests in order, a chunk at a time. The counter (the
 * reader that counts the lists' totals) reads an index or the text index once through per count.
 */
export const CACHE_SIZE_KB = { reader: 32_000, counter: 8_000, writer: 8_000, main: 4_000 } as const;

/** Settings of every connection to the cache file (the writer's and the readers'). */
export function cachePragmas(db: Db, role: keyof typeof CACHE_SIZE_KB): void {
  db.pragma('temp_store = MEMORY');
  db.pragma(`cache_size = -${CACHE_SIZE_KB[role]}`);
  db.pragma('trusted_schema = OFF');
}

function removeCacheFile(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
}

/**
 * A table of an older data file whose rows move into the cache file: one account's (versions
 * 3-10, campaigns_<key>, accountKey set) or the shared one of versions 1-2 (campaigns, which has
 * the account_key column itself).
 */
export interface LegacyTable {
  accountKey: number | null;
  table: string;
}

/**
 * Before the writer starts: makes sure the cache file exists with its schema (replacing one this
 * app cannot use), and copies the rows of an older data file's per-account tables into it.
 */
export function prepareCacheFile(file: string, legacy: { dataFile: string; tables: readonly LegacyTable[] } | null): void {
  let db: Db | null = null;
  try {
    db = new Database(file);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > CACHE_SCHEMA_VERSION) throw new Error(`cache schema ${version} is newer than this app's`);
    const check = db.pragma('quick_check') as { quick_check: string }[];
    if (check.length !== 1 || check[0].quick_check !== 'ok') throw new Error('the cache file is damaged');
  } catch {
    // Damaged, not a database, or from a newer app: a cache is simply fetched again.
    db?.close();
    db = null;
    removeCacheFile(file);
  }
  db ??= new Database(file);
  try {
    // 16 KB pages: a first refresh of 100,000 campaigns into its indexes wrote ~20% faster than with
    // 4 KB pages (fewer pages split and logged). Set only on a new file (a page size is fixed once written).
    if (!existsSync(`${file}-wal`) && (db.pragma('page_count', { simple: true }) as number) === 0)
      db.pragma(`page_size = ${CACHE_PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
    cachePragmas(db, 'main');
    const version = db.pragma('user_version', { simple: true }) as number;
    db.transaction(() => {
      db!.exec(CAMPAIGNS_TABLE_SQL);
      // A cache of schema 3 or older: its rows have no digest and are parsed at their next refresh.
      const columns = db!.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('campaigns') as string[];
      if (!columns.includes('raw_digest')) db!.exec('ALTER TABLE campaigns ADD COLUMN raw_digest TEXT');
      // A cache of schema 4 or older: its rows are numbered when the writer builds the text index.
      if (!columns.includes('text_rowid')) db!.exec('ALTER TABLE campaigns ADD COLUMN text_rowid INTEGER');
      db!.exec(TEXT_INDEX_SQL);
      // A cache of schema 5 or older: its text index is built again (indexedText) by the writer.
      if (version < 6) dropTextIndex(db!);
      matchIndexes(db!);
      db!.pragma(`user_version = ${CACHE_SCHEMA_VERSION}`);
    })();
    if (legacy && legacy.tables.length > 0) {
      // Read through the data file itself; the columns are the same as the cache's, minus the key.
      const columns = CAMPAIGN_WRITE_COLUMNS.slice(1)
        .filter((c) => c !== 'raw_digest')
        .join(', ');
      // The rows copied in have no text_rowid: the writer builds the text index after them.
      db.transaction(() => dropTextIndex(db!))();
      db.prepare('ATTACH DATABASE ? AS old').run(legacy.dataFile);
      try {
        db.transaction(() => {
          for (const t of legacy.tables) {
            // Names come from the data file's schema and match campaigns or campaigns_<digits> only: safe in SQL.
            if (!/^campaigns(_\d+)?$/.test(t.table)) continue;
            if (t.accountKey === null)
              db!.exec(`INSERT OR REPLACE INTO campaigns (account_key, ${columns}) SELECT account_key, ${columns} FROM old.${t.table}`);
            else
              db!
                .prepare(`INSERT OR REPLACE INTO campaigns (account_key, ${columns}) SELECT ?, ${columns} FROM old.${t.table}`)
                .run(t.accountKey);
          }
        })();
      } finally {
        db.exec('DETACH DATABASE old');
      }
    }
    // Rows an older app (or an older data file's tables) keyed by -1 would be missed by a look-up
    // with today's key and kept beside the row a refresh writes: they take today's (idSortKey).
    if (version < 3)
      db.prepare("UPDATE campaigns SET id_num = ? + length(id) WHERE id_num = -1 AND length(id) >= 16 AND id NOT GLOB '*[^0-9]*'").run(
        LONG_ID_KEY,
      );
  } finally {
    db.close();
  }
}
