// Right after a first load, sorted pages come from in-memory orders while the worker builds the
// indexes (sort-orders.ts). They must be exactly the pages the indexes give afterwards: same rows,
// same order, same totals, for every sort both ways, with status and text filters, at every depth.
import { afterEach, describe, expect, it } from 'vitest';
import { SORTABLE_CAMPAIGN_FIELDS, type Campaign } from '../../../src/shared/domain/campaign';
import type { CampaignQuery } from '../../../src/main/store/campaign-query';
import { mulberry32, syntheticCampaigns } from '../../../bench/campaign-data';
import { campaignRowValues, idSortKey } from '../../../src/main/store/campaign-columns';
import { SortKeyCollector } from '../../../src/main/store/sort-orders';
import { ACME, openTestStore, seed, type TestStore } from './helpers';

let t: TestStore;
afterEach(() => t?.cleanup());

/** Values where JS and SQLite orders part ways unless done carefully. */
function awkwardCampaigns(count: number): Campaign[] {
  const rnd = mulberry32(21);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const names = ['apple', 'Apple', 'APPLE', 'Äpfel', 'äpfel', 'zeta', 'Zeta', 'Café', 'cafe', 'e\u0301t\u00e9', '😀 smile', '\uff21 wide', '\ue000 private', '', ' space', 'a_b', 'a-b', 'a b'];
  const texts = [null, 'Acme', 'acme', 'ACME', 'Ärger', '😀', '\uffee', 'b', 'B'];
  const numbers = [null, 0, -0, -1.5, 2, 2.0000001, -1e9, 1e12, 0.1, 0.3];
  const statuses = [null, 'APPROVED', 'PAUSED', 'PENDING_APPROVAL', 'paused'];
  const base = syntheticCampaigns(count, { seed: 5, firstId: 1000, advertiserNames: true });
  return base.map((c, i) => ({
    ...c,
    id: i % 17 === 0 ? `ext-${i}` : i % 29 === 0 ? `E${i}` : c.id,
    name: i % 3 === 0 ? pick(names) : c.name,
    branding_text: i % 2 === 0 ? pick(texts) : c.branding_text,
    advertiser_id: i % 5 === 0 ? (pick(texts) ?? 'x') : c.advertiser_id,
    advertiser_name: i % 7 === 0 ? (pick(texts) ?? 'y') : c.advertiser_name,
    spent: i % 2 === 0 ? pick(numbers) : c.spent,
    cpc: i % 3 === 0 ? pick(numbers) : c.cpc,
    daily_cap: i % 4 === 0 ? pick(numbers) : c.daily_cap,
    status: i % 4 === 0 ? pick(statuses) : c.status,
    start_date: i % 6 === 0 ? pick([null, '2025-01-01', '2025-01-01T00:00:00Z', 'soon']) : c.start_date,
    pricing_model: i % 8 === 0 ? pick([null, 'CPM', 'cpc']) : c.pricing_model,
  }));
}

const queries: Omit<CampaignQuery, 'profileId' | 'accountId'>[] = [];
for (const field of SORTABLE_CAMPAIGN_FIELDS) {
  for (const direction of ['asc', 'desc'] as const) {
    for (const offset of [0, 37, 150, 290]) queries.push({ sort: { field, direction }, offset, limit: 25 });
    queries.push({ sort: { field, direction }, statuses: ['PAUSED', 'paused'], offset: 5, limit: 20 });
    queries.push({ sort: { field, direction }, text: 'app', offset: 0, limit: 30 });
    queries.push({ sort: { field, direction }, text: 'ACME', statuses: ['APPROVED'], offset: 2, limit: 10 });
  }
}
queries.push({ text: '😀', limit: 50 }, { text: 'no such thing', limit: 5 }, { statuses: [], offset: 299, limit: 5 }, { offset: 400, limit: 5 });

const run = () =>
  queries.map((q) => {
    const page = t.store.campaigns.query({ ...ACME, ...q });
    return { total: page.total, ids: page.rows.map((c) => c.id) };
  });

