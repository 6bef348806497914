import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, DAY, testFixtures, tokenFor, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
// Generous list quotas: this file is about what is listed, rate limits have their own file.
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => ({ ...testFixtures(), rate_limits: { tiers: { '4': { read: [1000, 10000, 100000], write: [1000, 10000, 100000] } } } }),
);

interface Envelope {
  results: Record<string, unknown>[];
  metadata: { total: number; count: number; page: number; page_size: number };
}

async function list(account: string, query = ''): Promise<Envelope> {
  const r = await call(sb, 'GET', `/core/api/1.0/${account}/campaigns${query}`, { token });
  expect(r.status, r.text).toBe(200);
  return r.body as Envelope;
}
const ids = (e: Envelope) => e.results.map((c) => c.id);

describe('fetch_level and what is listed', () => {
  it('R lists recent (30 days or APPROVED) non-paused campaigns, never TERMINATED', async () => {
    expect(ids(await list('acmeshoes', '?fetch_level=R'))).toEqual(['4100001', '4100006', '4100008']);
  });

  it('RAP adds recent paused campaigns', async () => {
    expect(ids(await list('acmeshoes', '?fetch_level=RAP'))).toEqual(['4100001', '4100004', '4100006', '4100008']);
  });

  it('treats an omitted fetch_level as R', async () => {
    expect(ids(await list('acmeshoes'))).toEqual(ids(await list('acmeshoes', '/?fetch_level=R')));
  });

  it('measures "recent" on the sandbox clock: a campaign stops being recent after 30 days', async () => {
    sb.advance(DAY); // 4100006 is now exactly 30 days old
    token = await tokenFor(sb);
    expect(ids(await list('acmeshoes', '?fetch_level=R'))).toContain('4100006');
    sb.advance(1);
    expect(ids(await list('acmeshoes', '?fetch_level=R'))).not.toContain('4100006');
  });

  it('returns ids as strings and the campaign fields, with no advertiser_name for an advertiser', async () => {
    const e = await list('acmeshoes', '?fetch_level=R&campaign_ids=4100001');
    expect(e.results).toEqual([
      {
        id: '4100001',
        advertiser_id: 'acmeshoes',
        name: 'Winter boots - search retargeting',
        branding_text: 'Acme Shoes',
        tracking_code: '',
        pricing_model: 'CPC',
        cpc: 0.42,
        safety_rating: null,
        daily_cap: 150,
        daily_ad_delivery_model: 'STRICT',
        spending_limit: 3000,
        spending_limit_model: 'MONTHLY',
        bid_strategy: 'FIXED',
        marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
        campaign_group_id: null,
        start_date: '2026-09-01T08:00:00Z',
        campaign_item_type: 'HAS_NO_ITEMS',
        status: 'APPROVED',
        spent: 1234.56,
        created_at: '2026-09-01T08:00:00Z',
      },
    ]);
  });

  it('leaves daily_cap out of a campaign that has none (it is typed a number, never null)', async () => {
    const e = await list('acmeshoes', '?fetch_level=RAP&campaign_ids=4100001&campaign_ids=4100008');
    expect(e.results.map((c) => [c.id, c.daily_cap])).toEqual([
      ['4100001', 150],
      ['4100008', undefined],
    ]);
    expect(e.results[1]).not.toHaveProperty('daily_cap');
    expect(Object.values(e.results[1])).not.toContain(undefined);
  });

  it('lists a network: its own and every member campaign, by id, each with advertiser_name', async () => {
    const r = await list('northnet', '?fetch_level=RAP');
    expect(r.results.map((c) => [c.id, c.advertiser_id, c.advertiser_name])).toEqual([
      ['4100002', 'northbikes', 'North Bikes'],
      ['4100010', 'northboats', 'North Boats'],
      ['4100011', 'northnet', 'North Network'],
    ]);
    expect(ids(await list('northnet', '?fetch_level=R'))).toEqual(['4100010', '4100011']);
  });

  it('lists a network member on its own without advertiser_name', async () => {
    const r = await list('northbikes', '?fetch_level=RAP');
    expect(ids(r)).toEqual(['4100002']);
    expect(r.results[0]).not.toHaveProperty('advertiser_name');
  });

  it('refuses the accounts of another client with 403', async () => {
    const r = await call(sb, 'GET', '/core/api/1.0/strangers/campaigns?fetch_level=R', { token });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ http_status: 403, message: 'Not authorized for account strangers' });
  });

  it('answers HEAD like GET without a body', async () => {
    const r = await call(sb, 'HEAD', '/core/api/1.0/acmeshoes/campaigns?fetch_level=R', { token });
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect(Number(r.headers['content-length'])).toBeGreaterThan(100);
  });
});

