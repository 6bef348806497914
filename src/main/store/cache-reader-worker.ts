// The cache reader's worker thread: runs the window's campaign queries (campaign-query.ts: pages,
// pages without their total, totals) on a read-only connection of its own to the cache file, so a
// search that reads an account's rows holds this thread, never the main one, whose event loop
// answers every other call of the window. The store starts two: one for pages, one for totals.
// WAL lets it read what the cache writer has committed while that one writes. Loaded as a module
// of its own (an electron-vite entry; cache-reader-boot.cjs from source), never from a string.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { cachePragmas } from './cache-file';
import { createWindowQuery } from './campaign-query';
import { seenValuesQuery } from './seen-values';
import { readerRequestSchema, readerWorkerDataSchema, type ReaderReply, type ReaderRequest } from './cache-reader-messages';

const port = parentPort;
if (!port) throw new Error('the cache reader runs as a worker thread');
const { file, role } = readerWorkerDataSchema.parse(workerData);
const reply = (m: ReaderReply) => port.postMessage(m);

const db = new Database(file, { readonly: true, fileMustExist: true });
cachePragmas(db, role);
const query = createWindowQuery(db);
const seenValues = seenValuesQuery(db);
const countsStmt = db.prepare<[], [number, number]>('SELECT account_key, count(*) FROM campaigns GROUP BY account_key').raw();
// Moves with each commit of another connection (the writer's): the counts are read again only then.
const dataVersion = db.prepare('PRAGMA data_version').pluck();
let counted: { version: unknown; counts: [number, number][] } | null = null;
const accountCounts = (): [number, number][] => {
  const version = dataVersion.get();
  if (counted === null || counted.version !== version) counted = { version, counts: countsStmt.all() };
  return counted.counts;
};

const answer = (m: Extract<ReaderRequest, { type: 'query' | 'values' | 'accountCounts' }>): ReaderReply => {
  if (m.type === 'values') return { type: 'values', id: m.id, values: seenValues(m.accountKey) };
  if (m.type === 'accountCounts') return { type: 'accountCounts', id: m.id, counts: accountCounts() };
  if (m.kind === 'count') return { type: 'count', id: m.id, total: query.count(m.accountKey, m.query) };
  if (m.kind === 'rows') return { type: 'page', id: m.id, ...query.rows(m.accountKey, m.query), total: null };
  return { type: 'page', id: m.id, ...query.page(m.accountKey, m.query) };
};

port.on('message', (raw: unknown) => {
  const parsed = readerRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const id = (raw as { id?: unknown } | null)?.id;
    reply({ type: 'failed', id: typeof id === 'number' ? id : null, message: 'the cache reader got a request it does not understand' });
    return;
  }
  const m = parsed.data;
  if (m.type === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    reply(answer(m));
  } catch (e) {
    reply({ type: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) });
  }
});

reply({ type: 'ready' });
