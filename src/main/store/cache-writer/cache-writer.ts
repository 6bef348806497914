// The main thread's side of the cache writer: starts the worker (worker.ts), sends it requests and
// resolves each with the worker's answer. Requests are handled in the order they were sent, so a
// removal sent after a batch of rows removes them. If the worker cannot start or stops, every
// request fails with a StoreError that says so, and that is written to stderr once: the cache then
// cannot be written, which a refresh reports as its failure; nothing falls back to writing
// elsewhere.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { StoreError } from '../errors';
import { cacheReplySchema, type CacheCall, type CacheRequest } from './messages';
import { packedTransfer, packRows } from './packed-rows';

/** The worker as the electron-vite bundle builds it (an entry of its own, beside index.js). */
export const BUNDLED_WORKER = 'campaign-cache-worker.js';

/**
 * The most new-object space the writer's thread keeps (MB): it unpacks each batch of rows and
 * binds them, and what survives a batch is little (the readers' READER_YOUNG_GENERATION_MB says
 * what the two limits bought); a first refresh of 100,000 campaigns took no longer with it.
 */
const WRITER_YOUNG_GENERATION_MB = 8;

function workerFile(): string {
  const bundled = join(__dirname, BUNDLED_WORKER);
  if (existsSync(bundled)) return bundled;
  // From source: a CommonJS file that registers tsx, then loads worker.ts.
  return join(__dirname, 'dev-boot.cjs');
}

export interface CacheWriter {
  /** Resolves once the worker runs; rejects, saying why, when it could not start. */
  readonly ready: Promise<void>;
  /** Sends one request; resolves with the rows written or deleted. */
  send(request: CacheCall): Promise<number>;
  /** Lets the requests already sent finish, then stops the worker. */
  close(): Promise<void>;
}

export function startCacheWriter(file: string, warn: (message: string) => void = (m) => process.stderr.write(`${m}\n`)): CacheWriter {
  let worker: Worker | null = null;
  let failure: StoreError | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  const stop = (why: string) => {
    if (failure !== null) return;
    failure = new StoreError(
      'CACHE_UNAVAILABLE',
      `The campaign cache cannot be written (${why}). Restart Campaign Desk; if this happens again, report it.`,
    );
    warn(failure.message);
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  const settle = () => {
    // An idle worker does not keep the app running; one with work does.
    if (waiting.size === 0) worker?.unref();
    else worker?.ref();
  };
  const ready = new Promise<void>((resolve, reject) => {
    try {
      worker = new Worker(workerFile(), { workerData: { file }, resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB } });
    } catch (e) {
      stop((e as Error).message);
      reject(failure);
      return;
    }
    worker.on('message', (raw: unknown) => {
      const m = cacheReplySchema.safeParse(raw);
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
      if (m.data.type === 'done') w.resolve(m.data.count);
      else w.reject(new StoreError('CACHE_UNAVAILABLE', `The campaign cache could not be written: ${m.data.message}`));
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
    send(request) {
      if (failure !== null) return Promise.reject(failure);
      const w = worker;
      if (w === null) return Promise.reject(new StoreError('CACHE_UNAVAILABLE', 'The campaign cache is closed.'));
      const id = nextId++;
      // Packed before the request waits for an answer: rows that cannot be packed fail here, and
      // leave nothing waiting (which would keep the worker, and so the app, running).
      let message: CacheRequest;
      let transfer: ArrayBuffer[] = [];
      try {
        if (request.type === 'write') {
          const rows = packRows(request.rows);
          message = { ...request, id, rows, track: request.track ?? [] };
          transfer = packedTransfer(rows);
        } else {
          message = { ...request, id };
        }
      } catch (e) {
        return Promise.reject(e);
      }
      return new Promise<number>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        settle();
        w.postMessage(message, transfer);
      });
    },
    async close() {
      const w = worker;
      if (w === null) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      // Closing is not a failure: requests already sent are answered first (the worker takes them in order).
      failure ??= new StoreError('CACHE_UNAVAILABLE', 'The campaign cache is closed.');
      w.ref();
      w.postMessage({ type: 'close' } satisfies CacheRequest);
      await exited;
    },
  };
}
