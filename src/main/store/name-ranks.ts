// Ranks of the campaign names of a first load, computed on a worker thread while the load writes.
//
// Why: names are nearly all distinct, so unlike the other sortable columns they cannot be ranked
// through a small dictionary of values; sorting 100,000 of them took 100-200 ms of the event loop
// at the end of a first load on the development VM (the longest freeze of the load). During the
// load the second core is idle (the rows are written on the main thread), so the names go to a
// worker page by page: it sorts each batch as it comes, and at the end only merges the sorted
// runs, while the main thread builds the other orders. The main thread keeps no names at all.
//
// The worker's code is this module's own functions sent as source text (Function#toString), like
// the store worker's, so nothing has to be bundled or located beside the Electron build. When no
// worker can start, the same code runs here instead.
import { Worker } from 'node:worker_threads';
import { sqliteTextOrder, type TextOrder } from './text-order';

export interface NameRanks {
  /** Rank of each name by arrival (row) number: 0 for no name, equal names share one. */
  ranks: Uint32Array;
  /** One more than the highest rank. */
  count: number;
}

export interface NameRanking {
  /** The names of the next rows, in arrival order (anything not a string counts as no name). */
  add(names: readonly unknown[]): void;
  finish(): NameRanks;
}

/**
 * Self-contained (it is sent to the worker as source text). Each batch is sorted when it arrives
 * and merged with the runs before it like a binary counter (two runs of as many batches become
 * one), so the work left at the end is a few merges, not a sort.
 */
export function nameRanking(text: TextOrder, nocase: boolean): NameRanking {
  const keys: (string | null)[] = [];
  // Sorted runs of rows that have a name, largest first; `batches` counts the batches in each.
  const runs: { rows: Uint32Array; batches: number }[] = [];
  // A key with units above U+D7FF needs the code point comparison, which the runs sorted so far
  // did not use: then everything is sorted once at the end instead.
  let anyHigh = false;
  const merge = (a: Uint32Array, b: Uint32Array): Uint32Array => {
    const out = new Uint32Array(a.length + b.length);
    let i = 0;
    let j = 0;
    let o = 0;
    while (i < a.length && j < b.length) out[o++] = keys[b[j]]! < keys[a[i]]! ? b[j++] : a[i++];
    while (i < a.length) out[o++] = a[i++];
    while (j < b.length) out[o++] = b[j++];
    return out;
  };

  return {
    add(names) {
      const named: number[] = [];
      for (const v of names) {
        const row = keys.length;
        if (typeof v !== 'string') {
          keys.push(null);
          continue;
        }
        const key = nocase ? text.foldAscii(v) : v;
        if (!anyHigh && text.hasHighUnits(key)) anyHigh = true;
        keys.push(key);
        named.push(row);
      }
      if (anyHigh) return;
      text.sortByKey(named, keys, false);
      runs.push({ rows: Uint32Array.from(named), batches: 1 });
      while (runs.length > 1 && runs[runs.length - 1].batches === runs[runs.length - 2].batches) {
        const b = runs.pop()!;
        const a = runs.pop()!;
        runs.push({ rows: merge(a.rows, b.rows), batches: a.batches + b.batches });
      }
    },
    finish() {
      let order: Uint32Array;
      if (anyHigh) {
        const named: number[] = [];
        for (let row = 0; row < keys.length; row++) if (keys[row] !== null) named.push(row);
        text.sortByKey(named, keys, true);
        order = Uint32Array.from(named);
      } else {
        order = runs.pop()?.rows ?? new Uint32Array(0);
        while (runs.length > 0) order = merge(runs.pop()!.rows, order);
      }
      const ranks = new Uint32Array(keys.length);
      let r = 0;
      for (let k = 0; k < order.length; k++) {
        if (k === 0 || keys[order[k]] !== keys[order[k - 1]]) r++;
        ranks[order[k]] = r;
      }
      return { ranks, count: r + 1 };
    },
  };
}

export interface NameRanker {
  /** The names of the next rows, in arrival order. */
  add(name: unknown): void;
  /** The ranks of every name added; rejects when the worker failed or the ranker was discarded. */
  ranks(): Promise<NameRanks>;
  /** Stops the worker (a first load that ends without its orders). */
  discard(): void;
  /** True when the work is done on a worker thread. */
  readonly offThread: boolean;
}

/** Names are posted in batches of this many: a message per name would cost more than the sort. */
const BATCH = 1024;

const workerSource = () => `
// esbuild's keepNames (tsx) wraps nested functions in __name(); the copied text needs it too.
const __name = (f) => f;
const { parentPort, workerData } = require('node:worker_threads');
const ranking = (${nameRanking.toString()})((${sqliteTextOrder.toString()})(), workerData.nocase);
parentPort.on('message', (msg) => {
  if (msg.names) return ranking.add(msg.names);
  const result = ranking.finish();
  parentPort.postMessage(result, [result.ranks.buffer]);
});
`;

export interface NameRankerOptions {
  nocase: boolean;
  /** False: rank on this thread (also what happens when no worker can start). */
  worker?: boolean;
}

export function createNameRanker(opts: NameRankerOptions): NameRanker {
  let batch: unknown[] = [];
  let worker: Worker | null = null;
  let failure: Error | null = null;
  let discarded = false;
  if (opts.worker !== false) {
    try {
      worker = new Worker(workerSource(), { eval: true, workerData: { nocase: opts.nocase } });
      // Never what keeps the process alive.
      worker.unref();
      worker.on('error', (e) => (failure ??= e));
      worker.on('exit', () => (failure ??= new Error('The name-ranking worker stopped')));
    } catch {
      worker = null;
    }
  }
  const here = worker ? null : nameRanking(sqliteTextOrder(), opts.nocase);
  const flush = () => {
    if (batch.length === 0) return;
    if (worker) worker.postMessage({ names: batch });
    else here!.add(batch);
    batch = [];
  };

  return {
    offThread: worker !== null,
    add(name) {
      batch.push(name);
      if (batch.length === BATCH) flush();
    },
    async ranks() {
      if (discarded) throw new Error('The name ranking was discarded');
      flush();
      if (!worker) return here!.finish();
      const w = worker;
      try {
        return await new Promise<NameRanks>((resolve, reject) => {
          if (failure) return reject(failure);
          w.once('message', resolve);
          w.once('error', reject);
          w.once('exit', () => reject(failure ?? new Error('The name-ranking worker stopped')));
          w.postMessage({ finish: true });
        });
      } finally {
        void w.terminate();
      }
    },
    discard() {
      discarded = true;
      batch = [];
      void worker?.terminate();
    },
  };
}
