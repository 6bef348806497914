// Opens the one database file with the settings every repository relies on.
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { damaged, explainOpenError, foreign } from './data-file';
import { latestVersion, migrate, readUserVersion, tooNewError, type Migration } from './migrate';
import { electronNativeBinding } from './native-binding';

/**
 * synchronous=FULL is the connection's setting: in WAL mode NORMAL can lose the last commits on
 * power loss, and an acknowledged outbox row or draft must survive that. The one exception is a
 * refresh's record of when an account was synced (RepoContext.cacheTx): a network's refresh marks
 * thousands of member accounts, one fsync each would cost seconds, and a lost mark only means the
 * next refresh happens a little sooner. In WAL mode a NORMAL commit can be lost on power loss but
 * never corrupts the file, and the next FULL commit syncs it along with its own data. cacheTx
 * restores FULL in a finally block, so no path can leave the connection relaxed. (The campaigns
 * themselves are in the cache file, written by the cache writer: cache-file.ts.)
 */
export const SYNCHRONOUS = 'FULL' as const;
export const BUSY_TIMEOUT_MS = 5000;
/**
 * Page size of a new file: SQLite's default, 4 KiB. The campaign cache is written in short
 * transactions whose rows land at random places in each sort index, and every commit appends each
 * page it dirtied to the log whole: with 16 KiB pages (chosen for the bulk load, gone since)
 * loading 100,000 campaigns wrote 8.8 GB, with 4 KiB pages 3.8 GB, for a 77 MB file (2-core VM,
 * 2026-11-26; see docs/benchmarks.md). It only applies to a file that has no tables yet; an
 * older file keeps its size (everything works with either).
 */
export const NEW_FILE_PAGE_SIZE = 4096;

/**
 * Log pages after which a commit copies the log into the file (SQLite's default is 1000). A
 * refresh dirties the same index pages over and over, and a checkpoint copies each page once
 * however often the log holds it. bench/refresh.ts, 100,000 campaigns, run alternately on the
 * shared 2-core VM (2026-11-26): every 1000 pages wrote 1.2-1.3 GB with event-loop holds up to
 * 445 ms; every 4000, 0.9-0.95 GB and 276-372 ms; every 10,000 (40 MB of log), 0.7-0.86 GB and
 * 147-186 ms, with faster draft saves meanwhile. Less written is less for the kernel to throttle.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * Size the -wal file is cut back to when the log starts over after a checkpoint: above the ~40 MB
 * it reaches between checkpoints, so it is not cut back every time.
 */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** Tables that hold what a person did (connections, accounts, drafts, queued changes). */
const WORK_TABLES = ['profiles', 'accounts', 'drafts', 'outbox'] as const;

function tableNames(db: Db): Set<string> {
  return new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]);
}

/**
 * Refuses a file that is SQLite but not ours: tables without our first table ("profiles"), which
 * every version of the app has created since the first one. Such a file would otherwise be
 * migrated (version 0) or reported as "newer" (another program's user_version).
 */
function assertOurs(db: Db, file: string, found: number): Set<string> {
  const tables = tableNames(db);
  if (tables.size > 0 && !tables.has('profiles')) {
    throw foreign(file, `a SQLite database of another program, with tables such as ${[...tables].slice(0, 3).join(', ')}`);
  }
  if (tables.size === 0 && found > 0) throw foreign(file, 'a SQLite database with a version number but none of our tables');
  // Every version of the app wrote its version number in the same transaction as its tables.
  if (tables.size > 0 && found === 0)
    throw foreign(
      file,
      `a SQLite database of another program, with tables such as ${[...tables].slice(0, 3).join(', ')} but no Campaign Desk version`,
    );
  return tables;
}

/**
 * A file of an older version is upgraded on a copy in memory first: a file whose tables are not
 * what that version wrote (another program's that happens to have a "profiles" table) is refused
 * as not ours before the real upgrade, or any pragma, has touched it.
 */
