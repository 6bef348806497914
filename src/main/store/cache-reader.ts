// The main thread's side of the cache reader: starts the worker (cache-reader-worker.ts), sends it the window's
// queries and resolves each with its page. The worker takes them in the order sent, each on its
// own read of the cache file, so a slow search holds that thread, and the main thread's event
// loop stays free for every other call. If the worker cannot start or stops, every query fails
// with a StoreError that says so (written to stderr once); nothing falls back to reading on the
// main thread, which is exactly what this thread is for.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ParsedCampaignQuery } from '../../shared/domain/campaign-query';
import type { WindowRead } from './campaign-query';
import { StoreError } from './errors';
import { readerReplySchema, type ReaderRequest } from './cache-reader-messages';

/** The worker as the electron-vite bundle builds it (an entry of its own, beside index.js). */
export const BUNDLED_READER = 'campaign-cache-reader.js';

function workerFile(): string {
  const bundled = join(__dirname, BUNDLED_READER);
  if (existsSync(bundled)) return bundled;
  // From source: a CommonJS file that registers tsx, then loads cache-reader-worker.ts.
  return join(__dirname, 'cache-reader-boot.cjs');
}

export interface CacheReader {
  /** Resolves once the worker runs; rejects, saying why, when it could not start. */
  readonly ready: Promise<void>;
  /** One page of an account's campaigns (accountKey: the account's key in the cache). */
  query(accountKey: number, q: ParsedCampaignQuery): Promise<WindowRead>;
  /** Answers the queries already sent, then stops the worker and its connection. */
  close(): Promise<void>;
}

export function startCacheReader(file: string, warn: (message: string) => void = (m) => process.stderr.write(`${m}\n`)): CacheReader {
  let worker: Worker | null = null;
  let failure: StoreError | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (page: WindowRead) => void; reject: (e: Error) => void }>();
  const stop = (why: string) => {
    if (failure !== null) return;
    failure = new StoreError(
      'CACHE_UNAVAILABLE',
      `The campaign cache cannot be read (${why}). Restart Campaign Desk; if this happens again, report it.`,
    );
    warn(failure.message);
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  // An idle reader does not keep the app running; one with a query does.
  const settle = () => (waiting.size === 0 ? worker?.unref() : worker?.ref());
  const ready = new Promise<void>((resolve, reject) => {
    try {
      worker = new Worker(workerFile(), { workerData: { file } });
    } catch (e) {
      stop((e as Error).message);
      reject(failure);
      return;
    }
    worker.on('message', (raw: unknown) => {
      const m = readerReplySchema.safeParse(raw);
      if (!m.success) return stop('its worker sent an answer this app does not understand');
      if (m.data.type === 'ready') {
        settle();
        return resolve();
      }
      if (m.data.type === 'failed' && m.data.id === null) return stop(m.data.message);
      const id = m.data.id as number;
      const w = waiting.get(id);
      waiting.delete(id);
      settle();
      if (!w) return;
      if (m.data.type === 'page') w.resolve({ rows: m.data.rows, damaged: m.data.damaged, total: m.data.total });
      else w.reject(new StoreError('CACHE_UNAVAILABLE', `The campaign cache could not be read: ${m.data.message}`));
    });
    worker.on('error', (e) => {
      stop(e.message);
      reject(failure);
    });
    worker.on('exit', () => {
      worker = null;
      stop('its worker stopped');
    });
  });
  ready.catch(() => undefined);
  return {
    ready,
    query(accountKey, q) {
      if (failure !== null) return Promise.reject(failure);
      const w = worker;
      if (w === null) return Promise.reject(new StoreError('CACHE_UNAVAILABLE', 'The campaign cache is closed.'));
      const id = nextId++;
      return new Promise<WindowRead>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        settle();
        w.postMessage({ type: 'query', id, accountKey, query: q } satisfies ReaderRequest);
      });
    },
    async close() {
      const w = worker;
      if (w === null) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      failure ??= new StoreError('CACHE_UNAVAILABLE', 'The campaign cache is closed.');
      w.ref();
      w.postMessage({ type: 'close' } satisfies ReaderRequest);
      await exited;
    },
  };
}
