// The cache writer's worker thread: the only connection that writes the campaign cache file
// (cache-file.ts). Rows are committed in transactions as large as the backlog (see write()), so an
// index page is written once per transaction rather than once per short batch, and the main
// thread's event loop never waits for SQLite. Loaded as a module of its own
// (an electron-vite entry; dev-boot.cjs from source), never from a string.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { CAMPAIGN_KEY_COLUMNS, CAMPAIGN_WRITE_COLUMNS } from '../campaign-columns';
import {
  BULK_LOAD_MIN_ROWS,
  CAMPAIGN_INDEXES,
  buildTextIndex,
  cachePragmas,
  dropTextIndex,
  hasTextIndex,
  indexSql,
  textRowidRange,
} from '../cache-file';
import { rowStatements, writeRows } from '../row-writer';
import { cacheRequestSchema, cacheWorkerDataSchema, type CacheReply, type CacheRequest } from './messages';
import { unpackRows } from './packed-rows';

const port = parentPort;
if (!port) throw new Error('the cache writer runs as a worker thread');
const { file } = cacheWorkerDataSchema.parse(workerData);
const reply = (m: CacheReply) => port.postMessage(m);
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

const db = new Database(file, { fileMustExist: true, timeout: 5000 });
cachePragmas(db, 'writer');
// No fsync at all: with NORMAL the checkpoints of a large refresh flushed a hundred MB or more to
// disk, and a draft save's own fsync in the data file queued behind them: the main thread stood
// still for 50-65 ms at a time while a 5,000-member network was refreshed (10 ms without). What
// power loss or an OS crash can do to this file is what a cache can afford: a damaged file is
// replaced at the next start (cache-file.ts), and rows lost or left stale are put right by the next
// refresh, which compares every row with what the service lists. (A row and the digest of the
// bytes it was made from, raw_digest, are one row of one transaction: a lost write loses both, so
// a stale row never carries the digest of newer bytes, and the refresh that skips records by
// digest reads it again.)
db.pragma('synchronous = OFF');
db.pragma('wal_autocheckpoint = 10000');
db.pragma('journal_size_limit = 67108864');

/**
 * The last text_rowid handed out per account (each inserted row's row in the text index,
 * cache-file.ts), read once per account: from the text index's content table while the index is
 * whole (a seek: its key is that rowid), else from the account's rows. Kept here afterwards, so
 * numbers stay unique while a bulk load has emptied the index.
 */
const lastTextRowid = new Map<number, number>();
const maxIndexed = db.prepare('SELECT max(id) FROM campaign_text_content WHERE id BETWEEN ? AND ?').pluck();
const maxNumbered = db.prepare('SELECT max(text_rowid) FROM campaigns WHERE account_key = ?').pluck();
function nextTextRowid(values: readonly unknown[]): number {
  const accountKey = values[0] as number;
  let last = lastTextRowid.get(accountKey);
  if (last === undefined) {
    const [lo] = textRowidRange(accountKey);
    const stored = (hasTextIndex(db) ? maxIndexed.get(...textRowidRange(accountKey)) : maxNumbered.get(accountKey)) as number | null;
    last = stored ?? lo;
  }
  lastTextRowid.set(accountKey, ++last);
  return last;
}

const rows = rowStatements(db, {
  table: 'campaigns',
  key: CAMPAIGN_KEY_COLUMNS,
  columns: CAMPAIGN_WRITE_COLUMNS,
  serial: { column: 'text_rowid', next: nextTextRowid },
});
const deleteKey = db.prepare('DELETE FROM campaigns WHERE account_key = ? AND id_num = ? AND id = ?');
const deleteAccount = db.prepare('DELETE FROM campaigns WHERE account_key = ?');
const accountKeys = db.prepare('SELECT DISTINCT account_key FROM campaigns').pluck();
const keysOfAccount = db.prepare<[number], { id_num: number; id: string }>('SELECT id_num, id FROM campaigns WHERE account_key = ?');