function rehearseUpgrade(db: Db, file: string, found: number, migrations: readonly Migration[]): void {
  if (found >= latestVersion(migrations)) return;
  const copy = new Database(db.serialize(), { nativeBinding: electronNativeBinding() });
  try {
    migrate(copy, migrations, file);
  } catch (e) {
    const reason = e instanceof Error ? e.message.split(': ').slice(1).join(': ').split('. ')[0] : '';
    throw foreign(file, `its tables are not those of Campaign Desk's data version ${found}${reason ? `: ${reason}` : ''}`);
  } finally {
    copy.close();
  }
}

/**
 * The small tables that hold the person's work are checked page by page before anything else is
 * done: a damaged page there would otherwise surface later as "SQLITE_CORRUPT" in the middle of an
 * edit. The campaign cache (large, and fetched again at will) is left to the normal reads.
 */
function checkWorkTables(db: Db, tables: Set<string>): string | null {
  for (const t of WORK_TABLES) {
    if (!tables.has(t)) continue;
    const rows = db.pragma(`quick_check(${t})`) as { quick_check: string }[];
    if (rows.length !== 1 || rows[0].quick_check !== 'ok') return `the table of ${t} failed SQLite's check`;
  }
  return null;
}

/** A connection to the file, or the reason it cannot be opened in words a person can act on. */
function openOrExplain(file: string, options: Database.Options): Db {
  try {
    return new Database(file, { ...options, nativeBinding: electronNativeBinding() });
  } catch (e) {
    throw explainOpenError(e, file);
  }
}

/** The file's schema version; a file from a newer app is refused, naming both versions. */
function refuseNewer(db: Db, file: string, migrations: readonly Migration[]): number {
  const found = readUserVersion(db);
  const known = latestVersion(migrations);
  if (found > known) throw tooNewError(file, found, known);
  return found;
}

/**
 * Looks at an existing file through a read-only connection first: a read-write one would, on
 * closing, fold a -wal into the file and delete it, which must not happen to a file that turns
 * out to be damaged, foreign or newer (its last commits may be in that log).
 */
function inspect(file: string, migrations: readonly Migration[]): void {
  const db = openOrExplain(file, { readonly: true, fileMustExist: true });
  try {
    // A file that says it is newer is left alone whatever it holds: an update is the remedy.
    const found = refuseNewer(db, file, migrations);
    const tables = assertOurs(db, file, found);
    const broken = checkWorkTables(db, tables);
    if (broken !== null) throw damaged(file, broken);
    rehearseUpgrade(db, file, found, migrations);
  } catch (e) {
    throw explainOpenError(e, file);
  } finally {
    db.close();
  }
}

/** SQLite opens a file it may not write read-only without a word; the first save would then fail. */
function assertWritable(file: string): void {
  for (const path of [file, dirname(file)]) {
    try {
      accessSync(path, constants.W_OK);
    } catch (e) {
      throw explainOpenError(e, file);
    }
  }
}

/**
 * Opens the file, or throws a DataFileProblem that says what is wrong with it (damaged, not ours,
 * newer, read-only) and what to do. Errors of any other kind pass through unchanged.
 */
export function openDatabase(file: string, migrations: readonly Migration[]): Db {
  if (existsSync(file)) {
    inspect(file, migrations);
    assertWritable(file);
  }
  const db = openOrExplain(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    // Checked again on this connection (the file may be new, or replaced meanwhile), before any
    // pragma that writes (journal_mode): a file from a newer app is refused without being touched.
    const found = refuseNewer(db, file, migrations);
    if (found === 0 && tableNames(db).size === 0) {
      db.pragma(`page_size = ${NEW_FILE_PAGE_SIZE}`);
    }
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${SYNCHRONOUS}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('temp_store = MEMORY');
    // The data file holds profiles, accounts, drafts and the outbox (the campaigns are in the cache
    // file): a few MB even with thousands of accounts. Its cache grew toward 32 MB as a 5,000-member
    // network's refresh added its accounts, which counted against the app's peak memory.
    db.pragma('cache_size = -8000');
    db.pragma('trusted_schema = OFF');
    // Once a checkpoint has copied a large log (a first load writes gigabytes of it), the next
    // commit starts the log over and cuts the file back to this size instead of keeping it on disk.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    return db;
  } catch (e) {
    db.close();
    throw explainOpenError(e, file);
  }
}
