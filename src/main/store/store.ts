// The store: one SQLite file, its migrations and every repository. All SQL of the app lives in
// this folder; the sync engine and the IPC layer use these objects, never the connection.
import type { Database } from 'better-sqlite3';
import { createAccountsRepo, type AccountsRepo } from './accounts-repo';
import { createActivityRepo, type ActivityRepo } from './activity-repo';
import { createAppsRepo, type AppsRepo } from './apps-repo';
import { createCampaignsRepo, type CampaignsRepo } from './campaigns-repo';
import { createCapabilitiesRepo, type CapabilitiesRepo } from './capabilities-repo';
import { openDatabase } from './connection';
import { createContext } from './context';
import { createDraftsRepo, type DraftsRepo } from './drafts-repo';
import { migrate, type MigrationResult } from './migrate';
import { MIGRATIONS } from './migrations';
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
  /**
   * How campaign-cache refresh pages commit. The app uses the default, NORMAL (see connection.ts);
   * the benchmark passes FULL to measure what that choice saves.
   */
  cacheCommitSync?: 'NORMAL' | 'FULL';
}

export interface Store {
  readonly file: string;
  /** Schema version before and after opening (for the activity log and tests). */
  readonly migration: MigrationResult;
  readonly profiles: ProfilesRepo;
  readonly accounts: AccountsRepo;
  readonly campaigns: CampaignsRepo;
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
  /** PRAGMA integrity_check: ['ok'] when the file is sound. */
  integrityCheck(): string[];
  /** Closes the file (a promise, so callers need not change if closing ever waits for something). */
  close(): Promise<void>;
}

export function openStore(opts: OpenStoreOptions): Store {
  const db: Database = openDatabase(opts.file, MIGRATIONS);
  let migration: MigrationResult;
  try {
    migration = migrate(db, MIGRATIONS, opts.file);
  } catch (e) {
    db.close();
    throw e;
  }
  const ctx = createContext(db, opts.clock ?? systemClock, { cacheSync: opts.cacheCommitSync });
  const quarantine = createQuarantineRepo(ctx);
  const accounts = createAccountsRepo(ctx);
  const outbox = createOutboxRepo(ctx, quarantine);
  const campaigns = createCampaignsRepo(ctx, accounts, quarantine);
  return {
    file: opts.file,
    migration,
    profiles: createProfilesRepo(ctx),
    accounts,
    campaigns,
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
    integrityCheck: () => (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check),
    close: () => {
      // Closing the last connection copies what the log still holds into the file (SQLite does that).
      if (db.open) db.close();
      return Promise.resolve();
    },
  };
}
