// The main thread's side of the cache reader: starts the worker (cache-reader-worker.ts), sends it
// the window's queries and resolves each with its page, its page without the total, or its total
// (the store starts two readers: one for pages, one for totals, so a slow count never holds a
// page). The worker takes them one at a time, the newest waiting one first (see pump), each on
// its own read of the cache file, so a slow search holds that thread, and the main thread's event
// loop stays free for every other call. A query still waiting its turn when the same window asks the same question
// again with another text (the person typed on) is not read at all: it fails as superseded (the
// window drops that answer anyway), so the newest text waits only for the one being read. If the
// worker cannot start or stops, every query fails with a StoreError that says so (written to
// stderr once); nothing falls back to reading on the main thread, which is exactly what this
// thread is for.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ParsedCampaignQuery } from '../../shared/domain/campaign-query';
import type { WindowRead, WindowRows } from './campaign-query';
import { StoreError } from './errors';
import type { SeenValues } from './seen-values';
import { readerReplySchema, type ReaderReply, type ReaderRequest, type ReaderRole, type ReadKind } from './cache-reader-messages';

/**
 * The most new-object space a reader's thread keeps (MB): it makes a page of rows at a time, and
 * V8's default let each thread's young generation grow to tens of MB. With this (and the writer's
 * WRITER_YOUNG_GENERATION_MB) a 5,000-member network's first refresh peaked at 288-295 MB instead of
 * 316-325 MB, its time unchanged (bench/refresh.ts network).
 */
const READER_YOUNG_GENERATION_MB = 2;

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
  /** One page of an account's campaigns and its list's total (accountKey: the account's key in the cache). */
  page(accountKey: number, q: ParsedCampaignQuery): Promise<WindowRead>;
  /** One page without the total (which may cost far more than the page: WindowQuery.rows). */
  rows(accountKey: number, q: ParsedCampaignQuery): Promise<WindowRows>;
  /** How many campaigns the list holds (offset and limit not read). */
  count(accountKey: number, q: ParsedCampaignQuery): Promise<number>;
  /** The values seen in the account's cache (seen-values.ts). */
  values(accountKey: number): Promise<SeenValues>;
  /** How many campaigns each account's cache holds, by account key (none: no campaign). */
  accountCounts(): Promise<Map<number, number>>;
  /** Answers the queries already sent, then stops the worker and its connection. */
  close(): Promise<void>;
}

/** A query sent or waiting its turn, and how its answer is taken. */
interface Asked {
  kind: ReadKind | 'values' | 'accountCounts';
  accountKey: number;
  /** The list asked about (none for the values seen). */
  q: ParsedCampaignQuery | null;
  /** Settles the caller's promise with the worker's answer. */
  take: (m: Exclude<ReaderReply, { type: 'ready' }>) => void;
  reject: (e: Error) => void;
}

/**
 * Whether a newer query makes a waiting one pointless: the same question (page, rows or count) of
 * the same list of the same account (sort, statuses, page) with another text, which is what
 * typing on in the search box asks.
 */
function supersedes(newer: ParsedCampaignQuery | null, kind: Asked['kind'], accountKey: number, older: Asked): boolean {
  const o = older.q;
  if (newer === null || o === null) return false;
  return (
    older.kind === kind &&
    older.accountKey === accountKey &&
    o.profileId === newer.profileId &&
    (o.text ?? '') !== (newer.text ?? '') &&
    o.offset === newer.offset &&
    o.limit === newer.limit &&
    o.sort.field === newer.sort.field &&
    o.sort.direction === newer.sort.direction &&
    JSON.stringify(o.statuses ?? []) === JSON.stringify(newer.statuses ?? [])
  );
}

