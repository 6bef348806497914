// The invariant of DECISIONS client 15, over many services: whatever the page lengths (rows
// filtered after paging, any page cap), the order (moving by spend), the churn while the listing
// is read, 502/503 now and then, answers cut mid-body, and refusals of a page too large, of a
// page after the last or of too many campaign_ids, a refresh that completes leaves the
// cache equal to what the service holds. Waits run on a manual clock the test moves on.
// A failing case replays from its fast-check seed and path (the service's choices from `seed`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cachedIds, closeEachEnv, refreshUnder, serviceIds, walkFixtures } from './listing-support';

closeEachEnv();

const popcount = (n: number) => n.toString(2).replace(/0/g, '').length;

function propertySeed(): { seed?: number } {
  const given = process.env.LISTING_PROPERTY_SEED;
  if (given === 'random') return {};
  return { seed: given === undefined ? 42 : Number(given) };
}

describe('after a completed refresh the cache equals the service', () => {
  it('for random page lengths, orders and churn', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          count: fc.integer({ min: 0, max: 150 }),
          // Which rows the service pages over but filters out afterwards (TERMINATED).
          hiddenMask: fc.integer({ min: 0, max: 255 }),
          cap: fc.integer({ min: 2, max: 40 }),
          shortPages: fc.boolean(),
          movingOrder: fc.boolean(),
          churn: fc.constantFrom(0, 0.05, 0.15),
          transient5xx: fc.constantFrom(0, 0.1),
          cutBody: fc.constantFrom(undefined, 15),
          // Refusals the interface allows: a page larger than the service serves, a page after the
          // last, more campaign_ids than it takes at once.
          pageSizeMax: fc.constantFrom(undefined, 10, 25),
          pastEnd: fc.constantFrom(undefined, 'not_found' as const, 'bad_request' as const),
          idsMax: fc.constantFrom(undefined, 5),
          seed: fc.integer({ min: 1, max: 1_000_000 }),
        }),
        async (c) => {
          const hidden = (i: number) => ((c.hiddenMask >> i % 8) & 1) === 1;
          const { e, p, last } = await refreshUnder(
            walkFixtures(c.count, hidden),
            {
              page_size_cap: c.cap,
              short_pages: c.shortPages,
              moving_order: c.movingOrder,
              churn: c.churn,
              transient_5xx: c.transient5xx,
              ...(c.cutBody !== undefined ? { cut_body: c.cutBody } : {}),
              ...(c.pageSizeMax !== undefined ? { page_size_max: c.pageSizeMax } : {}),
              ...(c.pastEnd !== undefined ? { page_past_end: c.pastEnd } : {}),
              ...(c.idsMax !== undefined ? { campaign_ids_max: c.idsMax } : {}),
              seed: c.seed,
            },
            { clock: 'manual' },
          );
          // A service that filters most of every page may leave runs of empty pages longer than a
          // reading follows past its total (EMPTY_RUN): such a refresh may fail, saying so, but
          // one that filters at most half of the rows completes.
          const hiddenShare = popcount(c.hiddenMask) / 8;
          if (hiddenShare <= 0.5 || last.state === 'done') expect(last).toMatchObject({ state: 'done', message: null });
          else expect(last.message).toMatch(/The service counts \d+ campaigns in walkshop but listed \d+/);
          if (last.state === 'done') expect(await cachedIds(e, p.id)).toEqual(await serviceIds(e));
        },
      ),
      // A fixed seed in CI, so a run is the same on every machine; LISTING_PROPERTY_SEED=random
      // explores. The example failed under the mixed variants (pages of 2 rows with churn on
      // every read: a reading stopped once its ids, deleted ones among them, reached the total,
      // before the pages holding campaigns created meanwhile; and a look-up by id was compared
      // with a total that had moved since). It runs first, every time.
      {
        numRuns: 12,
        ...propertySeed(),
        examples: [
          // Half of the rows filtered after paging, pages of 2, nothing else: every reading ended on
          // the same run of empty pages and missed the same campaign (fixed by a longer run after a
          // reading that held still and came up short).
          [
            {
              count: 5,
              hiddenMask: 77,
              cap: 2,
              shortPages: true,
              movingOrder: false,
              churn: 0,
              transient5xx: 0,
              cutBody: undefined,
              pageSizeMax: undefined,
              pastEnd: undefined,
              idsMax: undefined,
              seed: 1,
            },
          ],
          // A page after the last refused (404) while another user created a campaign: the walk
          // took the count of before for the empty page it stood for, and ended one campaign short.
          [
            {
              count: 11,
              hiddenMask: 0,
              cap: 2,
              shortPages: false,
              movingOrder: false,
              churn: 0.15,
              transient5xx: 0,
              cutBody: undefined,
              pageSizeMax: undefined,
              pastEnd: 'not_found',
              idsMax: undefined,
              seed: 584353,
            },
          ],
          [
            {
              count: 92,
              hiddenMask: 1,
              cap: 2,
              shortPages: true,
              movingOrder: false,
              churn: 0.15,
              transient5xx: 0,
              cutBody: undefined,
              pageSizeMax: undefined,
              pastEnd: undefined,
              idsMax: undefined,
              seed: 371831,
            },
          ],
        ],
      },
    );
  }, 300_000);
});
