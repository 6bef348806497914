// Opens the one database file with the settings every repository relies on.
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { latestVersion, readUserVersion, tooNewError, type Migration } from './migrate';
import { electronNativeBinding } from './native-binding';

/**
 * synchronous=FULL is the connection's setting: in WAL mode NORMAL can lose the last commits on
 * power loss, and an acknowledged outbox row or draft must survive that. The one exception is the
 * campaign cache refresh (RepoContext.cacheTx), which commits its pages with NORMAL: those rows
 * can always be fetched again, and a refresh of 100,000 campaigns is 100 commits whose fsyncs
 * cost 10-30% of the first load in bench/store.ts runs on the 2-core development VM. In WAL
 * mode a NORMAL commit can be lost on power loss but never corrupts the file, and the next FULL
 * commit syncs it along with its own data. cacheTx restores FULL in a finally block, so no path can leave the
 * connection relaxed.
 */
export const SYNCHRONOUS = 'FULL' as const;
export const BUSY_TIMEOUT_MS = 5000;
/**
 * Page size of a new file. The campaign cache is written in large sorted runs (a first load of
 * 100,000 rows, then one CREATE INDEX per sort column): with 16 KiB pages those write a quarter
 * of the pages and b-tree splits of 4 KiB ones, and bench/store.ts's first load ran about 25%
 * faster on the development VM. It only applies to a file that has no tables yet; an older file
 * keeps its size (everything works with either).
 */
export const NEW_FILE_PAGE_SIZE = 16384;

/** Size the -wal file is cut back to when the log starts over (see checkpoints.ts). */
export const WAL_SIZE_LIMIT_BYTES = 32 * 1024 * 1024;

export function openDatabase(file: string, migrations: readonly Migration[]): Db {
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS, nativeBinding: electronNativeBinding() });
  try {
    // Read the version before any pragma that writes (journal_mode): a file from a newer app is
    // refused without being touched.
    const found = readUserVersion(db);
    const known = latestVersion(migrations);
    if (found > known) throw tooNewError(file, found, known);
    if (found === 0 && db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() === 0) {
      db.pragma(`page_size = ${NEW_FILE_PAGE_SIZE}`);
    }
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${SYNCHRONOUS}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('temp_store = MEMORY');
    // The sort indexes of a 100,000-campaign account are ~30 MB; a smaller cache re-reads pages.
    db.pragma('cache_size = -32000');
    db.pragma('trusted_schema = OFF');
    // Once the worker has copied a large log (a first load writes ~100 MB), the next commit starts
    // the log over and cuts the file back to this size instead of keeping all of it on disk.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}
