// A second connection to the database file on a worker thread, for the slow writes the main
// process's event loop must not wait for:
// - index builds: one CREATE INDEX over 100,000 rows takes 100-300 ms on the development VM, and a
//   first load of a large account builds 17 of them (campaigns-repo.ts);
// - checkpoints: copying the write-ahead log into the file and syncing it, after a first load
//   (checkpoint-hold.ts), which writes about 50 MB of log;
// - the page writes of a refresh of an account already cached (row-writer.ts): a page whose
//   campaigns changed status rewrites their entries in all 17 indexes, 50-200 ms per page of
//   1,000 on the development VM.
// In WAL mode the main connection keeps reading and writing while the worker works; a write that
// coincides with an index build waits for it (busy_timeout), as it would for any other writer. A
// checkpoint never blocks the main connection's readers or writers (PASSIVE).
//
// The worker's code is a string run with `eval`, not a file: nothing has to be bundled or located
// beside the Electron build. It gets the driver's resolved path and the same native binding the
// main connection uses. When a worker cannot be started or fails, a build runs on the calling
// thread instead (the old behaviour, slower to the eye, never wrong) and checkpoint() reports that
// the main connection has to do its own.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BUSY_TIMEOUT_MS } from './connection';
import { electronNativeBinding } from './native-binding';
import { rowMask, rowStatements, writeRows, type RowTable } from './row-writer';

export interface StoreWorker {
  /**
   * Runs one CREATE INDEX statement; resolves when it is committed. Jobs run one at a time, in
   * order. When the worker cannot do it, `onThisThread` runs it on the caller's connection.
   */
  build(sql: string, onThisThread: () => void): Promise<void>;
  /**
   * Copies the write-ahead log into the database file (PRAGMA wal_checkpoint(PASSIVE)) on the
   * worker, after the jobs queued before it. Resolves false when no worker can run.
   */
  checkpoint(): Promise<boolean>;
  /**
   * Writes rows into a table that has its indexes, in one transaction, as writeRows does
   * (row-writer.ts); resolves how many were written. Queued after the jobs before it. When the
   * worker cannot do it, `onThisThread` writes them on the caller's connection.
   */
  writeRows(t: RowTable, rows: readonly (readonly unknown[])[], masks: readonly number[] | undefined, onThisThread: () => number): Promise<number>;
  /**
   * Starts the thread now if it is not running, so that the first job does not wait for it
   * (about 50 ms on the development VM: a thread, the driver, a connection).
   */
  warm(): void;
  /** Stops the worker; jobs not yet started are rejected. */
  close(): Promise<void>;
  /** True once jobs go to a worker thread (false before the first job and after a fallback). */
  readonly offThread: boolean;
}

/** While an index is built: SQLite's sorter may use a helper thread, and a large page cache keeps the sort in memory (KiB). */
export const BUILD_THREADS = 2;
export const BUILD_CACHE_KIB = 128_000;

const workerSource = () => `
// esbuild's keepNames (tsx) wraps nested functions in __name(); the copied text needs it too.
const __name = (f) => f;
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs, nativeBinding: workerData.nativeBinding });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('trusted_schema = OFF');
// Index pages and refresh pages are re-creatable cache data, committed NORMAL (connection.ts).
db.pragma('synchronous = NORMAL');
db.pragma('threads = ' + workerData.threads);
db.pragma('cache_size = -' + workerData.cacheKib);
${rowStatements.toString()}
${rowMask.toString()}
${writeRows.toString()}
// The row statements of each table written so far.
const tables = new Map();
parentPort.on('message', (msg) => {
  try {
    let result = null;
    if (msg.rows) {
      const t = msg.rows;
      let s = tables.get(t.table);
      if (!s) tables.set(t.table, (s = rowStatements(db, t)));
      try {
        result = db.transaction(() => writeRows(s, t.values, t.masks)).immediate();
      } catch (e) {
        // The table may have been dropped and made again: prepare afresh next time.
        tables.delete(t.table);
        throw e;
      }
    } else if (msg.sql === null) db.pragma('wal_checkpoint(PASSIVE)');
    else db.exec(msg.sql);
    parentPort.postMessage({ id: msg.id, ok: true, result });
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, message: String(e && e.message) });
  }
});
parentPort.postMessage({ ready: true });
`;