describe('sort orders held in memory after a first load', () => {
  const inKeyOrder = (data: Campaign[]) =>
    [...data].sort((a, b) => idSortKey(a.id) - idSortKey(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const loads: [string, (data: Campaign[]) => Campaign[][]][] = [
    // Offset paging can deliver a row again, changed: the table keeps the last one.
    ['rows out of key order, some delivered twice', (data) => [data.slice(0, 200), data.slice(180).map((c, i) => (i < 10 ? { ...c, name: `Moved ${i}`, spent: -i } : c))]],
    // What a service listing by id gives: the key order needs no sort.
    ['rows in key order', (data) => [inKeyOrder(data).slice(0, 150), inKeyOrder(data).slice(150)]],
    // ...unless a campaign created meanwhile shifts the offsets: the next page repeats a row.
    ['rows in key order, the last of a page delivered again', (data) => [inKeyOrder(data).slice(0, 150), inKeyOrder(data).slice(149)]],
  ];
  for (const [shape, pagesOf] of loads) {
    it(`give exactly the pages the indexes give once built, for every sort, filter and depth (${shape})`, async () => {
      t = openTestStore();
      seed(t.store);
      const r = t.store.campaigns.beginRefresh(ACME);
      for (const page of pagesOf(awkwardCampaigns(300))) await r.applyPage(page);
      const steps: string[] = [];
      await r.finish((done, total) => steps.push(`${done}/${total}`));
      expect(steps.at(-1)).toBe('16/16');
      // Nothing awaited from here until the pages are read: the background builds cannot end first.
      expect(t.store.campaigns.sortSource(ACME)).toBe('memory');
      const fromMemory = run();
      expect(t.store.campaigns.sortSource(ACME)).toBe('memory');

      await t.store.campaigns.indexBuilds();
      expect(t.store.campaigns.sortSource(ACME)).toBe('indexes');
      const fromIndexes = run();
      expect(fromIndexes[0].total).toBe(300);
      expect(fromIndexes.some((p) => p.ids.includes('ext-17'))).toBe(true);
      for (let k = 0; k < queries.length; k++) expect(fromMemory[k], JSON.stringify(queries[k])).toEqual(fromIndexes[k]);
    });
  }

  it('are dropped at the first other write, which the next pages then show', async () => {
    t = openTestStore();
    seed(t.store);
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(syntheticCampaigns(120, { firstId: 1 }));
    await r.finish();
    expect(t.store.campaigns.sortSource(ACME)).toBe('memory');
    t.store.campaigns.upsert(ACME, { id: '9999', name: '  first by name', status: 'APPROVED' });
    expect(t.store.campaigns.sortSource(ACME)).not.toBe('memory');
    const page = t.store.campaigns.query({ ...ACME, sort: { field: 'name', direction: 'asc' }, limit: 1 });
    expect(page.total).toBe(121);
    expect(page.rows[0].id).toBe('9999');
    await t.store.campaigns.indexBuilds();
    expect(t.store.campaigns.sortSource(ACME)).toBe('indexes');
  });

  it('keep serving pages until the background builds end, which is when a refresh may begin (whenWritable)', async () => {
    t = openTestStore();
    seed(t.store);
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage(syntheticCampaigns(2000, { firstId: 1 }));
    await r.finish();
    let writable = false;
    const waiting = t.store.campaigns.whenWritable().then(() => (writable = true));
    // The builds run on the worker: one at a time, each a round trip, so not yet.
    expect(t.store.campaigns.sortSource(ACME)).toBe('memory');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writable).toBe(false);
    await waiting;
    expect(t.store.campaigns.sortSource(ACME)).toBe('indexes');
    // Nothing is being built now: it answers at once.
    await t.store.campaigns.whenWritable();
  });

  it('leave a refresh started while the indexes are built an ordinary one: unchanged rows are not written again', async () => {
    t = openTestStore();
    seed(t.store);
    const data = syntheticCampaigns(200, { firstId: 1 });
    const first = t.store.campaigns.beginRefresh(ACME);
    await first.applyPage(data);
    await first.finish();
    const again = t.store.campaigns.beginRefresh(ACME);
    expect(await again.applyPage(data)).toEqual({ written: 0, unchanged: 200 });
    await again.finish();
    await t.store.campaigns.indexBuilds();
    expect(t.store.campaigns.sortSource(ACME)).toBe('indexes');
    expect(t.store.campaigns.count(ACME)).toBe(200);
  });

  it('are not built when the names could not be ranked (the worker stopped): the load builds its indexes first instead', async () => {
    const collector = new SortKeyCollector();
    for (const c of syntheticCampaigns(50, { firstId: 1 })) collector.add(campaignRowValues(c));
    collector.discard();
    expect(await collector.build({ expected: 50 })).toBeNull();
  });
});
