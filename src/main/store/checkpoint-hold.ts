// Keeps the main connection from checkpointing while a first load (bulk load) writes, and has the
// store worker copy the log into the file once it is over.
//
// SQLite's default is that the connection that commits copies the log into the file once the log
// passes 1,000 pages, inside that commit. During a first load of 100,000 campaigns that happened
// three or four times on the event loop, 50-150 ms each on the development VM. Appended rows
// do not mind a long log, so a bulk load lets it grow (about 50 MB for 100,000 rows) and the
// worker copies it all at the end, off the event loop.
//
// Only bulk loads: for a refresh that updates rows in place, a log that grows while the worker
// copies it concurrently is never restarted and every page read searches it; that refresh got
// 50% slower when tried. Durability does not depend on checkpoints (a commit is durable once its
// log frames are).
import type { Database } from 'better-sqlite3';
import type { StoreWorker } from './store-worker';

export interface CheckpointHold {
  /** Until the matching release(), the main connection does not checkpoint. Holds nest. */
  hold(): void;
  /** Ends one hold; after the last one the worker checkpoints, then automatic checkpoints return. */
  release(): void;
  /** Resolves once the worker's checkpoint after the last release has run. */
  settled(): Promise<void>;
}

export function createCheckpointHold(db: Database, worker: StoreWorker | null): CheckpointHold {
  let holds = 0;
  // Read once: while a hold is being let go, the connection's current value is still 0.
  const automatic = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  let copying: Promise<void> = Promise.resolve();
  return {
    hold() {
      // A closed store has nothing to hold (a refresh abandoned after close() still calls this).
      if (!worker || !db.open || holds++ > 0) return;
      db.pragma('wal_autocheckpoint = 0');
    },
    release() {
      if (!worker || holds === 0 || --holds > 0) return;
      copying = worker
        .checkpoint()
        .catch(() => false)
        .then(() => {
          // A bulk load that began meanwhile keeps them off. Without a worker (it failed) the
          // main connection's next commit checkpoints, as SQLite does by default.
          if (holds === 0 && db.open) db.pragma(`wal_autocheckpoint = ${automatic}`);
        });
    },
    async settled() {
      let current: Promise<void>;
      do {
        current = copying;
        await current;
      } while (current !== copying);
    },
  };
}
