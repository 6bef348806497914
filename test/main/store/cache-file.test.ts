// The campaign cache file beside the data file holds only what can be fetched again: a cache file
// the app cannot use (damaged, not a database, from a newer app) is replaced by an empty one and
// the app goes on, while the person's own data in the data file is untouched.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFileOf, CACHE_SCHEMA_VERSION } from '../../../src/main/store/cache-file';
import { syntheticCampaigns } from '../../fixtures/campaigns';
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