interface Pending {
  resolve: (result: unknown) => void;
  reject: (e: Error) => void;
}

/** `file` is the database file the main connection has open; the worker starts with its first job. */
export function createStoreWorker(file: string): StoreWorker {
  let worker: Worker | null = null;
  let ready: Promise<boolean> | null = null;
  let failed = false;
  let closed = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (reason: Error) => {
    for (const p of pending.values()) p.reject(reason);
    pending.clear();
  };

  const start = (): Promise<boolean> => {
    if (ready) return ready;
    ready = new Promise<boolean>((resolve) => {
      try {
        const w = new Worker(workerSource(), {
          eval: true,
          workerData: {
            driver: createRequire(__filename).resolve('better-sqlite3'),
            file,
            nativeBinding: electronNativeBinding(),
            busyTimeoutMs: BUSY_TIMEOUT_MS,
            threads: BUILD_THREADS,
            cacheKib: BUILD_CACHE_KIB,
          },
        });
        // The worker must never keep the process alive on its own (tests, app quit).
        w.unref();
        w.on('message', (msg: { ready?: boolean; id?: number; ok?: boolean; message?: string; result?: unknown }) => {
          if (msg.ready) return resolve(true);
          const p = msg.id === undefined ? undefined : pending.get(msg.id);
          if (!p) return;
          pending.delete(msg.id as number);
          if (msg.ok) p.resolve(msg.result);
          else p.reject(new Error(msg.message ?? 'the store worker could not run the statement'));
        });
        const broken = (reason: Error) => {
          failed = true;
          worker = null;
          resolve(false);
          failAll(reason);
        };
        w.on('error', broken);
        w.on('exit', () => broken(new Error('the store worker stopped')));
        worker = w;
      } catch {
        failed = true;
        resolve(false);
      }
    });
    return ready;
  };

  // One job at a time, in order: each waits for the previous one to settle. A job is a statement
  // (`sql`; null is a checkpoint, which only the worker does) or rows to write. `worker` says
  // whether the worker did it; otherwise `onThisThread` did, and `value` is what it returned.
  let chain: Promise<unknown> = Promise.resolve();
  type RowsJob = RowTable & { values: readonly (readonly unknown[])[]; masks: readonly number[] | undefined };
  const enqueue = (job: { sql: string | null } | { rows: RowsJob }, onThisThread?: () => unknown) => {
    const run = async (): Promise<{ worker: boolean; value: unknown }> => {
      if (closed) throw new Error('the store is closed');
      if (!failed && (await start()) && worker) {
        const id = nextId++;
        const w = worker;
        try {
          const value = await new Promise<unknown>((resolve, reject) => {
            pending.set(id, { resolve, reject });
            w.postMessage({ id, ...job });
          });
          return { worker: true, value };
        } catch (e) {
          if (closed) throw e;
          // A job the worker could not do (it stopped, or the file was busy for longer than
          // busy_timeout) is done here instead.
        }
      }
      return { worker: false, value: onThisThread?.() };
    };
    const result = chain.then(run);
    chain = result.catch(() => {});
    return result;
  };

  const storeWorker: StoreWorker = {
    get offThread() {
      return worker !== null && !failed;
    },
    async build(sql, onThisThread) {
      await enqueue({ sql }, onThisThread);
    },
    async checkpoint() {
      return (await enqueue({ sql: null })).worker;
    },
    async writeRows(t, rows, masks, onThisThread) {
      const { value } = await enqueue({ rows: { table: t.table, columns: t.columns, values: rows, masks } }, onThisThread);
      return value as number;
    },
    warm() {
      if (!closed && !failed) void start();
    },
    async close() {
      closed = true;
      const w = worker;
      worker = null;
      failAll(new Error('the store is closed'));
      if (w) {
        w.removeAllListeners('exit');
        await w.terminate();
      }
    },
  };
  return storeWorker;
}
