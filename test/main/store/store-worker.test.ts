import Database from 'better-sqlite3';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticCampaigns } from '../../../bench/campaign-data';
import { createStoreWorker } from '../../../src/main/store/store-worker';
import { ACME, openTestStore, seed, tempDir, type TestStore } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function scratchDb() {
  const dir = tempDir('desk-ixb-');
  const file = join(dir, 'x.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (a INTEGER, b TEXT) STRICT');
  const ins = db.prepare('INSERT INTO t VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 5000; i++) ins.run(i, `row ${i % 97}`);
  })();
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, file };
}
const hasIndex = (db: Database.Database, name: string) =>
  db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?").get(name) !== undefined;

describe('index builds off the main thread', () => {
  it('builds on a worker thread with its own connection, and the main connection sees the index at once', async () => {
    const { db, file } = scratchDb();
    const here: string[] = [];
    const builder = createStoreWorker(file);
    await builder.build('CREATE INDEX t_by_b ON t(b)', () => here.push('t_by_b'));
    expect(builder.offThread).toBe(true);
    expect(here).toEqual([]);
    expect(hasIndex(db, 't_by_b')).toBe(true);
    expect(db.prepare('EXPLAIN QUERY PLAN SELECT a FROM t WHERE b = ?').all('row 3')).toEqual([
      expect.objectContaining({ detail: expect.stringContaining('USING INDEX t_by_b') }),
    ]);
    await builder.close();
  });

  it('starts its thread on warm(), before any job, and never again once closed', async () => {
    const { db, file } = scratchDb();
    const builder = createStoreWorker(file);
    expect(builder.offThread).toBe(false);
    builder.warm();
    expect(builder.offThread).toBe(true);
    await builder.build('CREATE INDEX t_by_b ON t(b)', () => db.exec('SELECT 1 FROM no_such_table'));
    expect(hasIndex(db, 't_by_b')).toBe(true);
    await builder.close();
    builder.warm();
    expect(builder.offThread).toBe(false);
  });

  it('runs a build the worker could not do on the calling thread, and reports a real error', async () => {
    const { db, file } = scratchDb();
    const here: string[] = [];
    const onThisThread = (sql: string) => () => {
      here.push(sql);
      db.exec(sql);
    };
    const builder = createStoreWorker(file);
    const bad = 'CREATE INDEX nope_by_x ON no_such_table(x)';
    await expect(builder.build(bad, onThisThread(bad))).rejects.toThrow(/no such table/);
    expect(here).toEqual([bad]);
    // The next build still goes to the worker.
    await builder.build('CREATE INDEX t_by_a ON t(a)', onThisThread('t_by_a'));
    expect(here).toHaveLength(1);
    expect(hasIndex(db, 't_by_a')).toBe(true);
    await builder.close();
    await expect(builder.build('CREATE INDEX t_by_ab ON t(a, b)', onThisThread('t_by_ab'))).rejects.toThrow(/closed/);
    expect(hasIndex(db, 't_by_ab')).toBe(false);
  });
});

describe('a first load keeps the event loop turning while its indexes are built', () => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  it('timers keep firing during finish() and the index builds after it, and every index exists then', async () => {
    t = openTestStore();
    seed(t.store);
    const r = t.store.campaigns.beginRefresh(ACME);
    const data = syntheticCampaigns(30_000, { firstId: 1 });
    for (let i = 0; i < data.length; i += 1000) await r.applyPage(data.slice(i, i + 1000));
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 2);
    const started = performance.now();
    await r.finish();
    await t.store.campaigns.indexBuilds();
    const took = performance.now() - started;
    clearInterval(timer);
    const raw = new Database(t.file, { readonly: true });
    const indexes = raw.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name LIKE 'campaigns_%'").pluck().get() as number;
    raw.close();
    expect(indexes).toBeGreaterThanOrEqual(17);
    // Built on this thread, 17 indexes of 30,000 rows would leave at most one tick per build.
    expect(ticks, `${ticks} ticks in ${took.toFixed(0)} ms, longest gap ${longestGap.toFixed(0)} ms`).toBeGreaterThan(3 * 17);
  });
});

describe('a refresh of a cached account writes its pages on the store worker', () => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  async function cached(rows: number) {
    t = openTestStore();
    seed(t.store);
    const first = t.store.campaigns.beginRefresh(ACME);
    const data = syntheticCampaigns(rows, { firstId: 1 });
    for (let i = 0; i < data.length; i += 1000) await first.applyPage(data.slice(i, i + 1000));
    await first.finish();
    await t.store.campaigns.indexBuilds();
    return data;
  }

  it('timers keep firing while a page whose campaigns all changed status is written, and the page is there after', async () => {
    const data = await cached(20_000);
    // Every campaign of the page changes status: each rewrites its entry in all 17 indexes.
    const page = data.slice(5000, 7000).map((c) => ({ ...c, status: c.status === 'PAUSED' ? 'APPROVED' : 'PAUSED' }));
    const r = t.store.campaigns.beginRefresh(ACME);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    const result = await r.applyPage(page);
    const took = performance.now() - started;
    clearInterval(timer);
    expect(result).toEqual({ written: 2000, unchanged: 0 });
    // Written on this thread, the whole page would be one call: no tick at all until it ends.
    expect(ticks, `${ticks} ticks in ${took.toFixed(0)} ms`).toBeGreaterThan(2);
    const paused = t.store.campaigns.query({ ...ACME, statuses: ['PAUSED'], limit: 1 }).total;
    expect(paused).toBe(data.filter((c, i) => (i >= 5000 && i < 7000 ? c.status !== 'PAUSED' : c.status === 'PAUSED')).length);
    await r.finish();
  });

  it('the list sees each page the worker wrote at once, counts and text matches included', async () => {
    await cached(300);
    const q = { ...ACME, text: 'zebra crossing', limit: 10 };
    // Asked before: the count and the text match are remembered for scrolling...
    expect(t.store.campaigns.query(q).total).toBe(0);
    expect(t.store.campaigns.count(ACME)).toBe(300);
    const r = t.store.campaigns.beginRefresh(ACME);
    const renamed = syntheticCampaigns(300, { firstId: 1 }).map((c, i) => (i < 3 ? { ...c, name: `Zebra crossing ${i}` } : c));
    expect(await r.applyPage([...renamed, ...syntheticCampaigns(5, { firstId: 5000 })])).toEqual({ written: 8, unchanged: 297 });
    // ...and forgotten when another connection commits.
    expect(t.store.campaigns.query(q).rows.map((c) => c.name)).toEqual(['Zebra crossing 0', 'Zebra crossing 1', 'Zebra crossing 2']);
    expect(t.store.campaigns.query({ ...ACME, limit: 1 }).total).toBe(305);
    await r.finish();
  });

  it('a row a listing repeats on the next page, changed back, ends as the later page has it, though the earlier is still being written', async () => {
    const data = await cached(300);
    const r = t.store.campaigns.beginRefresh(ACME);
    const original = data[42];
    // Not awaited: the app fetches its next page while the worker writes this one.
    const first = r.applyPage([{ ...original, spent: 12345 }]);
    const second = r.applyPage([original, data[43]]);
    expect(await first).toEqual({ written: 1, unchanged: 0 });
    await second;
    expect(t.store.campaigns.get(ACME, original.id)?.spent).toBe(original.spent);
    // Unchanged pages do not go to the worker at all, and say so.
    expect(await r.applyPage(data.slice(100, 200))).toEqual({ written: 0, unchanged: 100 });
    await r.finish();
  });
});
