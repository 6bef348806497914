import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Campaign } from '../../../src/shared/domain/campaign';
import { syntheticCampaigns } from '../../fixtures/campaigns';
import { CAMPAIGN_FIELDS, CAMPAIGN_WRITE_COLUMNS, campaignRowValues } from '../../../src/main/store/campaign-columns';
import { CAMPAIGN_INDEXES, cacheFileOf } from '../../../src/main/store/cache-file';
import { until } from '../../helpers/wait';
import { ACME, GLOBEX, openTestStore, seed, type TestStore } from './helpers';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
  seed(t.store);
});
afterEach(() => t.cleanup());

const ids = (ref = ACME) => t.store.campaigns.query({ ...ref, sort: { field: 'id', direction: 'asc' }, limit: 1000 }).rows.map((c) => c.id);

function schemaCount(sql: string, ...params: unknown[]): number {
  const raw = new Database(cacheFileOf(t.file), { readonly: true });
  try {
    return raw
      .prepare(sql)
      .pluck()
      .get(...params) as number;
  } finally {
    raw.close();
  }
}
const indexCount = () =>
  schemaCount("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'campaigns' AND sql IS NOT NULL");
/** Rows of any account under this key, read from the file itself. */
const rowsUnder = (key: number) => schemaCount('SELECT count(*) FROM campaigns WHERE account_key = ?', key);

async function load(campaigns: Campaign[], ref = ACME) {
  const r = t.store.campaigns.beginRefresh(ref);
  await r.applyPage(campaigns);
  return r.finish();
}

