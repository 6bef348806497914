// The short_pages variant: rows are filtered after paging, so pages before the last may be short
// or empty while metadata.total stays true (spec 4.2 and 2.2 say nothing of full pages).
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';
import { LISTED_ACCOUNT, listedIds, listingFixtures } from './listing-fixtures';

let sb: RunningSandbox;
let token: string;
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => listingFixtures(150),
);

interface Envelope {
  results: { id: string }[];
  metadata: { total: number; count: number };
}
const page = async (n: number, size: number) =>
  (await call(sb, 'GET', `/core/api/1.0/${LISTED_ACCOUNT}/campaigns?fetch_level=RAP&page=${n}&page_size=${size}`, { token }))
    .body as Envelope;

describe('short_pages', () => {
  it('is off by default: every page but the last is full', async () => {
    const first = await page(1, 10);
    expect(first.results).toHaveLength(10);
    expect(first.metadata.total).toBe(100);
  });

  it('pages over every campaign and filters afterwards: short pages before the last, none missing over all pages, total true', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { short_pages: true } })).status).toBe(200);
    const first = await page(1, 10);
    // Rows 0..9: 0, 3, 6 and 9 are TERMINATED.
    expect(first.results).toHaveLength(6);
    expect(first.metadata).toMatchObject({ total: 100, count: 6 });
    const seen: string[] = [];
    for (let n = 1; n <= 15; n++) seen.push(...(await page(n, 10)).results.map((r) => r.id));
    expect(seen.sort()).toEqual(listedIds(150).sort());
    // A page of terminated rows only is empty, though more pages follow.
    const lone = await page(1, 1);
    expect(lone.results).toHaveLength(0);
    expect(lone.metadata.total).toBe(100);
    expect((await page(2, 1)).results).toHaveLength(1);
  });
});