describe('filters, paging, sorting', () => {
  it('filters by repeated campaign_ids, still applying fetch_level', async () => {
    expect(ids(await list('acmeshoes', '?fetch_level=RAP&campaign_ids=4100001&campaign_ids=4100003&campaign_ids=4100004'))).toEqual([
      '4100001',
      '4100004',
    ]);
    expect(ids(await list('acmeshoes', '?fetch_level=RAP&campaign_ids=4100012'))).toEqual([]);
  });

  it('pages with page and page_size, with total, count, page and page_size in metadata', async () => {
    const p1 = await list('acmeshoes', '?fetch_level=RAP&page=1&page_size=3');
    expect(ids(p1)).toEqual(['4100001', '4100004', '4100006']);
    expect(p1.metadata).toEqual({ total: 4, count: 3, page: 1, page_size: 3 });
    const p2 = await list('acmeshoes', '?fetch_level=RAP&page=2&page_size=3');
    expect(ids(p2)).toEqual(['4100008']);
    expect(p2.metadata).toEqual({ total: 4, count: 1, page: 2, page_size: 3 });
    const p3 = await list('acmeshoes', '?fetch_level=RAP&page=3&page_size=3');
    expect(p3.metadata).toEqual({ total: 4, count: 0, page: 3, page_size: 3 });
  });

  it('reports an unpaged list as page 1 holding everything', async () => {
    expect((await list('acmeshoes', '?fetch_level=RAP')).metadata).toEqual({ total: 4, count: 4, page: 1, page_size: 4 });
  });

  it.each([
    ['name,asc', ['4100004', '4100006', '4100001', '4100008']],
    ['name,desc', ['4100008', '4100001', '4100006', '4100004']],
    ['spent,desc', ['4100001', '4100008', '4100004', '4100006']],
    ['cpc,asc', ['4100008', '4100001', '4100004', '4100006']],
    ['cpc,desc', ['4100004', '4100001', '4100008', '4100006']],
    ['start_date,asc', ['4100008', '4100001', '4100006', '4100004']],
    ['id,desc', ['4100008', '4100006', '4100004', '4100001']],
    ['status,asc', ['4100001', '4100008', '4100004', '4100006']],
  ])('sorts by %s (nulls last, ties by id)', async (sort, expected) => {
    expect(ids(await list('acmeshoes', `?fetch_level=RAP&sort=${sort}`))).toEqual(expected);
  });

  it('combines sort with paging', async () => {
    expect(ids(await list('acmeshoes', '?fetch_level=RAP&sort=name,asc&page=2&page_size=2'))).toEqual(['4100001', '4100008']);
  });
});

describe('query errors', () => {
  it.each([
    ['fetch_level=ALL', 'fetch_level must be R or RAP'],
    ['fetch_level=R&fetch_level=RAP', 'Filter fetch_level must not be repeated'],
    ['page=1', 'page and page_size must be sent together'],
    ['page_size=10', 'page and page_size must be sent together'],
    ['page=0&page_size=10', 'page must be an integer of at least 1'],
    ['page=x&page_size=10', 'page must be an integer of at least 1'],
    ['page=1&page_size=0', 'page_size must be an integer from 1 to 1000'],
    ['page=1&page_size=1001', 'page_size must be an integer from 1 to 1000'],
    ['page=1&page_size=2.5', 'page_size must be an integer from 1 to 1000'],
    ['page=1&page=2&page_size=10', 'Filter page must not be repeated'],
    ['sort=targeting,asc', 'Sorting by targeting is not supported'],
    ['sort=tracking_code,asc', 'Sorting by tracking_code is not supported'],
    ['sort=popularity,desc', 'Sorting by popularity is not supported'],
    ['sort=name,up', 'Sort direction must be asc or desc'],
    ['sort=name', 'sort must be field,asc or field,desc'],
    ['sort=name,asc&sort=id,desc', 'Filter sort must not be repeated'],
    ['campaign_ids=abc', 'campaign_ids must be numeric'],
    ['campaign_ids=1,2', 'campaign_ids must be numeric'],
    ['status=APPROVED', 'Unknown parameter status'],
  ])('answers 400 to %s', async (query, message) => {
    const r = await call(sb, 'GET', `/core/api/1.0/acmeshoes/campaigns?${query}`, { token });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ http_status: 400, message });
  });

  it('answers 400 for a non-alphabetic account id', async () => {
    const r = await call(sb, 'GET', '/core/api/1.0/acme-shoes/campaigns', { token });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ http_status: 400, message: 'account_id must contain letters only' });
  });
});
