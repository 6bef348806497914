// The walk that compares a listing in id order with the cached rows a chunk at a time
// (digest-walk.ts), on a real cache file: it names every unchanged row the whole-account map would,
// across its chunks and past runs of rows deleted at the service, names none that the refresh has
// written or that a create wrote meanwhile, and a listing that is not in the cache's order is found
// out and looked up in the whole account instead. The rows it named count as listed by its runs
// (not one by one), so the refresh removes exactly the rows the listing did not show.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Campaign } from '../../../src/shared/domain/campaign';
import type { CampaignRefresh } from '../../../src/main/store';
import type { DigestWalk } from '../../../src/main/store/digest-walk';
import { syntheticCampaigns } from '../../fixtures/campaigns';
import { ACME, openTestStore, seed, type TestStore } from './helpers';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
  seed(t.store);
});
afterEach(() => t.cleanup());

/** Campaigns with the even ids 2, 4, ... 2n (odd ids are free for new ones in between). */
const evenCampaigns = (n: number): Campaign[] => syntheticCampaigns(n, { firstId: 1 }).map((c, i) => ({ ...c, id: String(2 * (i + 1)) }));

/** A listed record: its campaign and the digest of its bytes. */
interface Listed {
  campaign: Campaign;
  digest: string;
}

/**
 * Hands a listing to a refresh the way the refresher does with a streamed answer: chunk by chunk,
 * each record looked up first (the known ones are not parsed), then the chunk's walk.listed(), its
 * unchanged ids and its parsed campaigns. Returns the ids the walk named unchanged.
 */
async function feed(r: CampaignRefresh, walk: DigestWalk, listing: readonly Listed[], chunk = 97): Promise<string[]> {
  const named: string[] = [];
  for (let i = 0; i < listing.length; i += chunk) {
    const unchanged: string[] = [];
    const parsed: Listed[] = [];
    for (const x of listing.slice(i, i + chunk)) {
      const id = walk.known(x.digest);
      if (id === undefined) parsed.push(x);
      else {
        // Only ever the row made from these bytes.
        expect(id).toBe(x.campaign.id);
        unchanged.push(id);
      }
    }
    walk.listed(parsed.map((x) => x.campaign));
    r.listedUnchanged(unchanged);
    await r.applyPage(
      parsed.map((x) => x.campaign),
      parsed.map((x) => x.digest),
    );
    named.push(...unchanged);
  }
  return named;
}

async function cache(campaigns: Campaign[]) {
  const r = t.store.campaigns.beginRefresh(ACME);
  await r.applyPage(
    campaigns,
    campaigns.map((c) => `v1:${c.id}`),
  );
  await r.finish();
}