/**
 * Keys of the rows each running refresh inserted into an account that held rows when it began
 * (tracked by the write requests' `track`): what undoing a cancelled or failed refresh removes, so
 * that a listing cut short, or one that was junk, leaves nothing of its own behind. Kept here, not
 * in the main thread, because this thread already learns which rows are new as it writes them.
 */
const inserted = new Map<number, [number, string][]>();
const tableRows = db.prepare('SELECT count(*) FROM campaigns').pluck();

/**
 * Bulk load. Inserting a row into a table with nine secondary indexes is ten B-tree inserts at
 * random places; at 100,000 campaigns and more the index pages no longer fit the page cache and the
 * writer spent most of a first refresh on them (and the WAL grew to 180 MB at 900,000). Building an
 * index after the rows is one sort and a sequential write. So while accounts that started empty are
 * loaded, once their rows outnumber everything else in the table (and are at least
 * BULK_LOAD_MIN_ROWS, or at once when the table was empty), the secondary indexes are dropped, the
 * rest of the load goes into the bare table (primary key only), and a `settle` (sent when such a
 * refresh ends, done or not) has them built again. Why the "outnumber" rule: a rebuild sorts every
 * row of the table, so a small account added beside a large cache is cheaper to insert row by row.
 * Into an empty table, nothing is cheaper than building after the rows, whatever their number.
 *
 * The indexes are built after the settle is answered, one to a turn of this thread (the grid's
 * default sort, by name, first), so the refresh is done once its rows are committed: building nine
 * indexes took as long again as the plain client's whole fetch at 100,000 campaigns. Requests that
 * arrive meanwhile are taken between two builds. Reads work throughout (SQLite plans without the
 * missing indexes: a sorted window reads its account's rows); if the app stops first, close() here
 * builds what is missing, and failing that the next start does (cache-file.ts, matchIndexes).
 */
let indexesDropped = false;
/** Rows of accounts that started empty written since the indexes were last whole. */
let bulkRows = 0;
/** Rows the table held when that count started (null: no load under way). */
let rowsBefore: number | null = null;
/** A build of the next missing index is scheduled. */
let building: NodeJS.Immediate | null = null;

const indexNames = db
  .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'campaigns' AND name GLOB 'campaigns_by_*'")
  .pluck();
/** The indexes of CAMPAIGN_INDEXES the table lacks, in that order. */
const missingIndexes = () => {
  const present = new Set(indexNames.all() as string[]);
  return CAMPAIGN_INDEXES.filter(([suffix]) => !present.has(`campaigns_by_${suffix}`));
};
/** After a rollback: a drop in the rolled-back transaction did not happen. */
const readDropped = () => (indexesDropped = missingIndexes().length > 0);

/**
 * The text index a bulk load emptied is built after the load's refresh has ended, once the sort
 * indexes are whole again (buildNextIndex: ~0.5 s per 100,000 campaigns; a first refresh of
 * 100,000 took 2 s longer when its end waited for it); when asked (`buildText`) with no load under
 * way; and at start when an older file or a load cut short left it unbuilt. Meanwhile searches read
 * the account's rows, as before there was an index (campaign-query.ts). Returns whether it built it.
 */
function buildText(): number {
  // A load under way (indexes dropped) builds it after its sort indexes (buildNextIndex).
  if (indexesDropped) return 0;
  return buildTextIndex(db) ? 1 : 0;
}
let textBuildSoon: NodeJS.Immediate | null = null;

function dropIndexesIfBulk(): void {
  if (indexesDropped || rowsBefore === null) return;
  if (rowsBefore > 0 && bulkRows < Math.max(BULK_LOAD_MIN_ROWS, rowsBefore)) return;
  for (const [suffix] of CAMPAIGN_INDEXES) db.exec(`DROP INDEX IF EXISTS campaigns_by_${suffix}`);
  // The text index too (emptied, its triggers dropped): row by row, each row's ~60 trigrams go
  // into FTS5's pending terms, flushed as small segments and merged again and again; built from
  // the table after the load it is one pass.
  dropTextIndex(db);
  indexesDropped = true;
}

