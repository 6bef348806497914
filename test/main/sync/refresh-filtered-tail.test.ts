// A listing that holds still but leaves many rows out after paging (spec 4.2 does not say a page
// holds page_size rows): a run of empty pages past the total is not proof of the end, since any
// number of left-out rows may lie before the last campaign. A reading that stopped at a run as long
// as the one before it listed the same rows again and the refresh failed, "never added up" (chaos
// seed 101, issue #25); each reading now follows a run twice as long as the one before.
import { describe, expect, it } from 'vitest';
import { cachedIds, closeEachEnv, refreshUnder, serviceIds, walkFixtures } from './listing-support';

closeEachEnv();

describe('a still listing with a long run of rows left out before its last campaign', () => {
  it('is read to its last campaign, and the refresh ends done with every campaign', async () => {
    // 10 campaigns, 8 terminated ones (4 empty pages of 2), then the last campaign: the total (11)
    // allows 6 pages, and the first reading ends on the empty run after them.
    const { e, p, last } = await refreshUnder(
      walkFixtures(19, (i) => i >= 10 && i < 18),
      { page_size_cap: 2, short_pages: true, churn: undefined, moving_order: undefined, transient_5xx: undefined, seed: 1 },
      { clock: 'manual' },
    );
    expect(last).toMatchObject({ state: 'done', message: null });
    expect(await cachedIds(e, p.id)).toEqual(await serviceIds(e));
    expect(await cachedIds(e, p.id)).toHaveLength(11);
  }, 120_000);
});