export function startCacheReader(
  file: string,
  warn: (message: string) => void = (m) => process.stderr.write(`${m}\n`),
  /** role: the reader's work, which sizes its page cache (CACHE_SIZE_KB). */
  opts: { role?: ReaderRole } = {},
): CacheReader {
  let worker: Worker | null = null;
  let failure: StoreError | null = null;
  let nextId = 1;
  /** The query the worker reads now (by request id), and those waiting their turn. */
  const waiting = new Map<number, Asked>();
  const queued: Asked[] = [];
  /** Told when the last query has been answered (close() waits for it). */
  let onIdle: (() => void) | null = null;
  const idle = () => {
    if (waiting.size > 0 || queued.length > 0 || onIdle === null) return;
    const done = onIdle;
    onIdle = null;
    done();
  };
  const stop = (why: string) => {
    if (failure !== null) return;
    failure = new StoreError(
      'CACHE_UNAVAILABLE',
      `The campaign cache cannot be read (${why}). Restart Campaign Desk; if this happens again, report it.`,
    );
    warn(failure.message);
    for (const w of [...waiting.values(), ...queued.splice(0)]) w.reject(failure);
    waiting.clear();
    idle();
  };
  // An idle reader does not keep the app running; one with a query does.
  const settle = () => (waiting.size === 0 && queued.length === 0 ? worker?.unref() : worker?.ref());
  /** Sends the next query when the worker has none. */
  const pump = () => {
    const w = worker;
    if (w === null || failure !== null || waiting.size > 0) return;
    // The newest first: a window asks the pages of what it shows now last, and those asked
    // before are mostly of rows the person has scrolled past or of an account they left (a page
    // deep in a list of 1,000,000 campaigns steps through up to 500,000 index entries, ~15-30 ms,
    // and a fling asks many). Every query is still answered.
    const next = queued.pop();
    if (next === undefined) return;
    const id = nextId++;
    waiting.set(id, next);
    const request: ReaderRequest =
      next.kind === 'accountCounts'
        ? { type: 'accountCounts', id }
        : next.kind === 'values' || next.q === null
          ? { type: 'values', id, accountKey: next.accountKey }
          : { type: 'query', id, kind: next.kind, accountKey: next.accountKey, query: next.q };
    w.postMessage(request);
  };
  const ready = new Promise<void>((resolve, reject) => {
    try {
      worker = new Worker(workerFile(), {
        workerData: { file, role: opts.role ?? 'reader' },
        resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
      });
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
      pump();
      settle();
      idle();
      if (!w) return;
      if (m.data.type === 'failed')
        w.reject(new StoreError('CACHE_UNAVAILABLE', `The campaign cache could not be read: ${m.data.message}`));
      else w.take(m.data);
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
  const ask = <T>(
    kind: Asked['kind'],
    accountKey: number,
    q: ParsedCampaignQuery | null,
    take: (m: Exclude<ReaderReply, { type: 'ready' | 'failed' }>) => T | null,
  ): Promise<T> => {
    if (failure !== null) return Promise.reject(failure);
    if (worker === null) return Promise.reject(new StoreError('CACHE_UNAVAILABLE', 'The campaign cache is closed.'));
    return new Promise<T>((resolve, reject) => {
      for (let i = queued.length - 1; i >= 0; i--) {
        if (!supersedes(q, kind, accountKey, queued[i])) continue;
        const [old] = queued.splice(i, 1);
        old.reject(new StoreError('QUERY_SUPERSEDED', 'A newer search of this list was asked; this one was not read.'));
      }
      queued.push({
        kind,
        accountKey,
        q,
        reject,
        take(m) {
          const value = m.type === 'failed' ? null : take(m);
          if (value === null)
            reject(new StoreError('CACHE_UNAVAILABLE', `The campaign cache's reader answered a ${kind} query with a ${m.type}.`));
          else resolve(value);
        },
      });
      pump();
      settle();
    });
  };
  return {
    ready,
    page: (accountKey, q) =>
      ask('page', accountKey, q, (m) =>
        m.type === 'page' && m.total !== null ? { rows: m.rows, damaged: m.damaged, total: m.total } : null,
      ),
    rows: (accountKey, q) => ask('rows', accountKey, q, (m) => (m.type === 'page' ? { rows: m.rows, damaged: m.damaged } : null)),
    count: (accountKey, q) => ask('count', accountKey, q, (m) => (m.type === 'count' ? m.total : null)),
    values: (accountKey) => ask('values', accountKey, null, (m) => (m.type === 'values' ? m.values : null)),
    accountCounts: () => ask('accountCounts', -1, null, (m) => (m.type === 'accountCounts' ? new Map(m.counts) : null)),
    async close() {
      const w = worker;
      if (w === null) return;
      // Queries not sent yet are read first (the worker answers what it was sent before closing).
      if (waiting.size > 0 || queued.length > 0) await new Promise<void>((resolve) => (onIdle = resolve));
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      failure ??= new StoreError('CACHE_UNAVAILABLE', 'The campaign cache is closed.');
      w.ref();
      w.postMessage({ type: 'close' } satisfies ReaderRequest);
      await exited;
    },
  };
}