/**
 * Builds the next missing index (in a transaction of its own, after the open one is committed);
 * returns whether one was built. The sort indexes the grid pages through come first; then, with
 * `text`, the text index a bulk load emptied.
 */
function buildNextIndex(text: boolean): boolean {
  const next = missingIndexes()[0];
  if (next === undefined) indexesDropped = false;
  if (next === undefined && (!text || hasTextIndex(db))) return false;
  if (commitSoon) clearImmediate(commitSoon);
  commit();
  if (next !== undefined) db.exec(indexSql(next[0], next[1]));
  else buildText();
  return true;
}

function buildSoon(): void {
  building ??= setImmediate(() => {
    building = null;
    try {
      if (buildNextIndex(true)) buildSoon();
    } catch {
      // (A full disk, say.) Not a failure of the cache: reads work without the index, writes report
      // their own failures, and the next settle, close() or start builds it.
    }
  });
}

/** After a load: the dropped indexes are built again, one to a turn (buildSoon). Returns how many are missing. */
function settle(): number {
  bulkRows = 0;
  rowsBefore = null;
  if (!indexesDropped) return 0;
  const missing = missingIndexes().length;
  buildSoon();
  return missing;
}

/** Before closing: every missing index is built now. */
function buildAll(): void {
  if (building) clearImmediate(building);
  building = null;
  while (buildNextIndex(false));
}

/**
 * Rows arrive in many small requests (one per parsed chunk of a listing). They go into one open
 * transaction, which commits once the requests waiting in this thread's queue have all been taken
 * (the next turn of its event loop): as large as the backlog, so a fast listing makes few large
 * commits, and a lone upsert is committed at once. Each request is answered after its commit.
 */
type WriteRequest = Extract<CacheRequest, { type: 'write' }>;
let open = false;
/** The requests written in the open transaction, with how many rows each wrote. */
let written: { m: WriteRequest; count: number }[] = [];
let commitSoon: NodeJS.Immediate | null = null;

function commit(): void {
  commitSoon = null;
  if (!open) return;
  const done = written;
  written = [];
  open = false;
  try {
    db.exec('COMMIT');
  } catch (e) {
    // (A full disk, say.) Nothing of this transaction was kept: each of its requests is told.
    if (db.inTransaction) db.exec('ROLLBACK');
    readDropped();
    for (const w of done) reply({ type: 'failed', id: w.m.id, message: messageOf(e) });
    return;
  }
  for (const w of done) reply({ type: 'done', id: w.m.id, count: w.count });
}

function writeRequest(m: WriteRequest): number {
  const all = unpackRows(m.rows);
  const fresh = new Set(m.fresh);
  const track = new Set(m.track);
  // Rows of accounts that started empty are inserted straight away (compared only on a clash).
  const first = all.filter((r) => fresh.has(r[0] as number));
  const rest = first.length === all.length ? [] : all.filter((r) => !fresh.has(r[0] as number));
  if (first.length > 0) rowsBefore ??= tableRows.get() as number;
  const loaded = writeRows(rows, first, { mostlyNew: true });
  bulkRows += loaded;
  dropIndexesIfBulk();
  const note = (values: readonly unknown[]) => {
    const accountKey = values[0] as number;
    if (!track.has(accountKey)) return;
    let keys = inserted.get(accountKey);
    if (!keys) inserted.set(accountKey, (keys = []));
    keys.push([values[1] as number, values[2] as string]);
  };
  return loaded + writeRows(rows, rest, track.size > 0 ? { inserted: note } : {});
}