describe('the digest walk of a second refresh', () => {
  it('names every unchanged row across its chunks and past runs of deleted rows; the refresh writes only what changed and removes what left', async () => {
    const before = evenCampaigns(7000);
    await cache(before);
    // At the service: a short run and a run longer than a chunk (2000 rows) deleted, three
    // campaigns changed, new ones in between the old ids and after them.
    const deleted = (n: number) => (n >= 200 && n <= 300) || (n >= 6000 && n <= 11_000);
    const changed = new Set(['20', '4000', '4002']);
    const listing: Listed[] = [];
    const added = new Set<string>();
    for (const c of before) {
      const n = Number(c.id);
      if (n % 1000 === 0 && n < 13_000) {
        const fresh = { ...c, id: String(n - 1), name: `New ${n - 1}` };
        added.add(fresh.id);
        listing.push({ campaign: fresh, digest: `v1:${fresh.id}` });
      }
      if (deleted(n)) continue;
      listing.push(
        changed.has(c.id) ? { campaign: { ...c, name: `Changed ${c.id}` }, digest: `v2:${c.id}` } : { campaign: c, digest: `v1:${c.id}` },
      );
    }
    listing.push({ campaign: { ...before[0], id: '14001', name: 'New last' }, digest: 'v1:14001' });
    added.add('14001');

    const r = t.store.campaigns.beginRefresh(ACME);
    const walk = r.walk();
    const named = await feed(r, walk, listing);

    const unchanged = listing.filter((x) => !added.has(x.campaign.id) && !changed.has(x.campaign.id));
    expect(walk.inOrder).toBe(true);
    // Every one, but for the rest of the stream's chunk in which a run of deleted rows longer than
    // the walk's chunk ended: the next row is beyond the rows the walk holds until the chunk's
    // parsed records move it on (they are parsed and found equal, not written).
    const missed = unchanged.map((x) => x.campaign.id).filter((id) => !named.includes(id));
    expect(named).toEqual(unchanged.map((x) => x.campaign.id).filter((id) => !missed.includes(id)));
    expect(missed.length).toBeLessThan(97);
    for (const id of missed) expect(Number(id)).toBeGreaterThan(11_000);
    for (const id of missed) expect(Number(id)).toBeLessThan(11_000 + 2 * 97);
    const summary = await r.finish();
    expect(summary).toMatchObject({
      written: changed.size + added.size,
      unchanged: unchanged.length,
      removed: before.filter((c) => deleted(Number(c.id))).length,
    });

    const rows: Campaign[] = [];
    for (let offset = 0; offset < listing.length; offset += 1000)
      rows.push(...t.store.campaigns.query({ ...ACME, sort: { field: 'id', direction: 'asc' }, offset, limit: 1000 }).rows);
    expect(t.store.campaigns.count(ACME)).toBe(listing.length);
    expect(rows.map((c) => c.id)).toEqual(listing.map((x) => x.campaign.id));
    expect(rows.find((c) => c.id === '4000')?.name).toBe('Changed 4000');
    expect(rows.find((c) => c.id === '999')?.name).toBe('New 999');
  });

  it('does not name a row the listing showed before, nor one a create wrote meanwhile', async () => {
    const before = evenCampaigns(50);
    await cache(before);
    const r = t.store.campaigns.beginRefresh(ACME);
    const walk = r.walk();
    await t.store.campaigns.upsert(ACME, { ...before[30], name: 'Created just now' });
    const listing = before.map((c) => ({ campaign: c, digest: `v1:${c.id}` }));
    // Row 20 listed twice: the second time it is parsed and written, as any record would be.
    const named = await feed(r, walk, [...listing.slice(0, 11), listing[10], ...listing.slice(11)], 7);
    expect(named).toEqual(before.filter((_, i) => i !== 30).map((c) => c.id));
    expect(walk.inOrder).toBe(true);
    await r.finish();
  });

  it('finds a listing sorted as text ("10" before "9") out of order, and looks the rest up in the whole account', async () => {
    // Ids of one to four digits: as text, "1000" comes before "2".
    const before = evenCampaigns(3000);
    await cache(before);
    const listing = before
      .map((c) => ({ campaign: c, digest: `v1:${c.id}` }))
      .sort((a, b) => (a.campaign.id < b.campaign.id ? -1 : a.campaign.id > b.campaign.id ? 1 : 0));
    const r = t.store.campaigns.beginRefresh(ACME);
    const walk = r.walk();
    const named = await feed(r, walk, listing, 50);
    expect(walk.inOrder).toBe(false);
    // A walk that went on in its own order would miss most of them (every id of fewer digits
    // listed after a longer one): only those before the disorder showed are parsed.
    expect(listing.length - named.length).toBeLessThan(100);
    // The parsed ones were the cached rows' own values: nothing written, nothing removed.
    expect(await r.finish()).toMatchObject({ written: 0, unchanged: 3000, removed: 0 });
    expect(t.store.campaigns.count(ACME)).toBe(3000);
  });

  it('counts a row as listed only once the chunk that named it was handed on (a stream that broke inside a chunk lists none of it)', async () => {
    const before = evenCampaigns(10);
    await cache(before);
    const r = t.store.campaigns.beginRefresh(ACME);
    const walk = r.walk();
    expect(walk.known('v1:2')).toBe('2');
    walk.listed([]);
    r.listedUnchanged(['2']);
    // Looked up, then the stream broke before the chunk was handed on; the rest came in pages.
    expect(walk.known('v1:4')).toBe('4');
    await r.applyPage(before.slice(4));
    expect(await r.finish()).toMatchObject({ removed: 3 });
    expect(t.store.campaigns.get(ACME, '2')).toBeDefined();
    for (const id of ['4', '6', '8']) expect(t.store.campaigns.get(ACME, id)).toBeUndefined();
  });

  it('knows nothing in a first load, nor in a refresh that took over from one that did not finish', async () => {
    const first = t.store.campaigns.beginRefresh(ACME);
    expect(first.walk().known('v1:2')).toBeUndefined();
    await first.applyPage(evenCampaigns(3), ['v1:2', 'v1:4', 'v1:6']);
    await first.finish();
    const unfinished = t.store.campaigns.beginRefresh(ACME);
    await unfinished.applyPage(evenCampaigns(1), ['v2:2']);
    const next = t.store.campaigns.beginRefresh(ACME);
    expect(next.walk().known('v1:4')).toBeUndefined();
    await next.abandon();
  });
});
