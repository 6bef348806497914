// The moving_order variant: without `sort`, a listing is ordered by spend (the interface names no
// default order) and spends change between reads, so the same page shows other rows next time.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';
import { LISTED_ACCOUNT, listingFixtures } from './listing-fixtures';

let sb: RunningSandbox;
let token: string;
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => listingFixtures(60),
);

const page = async (query: string) =>
  (
    (await call(sb, 'GET', `/core/api/1.0/${LISTED_ACCOUNT}/campaigns?fetch_level=RAP&${query}`, { token })).body as {
      results: { id: string; spent: number }[];
    }
  ).results;

describe('moving_order', () => {
  it('is off by default: the first page stays the same, in id order', async () => {
    const a = await page('page=1&page_size=5');
    expect(await page('page=1&page_size=5')).toEqual(a);
    expect(a.map((r) => r.id)).toEqual([...a.map((r) => r.id)].sort());
  });

  it('orders by spend, highest first, and the order moves between reads; sort=id,asc stays put', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { moving_order: true } })).status).toBe(200);
    const pages: string[] = [];
    for (let i = 0; i < 5; i++) {
      const rows = await page('page=1&page_size=5');
      expect(rows.map((r) => r.spent)).toEqual([...rows.map((r) => r.spent)].sort((x, y) => y - x));
      pages.push(rows.map((r) => r.id).join(','));
    }
    expect(new Set(pages).size).toBeGreaterThan(1);
    const byId = await page('page=1&page_size=5&sort=id,asc');
    expect(await page('page=1&page_size=5&sort=id,asc')).toEqual(byId.map((r) => expect.objectContaining({ id: r.id })));
  });
});