/** Ends an account's refresh: forgets what it inserted, first removing it when the refresh is undone. */
function endRefresh(m: Extract<CacheRequest, { type: 'endRefresh' }>): number {
  const tracked = inserted.get(m.accountKey) ?? [];
  inserted.delete(m.accountKey);
  if (m.undo === null) return 0;
  const keep = new Set(m.undo.keep);
  // (Keys of a rolled-back write may be listed and no longer stored: deleting them changes nothing.)
  const keys = m.undo.all ? keysOfAccount.all(m.accountKey).map((k): [number, string] => [k.id_num, k.id]) : tracked;
  return db.transaction(() =>
    keys.reduce((n, [idNum, id]) => (keep.has(id) ? n : n + deleteKey.run(m.accountKey, idNum, id).changes), 0),
  )();
}

/**
 * A request that fails is undone alone: the transaction is rolled back and the requests written
 * before it in the same transaction are written again. Why not a savepoint around each request:
 * SQLite then copies every page a request touches before changing it, and with nine indexes that
 * made the first refresh of a 100,000-campaign account spend half again as long writing.
 */
function write(m: WriteRequest): void {
  if (!open) {
    db.exec('BEGIN IMMEDIATE');
    open = true;
  }
  try {
    written.push({ m, count: writeRequest(m) });
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    readDropped();
    open = false;
    reply({ type: 'failed', id: m.id, message: messageOf(e) });
    const before = written;
    written = [];
    for (const w of before) write(w.m);
  }
  commitSoon ??= setImmediate(commit);
}

/** Removals run in a transaction of their own, after the rows sent before them are committed. */
function remove(m: Extract<CacheRequest, { type: 'delete' | 'forget' | 'keepOnly' | 'endRefresh' }>): number {
  switch (m.type) {
    case 'endRefresh':
      return endRefresh(m);
    case 'delete':
      return db.transaction(() => m.keys.reduce((n, [idNum, id]) => n + deleteKey.run(m.accountKey, idNum, id).changes, 0))();
    case 'forget':
      inserted.delete(m.accountKey);
      return deleteAccount.run(m.accountKey).changes;
    case 'keepOnly': {
      const keep = new Set(m.accountKeys);
      for (const k of inserted.keys()) if (!keep.has(k)) inserted.delete(k);
      return db.transaction(() =>
        (accountKeys.all() as number[]).filter((k) => !keep.has(k)).reduce((n, k) => n + deleteAccount.run(k).changes, 0),
      )();
    }
  }
}

port.on('message', (raw: unknown) => {
  const parsed = cacheRequestSchema.safeParse(raw);
  if (!parsed.success) {
    reply({
      type: 'failed',
      id: typeof (raw as { id?: unknown })?.id === 'number' ? (raw as { id: number }).id : null,
      message: 'the cache writer got a request it does not understand',
    });
    return;
  }
  const m = parsed.data;
  try {
    if (m.type === 'write') return write(m);
    // Anything else sees (and answers after) every row sent before it.
    if (commitSoon) clearImmediate(commitSoon);
    commit();
    if (m.type === 'close') {
      // A load cut short by closing, or one whose sort indexes are still being built, leaves no file
      // without them behind (the text index is built at the next start, on this thread, not while
      // the app waits to close).
      buildAll();
      if (textBuildSoon) clearImmediate(textBuildSoon);
      db.close();
      port.close();
      return;
    }
    reply({ type: 'done', id: m.id, count: m.type === 'settle' ? settle() : m.type === 'buildText' ? buildText() : remove(m) });
  } catch (e) {
    reply({ type: 'failed', id: 'id' in m ? m.id : null, message: messageOf(e) });
  }
});

reply({ type: 'ready' });
// An older file's rows, or a load the app did not live to settle: the text index is built now,
// after any request already sent.
if (!hasTextIndex(db))
  textBuildSoon = setImmediate(() => {
    textBuildSoon = null;
    if (commitSoon) clearImmediate(commitSoon);
    commit();
    try {
      buildText();
    } catch (e) {
      process.stderr.write(`The campaign cache's text index could not be built (${messageOf(e)}); searches read the rows instead.\n`);
    }
  });
