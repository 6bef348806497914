// During a first load the main connection leaves checkpoints to the store worker
// (checkpoint-hold.ts). "The database file alone" is read by copying it without its -wal file:
// what a checkpoint copied into it is there, what is still only in the log is not.
import Database from 'better-sqlite3';
import { copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckpointHold } from '../../../src/main/store/checkpoint-hold';
import { createStoreWorker } from '../../../src/main/store/store-worker';
import { syntheticCampaigns } from '../../../bench/campaign-data';
import type { CampaignRefresh } from '../../../src/main/store/campaigns-repo';
import type { AccountRef } from '../../../src/main/store/types';
import { ACME, GLOBEX, openTestStore, seed, tempDir, type TestStore } from './helpers';

/** Campaign rows of every account table as the database file alone holds them. */
function rowsInFileAlone(t: TestStore): number {
  const copy = join(t.dir, `alone-${Math.random().toString(36).slice(2)}.db`);
  copyFileSync(t.file, copy);
  const db = new Database(copy, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'campaigns_[0-9]*'").pluck().all() as string[];
    return tables.reduce((n, table) => n + (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number), 0);
  } finally {
    db.close();
    rmSync(copy, { force: true });
  }
}

/** 3,000 commits of one campaign each: over 3,000 log pages, three times SQLite's automatic checkpoint threshold. */
const ONE_PER_PAGE = 3000;

/** Applies `n` campaigns from `firstId` on, one page (one commit) each. */
async function onePerPage(r: CampaignRefresh, n: number, firstId: number): Promise<void> {
  for (const c of syntheticCampaigns(n, { firstId })) await r.applyPage([c]);
}

/** A whole refresh of `n` campaigns in one page, then what runs after it in the background. */
async function loadAll(t: TestStore, ref: AccountRef, n: number, firstId: number): Promise<void> {
  const r = t.store.campaigns.beginRefresh(ref);
  await r.applyPage(syntheticCampaigns(n, { firstId }));
  await r.finish();
  await t.store.campaigns.indexBuilds();
}

describe('checkpoints of a first load', () => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  it('the main connection copies nothing into the file while a first load writes; the worker copies it all after finish()', async () => {
    t = openTestStore();
    seed(t.store);
    const sizeBefore = statSync(t.file).size;
    const r = t.store.campaigns.beginRefresh(ACME);
    await onePerPage(r, ONE_PER_PAGE, 1);
    expect(statSync(`${t.file}-wal`).size).toBeGreaterThan(1000 * 4096);
    expect(statSync(t.file).size).toBe(sizeBefore);
    expect(rowsInFileAlone(t)).toBe(0);
    await r.finish();
    await t.store.campaigns.indexBuilds();
    expect(rowsInFileAlone(t)).toBe(ONE_PER_PAGE);
    expect(t.store.integrityCheck()).toEqual(['ok']);
  });

  it('after the first load, commits checkpoint as SQLite does by default (a refresh in place keeps the log short)', async () => {
    t = openTestStore();
    seed(t.store);
    await loadAll(t, ACME, 10, 1);
    // The account has rows: this refresh updates in place, with automatic checkpoints.
    const r = t.store.campaigns.beginRefresh(ACME);
    await onePerPage(r, ONE_PER_PAGE, 1);
    expect(rowsInFileAlone(t)).toBeGreaterThan(10);
    await r.finish();
  });

  it('a cancelled first load lets go too: its background index builds end with the log copied', async () => {
    t = openTestStore();
    seed(t.store);
    const a = t.store.campaigns.beginRefresh(ACME);
    await onePerPage(a, ONE_PER_PAGE, 1);
    // A second account's first load overlaps and ends first (its index builds on the worker may
    // checkpoint there): the main connection's checkpoints stay off while the first one goes on.
    const b = t.store.campaigns.beginRefresh(GLOBEX);
    await b.applyPage(syntheticCampaigns(5, { firstId: 900_000 }));
    await b.finish();
    const sizeAfterB = statSync(t.file).size;
    await onePerPage(a, ONE_PER_PAGE, 50_000);
    expect(statSync(t.file).size).toBe(sizeAfterB);
    a.abandon();
    await t.store.campaigns.indexBuilds();
    expect(rowsInFileAlone(t)).toBe(2 * ONE_PER_PAGE + 5);
    // And commits checkpoint by themselves again.
    const c = t.store.campaigns.beginRefresh(ACME);
    await onePerPage(c, ONE_PER_PAGE, 100_000);
    expect(rowsInFileAlone(t)).toBeGreaterThan(2 * ONE_PER_PAGE + 5);
    c.abandon();
  });

  it('removing an account in the middle of its first load gives checkpoints back to the main connection', async () => {
    t = openTestStore();
    seed(t.store);
    const a = t.store.campaigns.beginRefresh(ACME);
    await onePerPage(a, 100, 1);
    expect(t.store.accounts.remove(ACME)).toBe(true);
    await loadAll(t, GLOBEX, 10, 900_000);
    // GLOBEX has rows now: this refresh updates in place, and its commits checkpoint.
    const c = t.store.campaigns.beginRefresh(GLOBEX);
    await onePerPage(c, ONE_PER_PAGE, 900_000);
    expect(rowsInFileAlone(t)).toBeGreaterThan(10);
    await c.finish();
  });

  it('a first load whose store was closed under it fails its finish() and is abandoned quietly', async () => {
    t = openTestStore();
    seed(t.store);
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(syntheticCampaigns(5, { firstId: 1 }));
    t.store.close();
    // What a sync run does when the app quits in the middle of a refresh.
    await expect(r.finish()).rejects.toThrow(/not open/);
    expect(() => r.abandon()).not.toThrow();
  });
});

describe('without a working store worker', () => {
  it('the main connection keeps checkpointing as SQLite does by default', async () => {
    const dir = tempDir('desk-ckpt-');
    const db = new Database(join(dir, 'x.db'));
    try {
      db.pragma('journal_mode = WAL');
      // A worker for a file in a folder that does not exist cannot open its connection.
      const worker = createStoreWorker(join(dir, 'missing', 'x.db'));
      const hold = createCheckpointHold(db, worker);
      hold.hold();
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      hold.release();
      await hold.settled();
      expect(worker.offThread).toBe(false);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      await worker.close();
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
