// Variants that change how answers are written: page_size_cap (how many rows a listing answers),
// decimal_point (3000.0) and date_offset (ISO date-times in another offset, same instant).
import { describe, expect, it } from 'vitest';
import type { Fixtures, RunningSandbox, Variants } from '../../src/sandbox/index';
import { call, DAY, nativeCampaign, pushEvent, sandboxPerFile, T0, testFixtures } from '../helpers/sandbox';

/** Ten approved campaigns in the unlimited account oldtimerltd (so listings never meet a rate limit). */
function fixtures(): Fixtures {
  const f = testFixtures();
  for (let i = 1; i <= 10; i++) {
    f.campaigns!.push({
      account_id: 'oldtimerltd',
      id: 4200000 + i,
      name: i === 3 ? 'Odd "spent":3 name' : `Campaign ${i}`,
      branding_text: 'Old Timer',
      status: 'APPROVED',
      created_at: '2026-09-01T08:00:00Z',
      bid_strategy: 'FIXED',
      cpc: i === 2 ? 0.42 : 1,
      spending_limit: 3000,
      spending_limit_model: 'MONTHLY',
      marketing_objective: 'LEADS_GENERATION',
      daily_cap: i === 1 ? null : 150,
      spent: i === 2 ? 12.5 : 0,
    });
  }
  return f;
}

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)), fixtures);

const play = async (variants: Variants) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
type Envelope = { results: Record<string, unknown>[]; metadata: Record<string, number> };
const list = async (query: string) => {
  const r = await call(sb, 'GET', `/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP${query}`, { token });
  expect(r.status, r.text).toBe(200);
  return r;
};
const ids = (r: { body: unknown }) => (r.body as Envelope).results.map((c) => Number(c.id) - 4200000);
const meta = (r: { body: unknown }) => (r.body as Envelope).metadata;

describe('page_size_cap', () => {
  it('answers at most N rows to an unpaged request: the first N, with the true total', async () => {
    await play({ page_size_cap: 4 });
    const r = await list('');
    expect(ids(r)).toEqual([1, 2, 3, 4]);
    expect(meta(r)).toEqual({ total: 10, count: 4, page: 1, page_size: 4 });
  });

  it('pages in pages of N when a larger page_size was asked for, to the end', async () => {
    await play({ page_size_cap: 4 });
    const pages = [];
    for (let page = 1; page <= 4; page++) {
      const r = await list(`&page=${page}&page_size=100`);
      pages.push(ids(r));
      expect(meta(r)).toEqual({ total: 10, count: ids(r).length, page, page_size: 4 });
    }
    expect(pages).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10], []]);
  });

  it('serves a page_size below the cap as asked', async () => {
    await play({ page_size_cap: 4 });
    const r = await list('&page=2&page_size=3');
    expect(ids(r)).toEqual([4, 5, 6]);
    expect(meta(r)).toEqual({ total: 10, count: 3, page: 2, page_size: 3 });
  });

  it('caps filtered and sorted listings the same way', async () => {
    await play({ page_size_cap: 2 });
    const r = await list('&sort=name,desc&campaign_ids=4200001&campaign_ids=4200002&campaign_ids=4200005');
    expect(ids(r)).toEqual([5, 2]);
    expect(meta(r)).toMatchObject({ total: 3, count: 2 });
  });

  it('without the variant an unpaged request answers everything', async () => {
    const r = await list('');
    expect(ids(r)).toHaveLength(10);
    expect(meta(r)).toEqual({ total: 10, count: 10, page: 1, page_size: 10 });
  });
});

