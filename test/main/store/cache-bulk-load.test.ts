// The cache writer's two fast paths against a real cache file: a first load of a large account
// goes into the table without its secondary indexes, which are built once after the rows (after
// the refresh is done, one to a turn of the writer), and a second refresh writes only the rows that
// changed.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Campaign } from '../../../src/shared/domain/campaign';
import { BULK_LOAD_MIN_ROWS, CAMPAIGN_INDEXES, cacheFileOf } from '../../../src/main/store/cache-file';
import { syntheticCampaigns } from '../../fixtures/campaigns';
import { until } from '../../helpers/wait';
import { ACME, GLOBEX, openTestStore, seed, type TestStore, indexesBuilt } from './helpers';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
  seed(t.store);
});
afterEach(() => t.cleanup());

/** Reads the cache file through a connection of its own (what another reader would see). */
function inFile<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(cacheFileOf(t.file), { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const WANTED = CAMPAIGN_INDEXES.map(([suffix]) => `campaigns_by_${suffix}`).sort();
/** The campaigns table's secondary indexes, by PRAGMA index_list (the primary key's is left out). */
const indexNames = () =>
  inFile((db) =>
    (db.pragma('index_list(campaigns)') as { name: string; origin: string }[])
      .filter((i) => i.origin === 'c')
      .map((i) => i.name)
      .sort(),
  );
const rowsOf = (key: number) =>
  inFile((db) => db.prepare('SELECT count(*) FROM campaigns WHERE account_key = ?').pluck().get(key) as number);
const keyOf = (ref = ACME) => t.store.accounts.keyOf(ref);
/** The writer builds the indexes after the refresh that dropped them is done. */
const indexesWhole = () => until(() => indexNames().length === WANTED.length, 'the indexes to be built again');

async function load(campaigns: Campaign[], ref = ACME) {
  const r = t.store.campaigns.beginRefresh(ref);
  for (let i = 0; i < campaigns.length; i += 5000) await r.applyPage(campaigns.slice(i, i + 5000));
  return r.finish();
}

describe('first load of an empty account (bulk path)', () => {
  const N = BULK_LOAD_MIN_ROWS + 5000;

  it('loads without the secondary indexes and ends with every row and every index present', async () => {
    const data = syntheticCampaigns(N, { firstId: 1 });
    const r = t.store.campaigns.beginRefresh(ACME);
    for (let i = 0; i < N; i += 5000) await r.applyPage(data.slice(i, i + 5000));
    // Past the threshold the writer works on the bare table: the indexes are gone until the end.
    expect(indexNames()).toEqual([]);
    // Reads still work meanwhile, sorted (SQLite plans without the indexes).
    const page = t.store.campaigns.query({ ...ACME, sort: { field: 'name', direction: 'asc' }, limit: 3 });
    expect(page.total).toBe(N);
    const summary = await r.finish();
    expect(summary).toMatchObject({ written: N, unchanged: 0, removed: 0 });
    await indexesWhole();
    expect(indexNames()).toEqual(WANTED);
    expect(rowsOf(keyOf())).toBe(N);
    expect(inFile((db) => db.pragma('integrity_check', { simple: true }))).toBe('ok');
    // The rebuilt indexes serve the window: a sort by name reads the index, not a temporary b-tree.
    const plan = inFile((db) =>
      (
        db.prepare('EXPLAIN QUERY PLAN SELECT id FROM campaigns WHERE account_key = ? ORDER BY name, id_num, id LIMIT 10').all(keyOf()) as {
          detail: string;
        }[]
      )
        .map((p) => p.detail)
        .join(' | '),
    );
    expect(plan).toContain('campaigns_by_name');
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('loads the first account of an empty cache without the indexes from its first rows, however few', async () => {
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(syntheticCampaigns(500, { firstId: 1 }));
    // Into an empty table, building the indexes after the rows is always the cheaper way.
    expect(indexNames()).toEqual([]);
    expect(await r.finish()).toMatchObject({ written: 500 });
    await indexesWhole();
    const page = t.store.campaigns.query({ ...ACME, sort: { field: 'spent', direction: 'desc' }, limit: 500 });
    expect(page.rows.map((c) => c.spent)).toEqual([...page.rows.map((c) => c.spent)].sort((a, b) => (b ?? 0) - (a ?? 0)));
    expect(page.total).toBe(500);
  });

  it('builds the indexes again when a first load is given up, after taking its rows back', async () => {
    const data = syntheticCampaigns(N, { firstId: 1 });
    const r = t.store.campaigns.beginRefresh(ACME);
    for (let i = 0; i < N; i += 5000) await r.applyPage(data.slice(i, i + 5000));
    expect(indexNames()).toEqual([]);
    expect(await r.abandon()).toBe(N);
    await t.store.campaigns.upsert(GLOBEX, syntheticCampaigns(1, { firstId: 9_000_000 })[0]);
    await indexesWhole();
    expect(indexNames()).toEqual(WANTED);
    expect(rowsOf(keyOf())).toBe(0);
  });

  it('builds the indexes before closing when a load is cut short by the app stopping', async () => {
    const data = syntheticCampaigns(N, { firstId: 1 });
    const r = t.store.campaigns.beginRefresh(ACME);
    for (let i = 0; i < N; i += 5000) await r.applyPage(data.slice(i, i + 5000));
    expect(indexNames()).toEqual([]);
    await t.reopen();
    expect(indexNames()).toEqual(WANTED);
    expect(rowsOf(keyOf())).toBe(N);
  });

  it('keeps the indexes when the new account is small beside what the cache holds', async () => {
    await load(syntheticCampaigns(N, { firstId: 1 }));
    await indexesWhole();
    const r = t.store.campaigns.beginRefresh(GLOBEX);
    await r.applyPage(syntheticCampaigns(BULK_LOAD_MIN_ROWS + 10, { firstId: 5_000_000 }));
    // 20,010 new rows beside 25,000 cached ones: rebuilding would sort all 45,010, so they go in one by one.
    expect(indexNames()).toEqual(WANTED);
    await r.finish();
    expect(indexNames()).toEqual(WANTED);
    expect(rowsOf(keyOf(GLOBEX))).toBe(BULK_LOAD_MIN_ROWS + 10);
  });
});

describe('second refresh of a cached account', () => {
  it('writes only the 3 rows of 10,000 that changed', async () => {
    const data = syntheticCampaigns(10_000, { firstId: 1 });
    expect(await load(data)).toMatchObject({ written: 10_000, unchanged: 0 });
    const changedAt = [17, 4_242, 9_999];
    const next = data.map((c, i) => (changedAt.includes(i) ? { ...c, name: `${c.name} (renamed)`, spent: (c.spent ?? 0) + 5 } : c));
    const summary = await load(next);
    expect(summary).toMatchObject({ written: 3, unchanged: 9_997, removed: 0 });
    for (const i of changedAt) expect(t.store.campaigns.get(ACME, next[i].id)).toEqual(next[i]);
    expect(t.store.campaigns.get(ACME, next[0].id)).toEqual(data[0]);
  });

  it('writes nothing at all for an unchanged listing: the file is not written', async () => {
    const data = syntheticCampaigns(10_000, { firstId: 1 });
    await load(data);
    await indexesBuilt(t);
    const db = new Database(cacheFileOf(t.file), { readonly: true });
    try {
      // PRAGMA data_version changes for a connection when another connection commits a change to the file.
      const v0 = db.pragma('data_version', { simple: true });
      expect(await load(data)).toMatchObject({ written: 0, unchanged: 10_000 });
      expect(db.pragma('data_version', { simple: true })).toBe(v0);
    } finally {
      db.close();
    }
  });
});
