// Numbered, append-only migrations tracked by PRAGMA user_version. All pending steps run in one
// IMMEDIATE transaction: the app either gets the whole new schema or keeps the old file intact,
// never a half-migrated database it cannot reason about.
import type { Database } from 'better-sqlite3';
import { tooNew, type DataFileProblem } from './data-file';
import { StoreError } from './errors';

export interface Migration {
  version: number;
  name: string;
  /** SQL run as one script, or a function for steps that must transform data. */
  up: string | ((db: Database) => void);
}

export function readUserVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
}

/** Migrations must be numbered 1..N without gaps: a gap means a file was deleted or misnumbered. */
export function assertWellFormed(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
    }
  });
}

export function tooNewError(file: string, found: number, known: number): DataFileProblem {
  return tooNew(file, found, known);
}

export interface MigrationResult {
  from: number;
  to: number;
}

/**
 * Brings `db` up to the latest migration. The caller has already refused a newer database
 * before setting any pragma that could write to the file.
 */
export function migrate(db: Database, migrations: readonly Migration[], file: string): MigrationResult {
  assertWellFormed(migrations);
  const latest = latestVersion(migrations);
  const from = readUserVersion(db);
  if (from > latest) throw tooNewError(file, from, latest);
  if (from === latest) return { from, to: latest };
  const run = db.transaction(() => {
    for (const m of migrations) {
      if (m.version <= from) continue;
      try {
        if (typeof m.up === 'string') db.exec(m.up);
        else m.up(db);
      } catch (e) {
        throw new StoreError(
          'MIGRATION_FAILED',
          `Could not upgrade the data file to version ${m.version} (${m.name}): ${(e as Error).message}. ` +
            'Nothing was changed; please report this.',
        );
      }
      // user_version lives in the file header and is part of this transaction.
      db.pragma(`user_version = ${m.version}`);
    }
    const broken = db.pragma('foreign_key_check') as unknown[];
    if (broken.length > 0) {
      throw new StoreError('MIGRATION_FAILED', `Upgrade left ${broken.length} broken references; nothing was changed.`);
    }
  });
  run.immediate();
  return { from, to: latest };
}
