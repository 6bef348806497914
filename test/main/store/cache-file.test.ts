// The campaign cache file beside the data file holds only what can be fetched again: a cache file
// the app cannot use (damaged, not a database, from a newer app) is replaced by an empty one and
// the app goes on, while the person's own data in the data file is untouched.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { CAMPAIGN_INDEXES, cacheFileOf, CACHE_SCHEMA_VERSION, hasTextIndex } from '../../../src/main/store/cache-file';
import { syntheticCampaigns } from '../../fixtures/campaigns';
import { until } from '../../helpers/wait';
import { ACME, openTestStore, seed, type TestStore } from './helpers';

let t: TestStore;
afterEach(() => t.cleanup());

async function cacheSome(n: number) {
  const r = t.store.campaigns.beginRefresh(ACME);
  await r.applyPage(syntheticCampaigns(n, { firstId: 1 }));
  await r.finish();
}

describe('the campaign cache file', () => {
  it('keeps its rows across a restart, beside the data file', async () => {
    t = openTestStore();
    seed(t.store);
    await cacheSome(30);
    expect(cacheFileOf(t.file)).toMatch(/desk\.campaigns\.db$/);
    const store = await t.reopen();
    expect(store.campaigns.count(ACME)).toBe(30);
  });

  it('replaces a damaged cache file with an empty one, keeping the data file, and fills it again', async () => {
    t = openTestStore();
    seed(t.store);
    await cacheSome(30);
    await t.store.close();
    writeFileSync(cacheFileOf(t.file), 'not a database at all, only words written over it'.repeat(200));
    const store = await t.reopen();
    expect(store.accounts.get(ACME)?.name).toBe('Acme');
    expect(store.campaigns.count(ACME)).toBe(0);
    await cacheSome(12);
    expect(store.campaigns.count(ACME)).toBe(12);
  });

  it('keeps the rows of a cache file from the previous schema and rebuilds its indexes as this app defines them', async () => {
    t = openTestStore();
    seed(t.store);
    await cacheSome(7);
    await t.store.close();
    // Schema 1: status before the id in each sort index, and an index on the search column.
    const db = new Database(cacheFileOf(t.file));
    for (const name of db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'campaigns_by_%'")
      .pluck()
      .all() as string[])
      db.exec(`DROP INDEX ${name}`);
    for (const [suffix, cols] of [
      ['name', 'name, status'],
      ['spent', 'spent, status'],
      ['status', 'status'],
      ['search', 'search'],
    ]) {
      db.exec(`CREATE INDEX campaigns_by_${suffix} ON campaigns(account_key, ${cols})`);
    }
    db.pragma('user_version = 1');
    db.close();
    const store = await t.reopen();
    expect(store.campaigns.count(ACME)).toBe(7);
    const third = syntheticCampaigns(7, { firstId: 1 })[2];
    expect(store.campaigns.query({ ...ACME, text: third.name }).rows.map((c) => c.id)).toContain('3');
    await store.close();
    const after = new Database(cacheFileOf(t.file), { readonly: true });
    const indexes = after
      .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'campaigns' AND sql IS NOT NULL ORDER BY name")
      .all();
    expect(indexes).toEqual(
      CAMPAIGN_INDEXES.map(([suffix, cols]) => ({
        name: `campaigns_by_${suffix}`,
        sql: `CREATE INDEX campaigns_by_${suffix} ON campaigns(account_key, ${cols})`,
      })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    );
    expect(after.pragma('user_version', { simple: true })).toBe(CACHE_SCHEMA_VERSION);
    after.close();
  });

  it('keeps the rows of a schema 3 cache file, which has no record digests, and writes into it again', async () => {
    t = openTestStore();
    seed(t.store);
    await cacheSome(7);
    await t.store.close();
    const db = new Database(cacheFileOf(t.file));
    db.exec('ALTER TABLE campaigns DROP COLUMN raw_digest');
    db.pragma('user_version = 3');
    db.close();
    const store = await t.reopen();
    expect(store.campaigns.count(ACME)).toBe(7);
    await cacheSome(9);
    expect(store.campaigns.count(ACME)).toBe(9);
    expect(store.campaigns.get(ACME, '9')?.name).toBe(syntheticCampaigns(9, { firstId: 1 })[8].name);
  });

  it("orders ids beyond 2^53 by their value after shorter ones, and gives rows an older app keyed -1 today's key", async () => {
    t = openTestStore();
    seed(t.store);
    // Each id as the service spelled it; JSON.parse would make the 2^53 pair one number.
    const ids = ['100000000000000000000', '9007199254740993', '9007199254740992', '10', '9', '18014398509481985'];
    const template = syntheticCampaigns(1, { firstId: 1 })[0];
    const rows = ids.map((id, i) => ({ ...template, id, name: `Campaign ${i}` }));
    const refresh = async () => {
      const r = t.store.campaigns.beginRefresh(ACME);
      await r.applyPage(rows);
      await r.finish();
    };
    await refresh();
    const byId = () => t.store.campaigns.query({ ...ACME, sort: { field: 'id', direction: 'asc' } }).rows.map((c) => c.id);
    const ordered = ['9', '10', '9007199254740992', '9007199254740993', '18014398509481985', '100000000000000000000'];
    expect(byId()).toEqual(ordered);
    // The file as schema 2 left it: every id of 16 digits or more keyed -1.
    await t.store.close();
    const db = new Database(cacheFileOf(t.file));
    db.exec('UPDATE campaigns SET id_num = -1 WHERE length(id) >= 16');
    db.pragma('user_version = 2');
    db.close();
    const store = await t.reopen();
    expect(store.campaigns.get(ACME, '9007199254740993')?.name).toBe('Campaign 1');
    await refresh();
    expect(store.campaigns.count(ACME)).toBe(ids.length);
    expect(byId()).toEqual(ordered);
  });

  it("builds a schema 5 cache file's text index again, so a letter at the very end of a campaign's text is found", async () => {
    t = openTestStore();
    seed(t.store);
    const r = t.store.campaigns.beginRefresh(ACME);
    // 'z' is the last character of this campaign's searched text and in no other campaign.
    await r.applyPage([...syntheticCampaigns(40, { firstId: 1 }), { id: '77', name: 'Plain', branding_text: 'Quiz', status: 'PAUSED' }]);
    await r.finish();
    await t.store.close();
    // The index as schema 5 held it: each text without the separators after it.
    const db = new Database(cacheFileOf(t.file));
    db.exec("INSERT INTO campaign_text (campaign_text) VALUES ('delete-all')");
    db.exec('INSERT INTO campaign_text (rowid, search, id_num, id) SELECT text_rowid, search, id_num, id FROM campaigns');
    db.pragma('user_version = 5');
    db.close();
    const store = await t.reopen();
    const cache = new Database(cacheFileOf(t.file), { readonly: true });
    try {
      await until(() => hasTextIndex(cache), 'the text index built again');
    } finally {
      cache.close();
    }
    expect(store.campaigns.query({ ...ACME, text: 'z' }).rows.map((c) => c.id)).toEqual(['77']);
    expect(await store.campaigns.countWindow({ ...ACME, text: 'z' })).toBe(1);
  });

  it('replaces a cache file a newer app made, instead of refusing to start', async () => {
    t = openTestStore();
    seed(t.store);
    await cacheSome(5);
    await t.store.close();
    const db = new Database(cacheFileOf(t.file));
    db.pragma(`user_version = ${CACHE_SCHEMA_VERSION + 3}`);
    db.close();
    const store = await t.reopen();
    expect(store.campaigns.count(ACME)).toBe(0);
    await cacheSome(5);
    expect(store.campaigns.count(ACME)).toBe(5);
  });
});