describe('decimal_point', () => {
  it('writes whole decimals of a listing as 3000.0, leaves ids, counts and text alone, and stays valid JSON', async () => {
    await play({ decimal_point: true });
    const r = await list('&campaign_ids=4200001&campaign_ids=4200002&campaign_ids=4200003');
    // Valid JSON with the same values as without the variant.
    const plain = (await call(sb, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd')).body as { campaigns: Record<string, unknown>[] };
    const byId = new Map(plain.campaigns.map((c) => [String(c.id), c]));
    for (const c of (r.body as Envelope).results) {
      for (const key of ['cpc', 'spending_limit', 'spent']) expect(c[key]).toBe(byId.get(c.id as string)![key]);
    }
    expect(r.text).toContain('"id":"4200001"');
    expect(r.text).toContain('"cpc":1.0,');
    expect(r.text).toContain('"cpc":0.42,');
    expect(r.text).toContain('"spending_limit":3000.0,');
    expect(r.text).toContain('"daily_cap":150.0,');
    expect(r.text).toContain('"spent":0.0,');
    expect(r.text).toContain('"spent":12.5,');
    expect(r.text).toContain('"metadata":{"total":3,"count":3,"page":1,"page_size":3}');
    // A name that looks like a decimal field is text, and stays exactly as it was.
    expect(r.text).toContain(JSON.stringify('Odd "spent":3 name'));
    expect(r.text).not.toMatch(/\d\.0\.0/);
    // A campaign without a daily cap has no daily_cap key here either.
    expect((r.body as Envelope).results.find((c) => c.id === '4200001')).not.toHaveProperty('daily_cap');
    expect(r.text).not.toContain('"daily_cap":null');
  });

  it('writes the create answer the same way, with the new id as an integer', async () => {
    await play({ decimal_point: true });
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', {
      token,
      json: nativeCampaign({ cpc: 2, spending_limit: 1500, daily_cap: 40 }),
    });
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/^\{"id":4200011,/);
    expect(r.text).toContain('"cpc":2.0,');
    expect(r.text).toContain('"daily_cap":40.0,');
    expect(r.text).toContain('"spending_limit":1500.0,');
    expect(r.text).toContain('"spent":0.0,');
    expect(r.body).toMatchObject({ id: 4200011, cpc: 2, daily_cap: 40, spending_limit: 1500, spent: 0 });
  });

  it('by default whole decimals are written as integers', async () => {
    const r = await list('&campaign_ids=4200001');
    expect(r.text).toContain('"spending_limit":3000,');
  });
});

describe('date_offset', () => {
  const instantOf = (s: unknown) => Date.parse(s as string);

  it('writes campaign start_date and created_at in the offset, the same instant', async () => {
    await play({ date_offset: '+05:30' });
    const r = await list('&campaign_ids=4200001');
    const c = (r.body as Envelope).results[0];
    expect(c.created_at).toBe('2026-09-01T13:30:00.000+05:30');
    expect(c.start_date).toBe('2026-09-01T13:30:00.000+05:30');
    expect(instantOf(c.created_at)).toBe(Date.parse('2026-09-01T08:00:00Z'));
    const created = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', {
      token,
      json: nativeCampaign({ start_date: '2026-12-01T00:00:00Z' }),
    });
    expect(created.body).toMatchObject({ created_at: '2026-11-21T14:30:00.000+05:30', start_date: '2026-12-01T05:30:00.000+05:30' });
  });

  it('writes the formatted times of tasks in the offset, across a day boundary for a negative one', async () => {
    await play({ date_offset: '-08:00' });
    expect((await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent()] } })).status).toBe(200);
    const tasks = (await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[];
    const sent = tasks.at(-1)!;
    expect(sent.executionTimeFormatted).toBe('2026-11-21T01:00:00.000-08:00');
    expect(sent.taskUpdateTimeFormatted).toBe('2026-11-21T01:00:00.000-08:00');
    expect(instantOf(sent.executionTimeFormatted)).toBe(sent.executionTime);
    const scheduled = tasks.find((t) => t.taskId === 900001)!;
    expect(scheduled.executionTimeFormatted).toBe('2026-11-22T01:00:00.000-08:00');
    expect(instantOf(scheduled.executionTimeFormatted)).toBe(T0 + DAY);
  });

  it('by default date-times are UTC with Z', async () => {
    const tasks = (await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[];
    expect(tasks[0].executionTimeFormatted).toBe(new Date(T0 + DAY).toISOString());
  });
});
