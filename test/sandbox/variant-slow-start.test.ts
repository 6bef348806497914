// The slow_start variant: a large listing answer starts late (its headers held back in real time),
// as a service that builds the whole answer first may; a small one is not held.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { LARGE_LISTING_ROWS } from '../../src/sandbox/listing-variants';
import { call, sandboxPerFile } from '../helpers/sandbox';
import { LISTED_ACCOUNT, listingFixtures } from './listing-fixtures';

let sb: RunningSandbox;
let token: string;
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => listingFixtures(200),
);

const timed = async (query: string) => {
  const t0 = performance.now();
  const r = await call(sb, 'GET', `/core/api/1.0/${LISTED_ACCOUNT}/campaigns?fetch_level=RAP${query}`, { token });
  return { status: r.status, ms: performance.now() - t0 };
};

describe('slow_start', () => {
  it(`holds the headers of a listing of more than ${LARGE_LISTING_ROWS} rows back, not a smaller one`, async () => {
    expect((await timed('')).ms).toBeLessThan(400);
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { slow_start: 600 } })).status).toBe(200);
    const slow = await timed('');
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(590);
    expect((await timed(`&page=1&page_size=${LARGE_LISTING_ROWS}`)).ms).toBeLessThan(400);
  });
});