/** What the promise was rejected with. */
async function refused(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('campaign cache refresh', () => {
  it('keeps old rows visible during a refresh and removes the ones not listed only at finish()', async () => {
    await load(syntheticCampaigns(6, { firstId: 1 }));
    expect(ids()).toEqual(['1', '2', '3', '4', '5', '6']);

    const fresh = syntheticCampaigns(6, { firstId: 1, seed: 8 }).filter((c) => c.id !== '2' && c.id !== '5');
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(fresh.slice(0, 2));
    // Mid-refresh: rows of the first page are updated in place, the rest still show.
    expect(ids()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(t.store.campaigns.get(ACME, '1')).toEqual(fresh[0]);
    await r.applyPage(fresh.slice(2));
    expect(ids()).toHaveLength(6);
    const summary = await r.finish();
    expect(summary).toMatchObject({ pages: 2, removed: 2 });
    expect(ids()).toEqual(['1', '3', '4', '6']);
    expect(t.store.accounts.get(ACME)?.lastSyncedAt).toBe(t.clock.now());
  });

  it('an abandoned refresh (cancelled or failed) removes none of the rows there before it, keeps its updates, and takes back the rows it added', async () => {
    await load(syntheticCampaigns(5, { firstId: 1 }));
    const r = t.store.campaigns.beginRefresh(ACME);
    const renamed = { ...syntheticCampaigns(1, { firstId: 1 })[0], name: 'Renamed on the service' };
    // A junk listing: row 1 changed, then rows the account never had.
    await r.applyPage([renamed, ...syntheticCampaigns(40, { firstId: 1000 })]);
    // Created by the person meanwhile (the answer to a create): not the listing's to take back.
    await t.store.campaigns.upsert(ACME, syntheticCampaigns(1, { firstId: 900 })[0]);
    expect(ids()).toHaveLength(46);
    expect(await r.abandon()).toBe(40);
    expect(ids()).toEqual(['1', '2', '3', '4', '5', '900']);
    expect(t.store.campaigns.get(ACME, '1')?.name).toBe('Renamed on the service');
    expect(await refused(r.applyPage([]))).toMatchObject({ code: 'REFRESH_SUPERSEDED' });
    // Ended: a second abandon() has nothing left to do.
    expect(await r.abandon()).toBe(0);
  });

  it('an abandoned first load leaves the account as empty as it was, but for campaigns created meanwhile', async () => {
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(syntheticCampaigns(300, { firstId: 1 }));
    await t.store.campaigns.upsert(ACME, syntheticCampaigns(1, { firstId: 5000 })[0]);
    await r.applyPage(syntheticCampaigns(300, { firstId: 301 }));
    expect(t.store.campaigns.count(ACME)).toBe(601);
    expect(await r.abandon()).toBe(600);
    expect(ids()).toEqual(['5000']);
    expect(t.store.accounts.get(ACME)?.lastSyncedAt).toBeNull();
    // Another account's rows are not touched.
    expect(rowsUnder(t.store.accounts.keyOf(GLOBEX))).toBe(0);
  });

  it('a refresh that supersedes an unfinished one takes over what that one added: kept when it finishes, taken back when it is abandoned', async () => {
    await load(syntheticCampaigns(3, { firstId: 1 }));
    const first = t.store.campaigns.beginRefresh(ACME);
    await first.applyPage(syntheticCampaigns(2, { firstId: 100 }));
    const second = t.store.campaigns.beginRefresh(ACME);
    // The older one ends late (its cancellation lands after the newer began): it leaves the rows to the newer.
    expect(await first.abandon()).toBe(0);
    expect(ids()).toEqual(['1', '2', '3', '100', '101']);
    await second.applyPage(syntheticCampaigns(1, { firstId: 200 }));
    expect(await second.abandon()).toBe(3);
    expect(ids()).toEqual(['1', '2', '3']);

    // And once one finishes, what it listed stays: a later abandoned refresh takes back only its own.
    const third = t.store.campaigns.beginRefresh(ACME);
    await third.applyPage(syntheticCampaigns(3, { firstId: 1 }));
    await third.applyPage(syntheticCampaigns(1, { firstId: 300 }));
    await third.finish();
    const fourth = t.store.campaigns.beginRefresh(ACME);
    await fourth.applyPage(syntheticCampaigns(1, { firstId: 400 }));
    expect(await fourth.abandon()).toBe(1);
    expect(ids()).toEqual(['1', '2', '3', '300']);
  });

  it('writes nothing for rows that did not change', async () => {
    const data = syntheticCampaigns(300, { firstId: 1 });
    const first = await load(data);
    expect(first).toMatchObject({ written: 300, unchanged: 0 });
    const changed = data.map((c, i) => (i % 10 === 0 ? { ...c, spent: (c.spent ?? 0) + 1 } : c));
    const second = await load(changed);
    expect(second).toMatchObject({ written: 30, unchanged: 270, removed: 0 });
    expect(t.store.campaigns.get(ACME, '1')?.spent).toBe(changed[0].spent);
  });

  it('a newer refresh of the same account supersedes an older one still running', async () => {
    await load(syntheticCampaigns(3, { firstId: 1 }));
    const older = t.store.campaigns.beginRefresh(ACME);
    const newer = t.store.campaigns.beginRefresh(ACME);
    expect(await refused(older.applyPage([]))).toMatchObject({ code: 'REFRESH_SUPERSEDED' });
    await newer.applyPage(syntheticCampaigns(3, { firstId: 1 }));
    await expect(newer.finish()).resolves.toMatchObject({ removed: 0 });
  });

  it('does not remove a campaign created (upserted) while a refresh that listed before it was running', async () => {
    await load(syntheticCampaigns(2, { firstId: 1 }));
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(syntheticCampaigns(2, { firstId: 1 }));
    await t.store.campaigns.upsert(ACME, { id: 77, name: 'Created just now', status: 'PENDING_APPROVAL' } as unknown as Campaign);
    await r.finish();
    expect(ids()).toEqual(['1', '2', '77']);
    // The numeric id of a create answer is stored as a string (DECISIONS client 2).
    expect(t.store.campaigns.get(ACME, '77')?.id).toBe('77');
  });

  it('keeps each account separate: refreshing one never touches another', async () => {
    await load(syntheticCampaigns(3, { firstId: 1 }), GLOBEX);
    await load(syntheticCampaigns(4, { firstId: 1 }), ACME);
    await load([], ACME);
    expect(ids(ACME)).toEqual([]);
    expect(ids(GLOBEX)).toEqual(['1', '2', '3']);
  });

  it('rewrites exactly what changed: a vanished field, a new null, a changed unknown field, a new status and spent', async () => {
    const data = syntheticCampaigns(50, { firstId: 1 });
    await load(data);
    const before = data[7] as Record<string, unknown>;
    const { branding_text: _gone, ...rest } = before;
    const after = { ...rest, cpc: null, status: 'ARCHIVED', spent: 1e9, targeting: { countries: ['JP'] } } as unknown as Campaign;
    const next = data.map((c, i) => (i === 7 ? after : c));
    expect(await load(next)).toMatchObject({ written: 1, unchanged: 49, removed: 0 });
    const back = t.store.campaigns.get(ACME, after.id);
    expect(back).toEqual(after);
    expect(back).not.toHaveProperty('branding_text');
    // The sort indexes follow the new values.
    const top = t.store.campaigns.query({ ...ACME, sort: { field: 'spent', direction: 'desc' }, limit: 1 });
    expect(top.rows[0].id).toBe(after.id);
    const archived = t.store.campaigns.query({ ...ACME, statuses: ['ARCHIVED'] });
    expect(archived.rows.map((c) => c.id)).toEqual([after.id]);
    // A refresh that brings the old object back restores it, missing field included.
    await load(data);
    expect(t.store.campaigns.get(ACME, after.id)).toEqual(before);
  });

  it('stores each known field in its own column, in the order the present bits and the indexes assume', () => {
    const sample: Record<string, unknown> = {};
    CAMPAIGN_FIELDS.forEach(([field, type], i) => {
      sample[field] = type === 'real' ? i + 0.5 : type === 'json' ? { n: i } : `v${i}`;
    });
    const values = campaignRowValues(7, sample as unknown as Campaign);
    expect(values).toHaveLength(CAMPAIGN_WRITE_COLUMNS.length);
    expect(CAMPAIGN_WRITE_COLUMNS[0]).toBe('account_key');
    expect(values[0]).toBe(7);
    CAMPAIGN_FIELDS.forEach(([field], i) => {
      expect(CAMPAIGN_WRITE_COLUMNS[i + 2]).toBe(field);
      expect(values[i + 2]).toEqual(typeof sample[field] === 'object' ? JSON.stringify(sample[field]) : sample[field]);
    });
    expect(values[CAMPAIGN_FIELDS.length + 2]).toBe(2 ** CAMPAIGN_FIELDS.length - 1);
    expect(values[CAMPAIGN_FIELDS.length + 3]).toBeNull();
  });

  it('keeps unknown fields and exact values, and tells a missing field from a null one', async () => {
    const odd = {
      id: '5',
      name: 'Odd',
      cpc: null,
      safety_rating: { level: 'G', reasons: ['ok'] },
      spent: 0.1 + 0.2,
      targeting: { include: { countries: ['DE', 'FR'] } },
      activity_schedule: null,
      future_field_2030: [1, 'two', { three: 3 }],
    } as unknown as Campaign;
    await load([odd]);
    const back = t.store.campaigns.get(ACME, '5');
    expect(back).toEqual(odd);
    expect(back).not.toHaveProperty('status');
    expect(back).toHaveProperty('cpc', null);
  });

  it('survives large refreshes in one account and removes in chunks', async () => {
    await load(syntheticCampaigns(5000, { firstId: 1 }));
    expect(t.store.campaigns.count(ACME)).toBe(5000);
    const summary = await load(syntheticCampaigns(10, { firstId: 1 }));
    expect(summary.removed).toBe(4990);
    expect(t.store.campaigns.count(ACME)).toBe(10);
  });

  it('serves a first load sorted and filtered from its first batch on, and has the indexes the window uses after it', async () => {
    const data = syntheticCampaigns(500, { firstId: 1 });
    expect(indexCount()).toBe(CAMPAIGN_INDEXES.length);
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(data.slice(0, 250));
    // What the window asks right after the first batch: the biggest spenders among the paused.
    const expected = (rows: Campaign[]) =>
      rows
        .filter((c) => c.status === 'PAUSED')
        .sort((a, b) => (b.spent ?? -Infinity) - (a.spent ?? -Infinity) || Number(b.id) - Number(a.id))
        .slice(0, 5)
        .map((c) => c.id);
    const page = () => t.store.campaigns.query({ ...ACME, sort: { field: 'spent', direction: 'desc' }, statuses: ['PAUSED'], limit: 5 });
    expect(page().rows.map((c) => c.id)).toEqual(expected(data.slice(0, 250)));
    await r.applyPage(data.slice(200)); // overlapping batches, as offset paging can deliver them
    expect(page().rows.map((c) => c.id)).toEqual(expected(data));
    expect(page().total).toBe(data.filter((c) => c.status === 'PAUSED').length);
    expect(await r.finish()).toMatchObject({ pages: 2, removed: 0 });
    // The indexes a first load went without are built by the writer after it is done.
    await until(() => indexCount() === CAMPAIGN_INDEXES.length, 'the indexes the window uses');
    expect(t.store.campaigns.count(ACME)).toBe(500);
  });

  it('after a first load that never finished (crash): its rows are kept and served, and the next refresh removes what is no longer listed', async () => {
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(syntheticCampaigns(30, { firstId: 1 }));
    await t.reopen(); // no finish(), no abandon(): as after a crash
    expect(t.store.campaigns.count(ACME)).toBe(30);
    expect(ids()).toHaveLength(30);
    expect(t.store.accounts.get(ACME)?.lastSyncedAt).toBeNull();
    const next = t.store.campaigns.beginRefresh(ACME);
    await next.applyPage(syntheticCampaigns(10, { firstId: 1 }));
    expect(await next.finish()).toMatchObject({ removed: 20 });
    expect(ids()).toHaveLength(10);
  });

  it('fills many accounts in one transaction (a network batch and its members)', async () => {
    const members = Array.from({ length: 80 }, (_, i) => ({
      profileId: 'p1',
      accountId: `member${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    }));
    for (const m of members) t.store.accounts.add({ ...m, type: 'ADVERTISER', networkId: null });
    const refreshes = members.map((m) => t.store.campaigns.beginRefresh(m));
    await t.store.campaigns.applyBatches(
      refreshes.map((refresh, i) => ({ refresh, campaigns: syntheticCampaigns(3, { firstId: i * 3 + 1 }) })),
    );
    for (const r of refreshes) await r.finish();
    for (const m of members) expect(t.store.campaigns.count(m)).toBe(3);
  });

  it("removes the account's cached campaigns with the account and with its profile; a reused key starts empty", async () => {
    await load(syntheticCampaigns(20, { firstId: 1 }), GLOBEX);
    const globexKey = t.store.accounts.keyOf(GLOBEX);
    expect(rowsUnder(globexKey)).toBe(20);
    await t.store.campaigns.forget(GLOBEX);
    expect(t.store.accounts.remove(GLOBEX)).toBe(true);
    expect(rowsUnder(globexKey)).toBe(0);
    t.store.accounts.add({ ...GLOBEX, type: 'ADVERTISER' });
    expect(t.store.campaigns.count(GLOBEX)).toBe(0);
    await load(syntheticCampaigns(5, { firstId: 1 }), GLOBEX);
    const keys = [t.store.accounts.keyOf(ACME), t.store.accounts.keyOf(GLOBEX)];
    // Removed without forgetting (as after a crash between the two): they go when the store opens again.
    t.store.profiles.remove('p1');
    expect(rowsUnder(keys[1])).toBe(5);
    await t.reopen();
    // (The writer removes them while this thread goes on: waited for, with room for a busy machine.)
    await vi.waitFor(() => expect(keys.map(rowsUnder)).toEqual([0, 0]), { timeout: 30_000 });
  });

  it("forgets a large account's cached campaigns on the cache writer while this thread goes on, and leaves other accounts alone", async () => {
    await load(syntheticCampaigns(5000, { firstId: 1 }));
    await load(syntheticCampaigns(7, { firstId: 1 }), GLOBEX);
    let between = 0;
    const ticking = setInterval(() => between++, 0);
    try {
      expect(await t.store.campaigns.forget(ACME)).toBe(5000);
    } finally {
      clearInterval(ticking);
    }
    expect(between).toBeGreaterThan(0);
    expect(rowsUnder(t.store.accounts.keyOf(ACME))).toBe(0);
    expect(t.store.campaigns.count(GLOBEX)).toBe(7);
    expect(t.store.accounts.remove(ACME)).toBe(true);
  });

  it('quarantines a cached row that no longer rebuilds, instead of failing the whole list', async () => {
    await load(syntheticCampaigns(3, { firstId: 1 }));
    const raw = new Database(cacheFileOf(t.file));
    // Only the id is required of a campaign (every other field is read liberally): a stored id that is an object cannot rebuild.
    raw.prepare('UPDATE campaigns SET extra = \'{"id": {"not": "an id"}}\' WHERE account_key = 1 AND id = \'2\'').run();
    raw.close();
    const page = t.store.campaigns.query({ ...ACME, sort: { field: 'id', direction: 'asc' } });
    expect(page.rows.map((c) => c.id)).toEqual(['1', '3']);
    const q = t.store.quarantine.list('p1');
    expect(q).toHaveLength(1);
    expect(q[0]).toMatchObject({ source: 'campaigns', sourceKey: expect.stringContaining('/2') });
    expect(q[0].reason).toMatch(/id/);
    // Removed by the writer while this thread goes on.
    await vi.waitFor(() => expect(t.store.campaigns.count(ACME)).toBe(2), { timeout: 30_000 });
  });
});
