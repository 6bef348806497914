// What every repository gets: the connection, the clock and one way to run a transaction.
import type { Database } from 'better-sqlite3';
import type { StoreClock } from './types';

export interface RepoContext {
  db: Database;
  clock: StoreClock;
  /** Runs fn in a transaction (a savepoint when already inside one) and returns its result. */
  tx<T>(fn: () => T): T;
  /**
   * A transaction that only writes what a refresh can write again (when an account was synced):
   * committed with synchronous=NORMAL (no fsync of its own). On power loss it may be lost, never
   * corrupted, and the next FULL commit (an outbox or draft write) syncs it along with its own data.
   */
  cacheTx<T>(fn: () => T): T;
}

export function createContext(db: Database, clock: StoreClock): RepoContext {
  const tx = <T>(fn: () => T): T => {
    // IMMEDIATE takes the write lock up front, so a second process (the crash tests' child, a
    // second app instance) waits on busy_timeout instead of failing on lock upgrade.
    const run = db.transaction(() => {
      const out = fn();
      if (out instanceof Promise) {
        // better-sqlite3 would commit before the promise settles: refuse instead of half-applying.
        throw new TypeError('store transactions must be synchronous; do the awaiting outside');
      }
      return out;
    });
    return db.inTransaction ? run() : run.immediate();
  };
  return {
    db,
    clock,
    tx,
    cacheTx<T>(fn: () => T): T {
      // Inside someone else's transaction the outer commit decides; do not touch the setting.
      if (db.inTransaction) return fn();
      const previous = db.pragma('synchronous', { simple: true }) as number;
      db.pragma('synchronous = NORMAL');
      try {
        return tx(fn);
      } finally {
        db.pragma(`synchronous = ${previous}`);
      }
    },
  };
}
