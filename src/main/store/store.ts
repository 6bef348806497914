// The store: the data file with its migrations, the campaign cache file beside it (cache-file.ts)
// and every repository. All SQL of the app lives in this folder; the sync engine and the IPC layer use these objects, never the connection.
import type { Database } from 'better-sqlite3';
import { createAccountsRepo, type AccountsRepo } from './accounts-repo';
import { createActivityRepo, type ActivityRepo } from './activity-repo';
import { createAppsRepo, type AppsRepo } from './apps-repo';
import { createCampaignsRepo, type CampaignsRepo } from './campaigns-repo';
import { createCapabilitiesRepo, type CapabilitiesRepo } from './capabilities-repo';
import { startCacheReader } from './cache-reader';
import { startCacheWriter } from './cache-writer/cache-writer';
import { cacheFileOf, cachePragmas, prepareCacheFile, type LegacyTable } from './cache-file';
import { openDatabase } from './connection';
import { createContext } from './context';
import { createDraftsRepo, type DraftsRepo } from './drafts-repo';
import { migrate, readUserVersion, type MigrationResult } from './migrate';
import { MIGRATIONS } from './migrations';
import { perAccountTables } from './migrations/011-campaign-cache-file';
import BetterSqlite3 from 'better-sqlite3';
import { createOutboxRepo, type OutboxRepo } from './outbox-repo';
import { createProfilesRepo, type ProfilesRepo } from './profiles-repo';
import { createQuarantineRepo, type QuarantineRepo } from './quarantine-repo';
import { createSendNotesRepo, type SendNotesRepo } from './send-notes-repo';
import { createSettingsRepo, type SettingsRepo } from './settings-repo';
import { createTasksRepo, type TasksRepo } from './tasks-repo';
import { systemClock } from '../clock/clock';
import type { StoreClock } from './types';

export interface OpenStoreOptions {
  /** Path of the database file (created when missing). */
  file: string;
  clock?: StoreClock;
}

export interface Store {
  readonly file: string;
  /** Schema version before and after opening (for the activity log and tests). */
  readonly migration: MigrationResult;
  readonly profiles: ProfilesRepo;
  readonly accounts: AccountsRepo;
  readonly campaigns: CampaignsRepo;
  /** Resolves once the campaign cache's writer and readers run; rejects, saying why, when one cannot start. */
  readonly ready: Promise<void>;
  readonly apps: AppsRepo;
  readonly tasks: TasksRepo;
  readonly drafts: DraftsRepo;
  readonly outbox: OutboxRepo;
  readonly activity: ActivityRepo;
  readonly quarantine: QuarantineRepo;
  /** What was recorded about outbox items before they were sent (see send-notes-repo.ts). */
  readonly sendNotes: SendNotesRepo;
  readonly settings: SettingsRepo;
  /** What each account may use, learned or said by the person (DECISIONS client 13). */
  readonly capabilities: CapabilitiesRepo;
  /** Runs fn (synchronous) in one transaction; nested calls become savepoints. */
  transaction<T>(fn: () => T): T;
  /**
   * The same for what a refresh can find again (a network's members as its listing names them):
   * committed without an fsync of its own (RepoContext.cacheTx), so the main thread never waits
   * on a disk the cache writer keeps busy.
   */
  refetchableTransaction<T>(fn: () => T): T;
  /** PRAGMA integrity_check: ['ok'] when the file is sound. */
  integrityCheck(): string[];
  /** Closes the file (a promise, so callers need not change if closing ever waits for something). */
  close(): Promise<void>;
}

export function openStore(opts: OpenStoreOptions): Store {
  const db: Database = openDatabase(opts.file, MIGRATIONS);
  const cacheFile = cacheFileOf(opts.file);
  let migration: MigrationResult;
  try {
    // The campaign cache file is made ready first; a file from before version 11 has its cached
    // campaigns copied into it (from the shared table of versions 1-2 or the per-account tables of
    // 3-10), which the migrations then drop from the data file. A table whose account is gone,
    // left by a removal a crash interrupted, is not copied.
    const version = readUserVersion(db);
    let legacy: LegacyTable[] = [];
    if (version >= 1 && version < 3) legacy = [{ accountKey: null, table: 'campaigns' }];
    if (version >= 3 && version < 11) {
      const keys = new Set(db.prepare('SELECT account_key FROM accounts').pluck().all() as number[]);
      legacy = perAccountTables(db).filter((t) => keys.has(t.accountKey));
    }
    prepareCacheFile(cacheFile, legacy.length > 0 ? { dataFile: opts.file, tables: legacy } : null);
    migration = migrate(db, MIGRATIONS, opts.file);
  } catch (e) {
    db.close();
    throw e;
  }
  const ctx = createContext(db, opts.clock ?? systemClock);
  const quarantine = createQuarantineRepo(ctx);
  const accounts = createAccountsRepo(ctx);
  const outbox = createOutboxRepo(ctx, quarantine);
  const writer = startCacheWriter(cacheFile);
  // Rows of accounts removed while the app did not run to the end go first (requests keep their order).
  void writer.send({ type: 'keepOnly', accountKeys: accounts.listAll().map((a) => accounts.keyOf(a)) }).catch(() => undefined);
  const read = new BetterSqlite3(cacheFile, { readonly: true, fileMustExist: true });
  cachePragmas(read, 'main');
  const reader = startCacheReader(cacheFile);
  // Totals are counted on a thread of their own, so a page never waits behind a count.
  const counter = startCacheReader(cacheFile, undefined, { role: 'counter' });
  const campaigns = createCampaignsRepo(ctx, accounts, quarantine, { read, writer, reader, counter });
  return {
    file: opts.file,
    migration,
    profiles: createProfilesRepo(ctx),
    accounts,
    campaigns,
    ready: Promise.all([writer.ready, reader.ready, counter.ready]).then(() => undefined),
    apps: createAppsRepo(ctx),
    tasks: createTasksRepo(ctx, quarantine),
    drafts: createDraftsRepo(ctx, outbox, quarantine),
    outbox,
    activity: createActivityRepo(ctx),
    quarantine,
    sendNotes: createSendNotesRepo(ctx),
    settings: createSettingsRepo(ctx),
    capabilities: createCapabilitiesRepo(ctx, accounts),
    transaction: (fn) => ctx.tx(fn),
    refetchableTransaction: (fn) => ctx.cacheTx(fn),
    integrityCheck: () => (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check),
    close: async () => {
      // The cache writer answers what was sent to it and closes last of the cache file's
      // connections, because closing a file's last writable connection copies what its log still
      // holds into it (SQLite does that; a read-only one cannot).
      if (read.open) read.close();
      await Promise.all([reader.close(), counter.close()]);
      await writer.close();
      if (db.open) db.close();
    },
  };
}
