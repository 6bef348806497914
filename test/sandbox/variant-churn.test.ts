// The churn variant: between two reads of a listing another user creates or deletes a campaign of
// the account (a listing is not a snapshot: spec 4.2 promises none), drawn from the seed.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile, tokenFor } from '../helpers/sandbox';
import { LISTED_ACCOUNT, listingFixtures } from './listing-fixtures';

let sb: RunningSandbox;
let token: string;
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => listingFixtures(30),
);

const listing = async () =>
  (await call(sb, 'GET', `/core/api/1.0/${LISTED_ACCOUNT}/campaigns?fetch_level=RAP`, { token })).body as {
    results: { id: string }[];
    metadata: { total: number };
  };

/** Ten listings in a row: the id sets they show. */
async function tenListings(): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < 10; i++) out.push((await listing()).results.map((r) => r.id).join(','));
  return out;
}

describe('churn', () => {
  it('is off by default: the same listing every time', async () => {
    expect(new Set(await tenListings()).size).toBe(1);
  });

  it('creates or deletes a campaign before some listings, the total telling the truth, and replays by seed', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { churn: 0.5, seed: 7 } })).status).toBe(200);
    const first = await tenListings();
    expect(new Set(first).size).toBeGreaterThan(2);
    const last = await listing();
    expect(last.metadata.total).toBe(last.results.length);
    // Created ones get new ids; deleted ones are gone from the service's state too.
    const state = (await call(sb, 'GET', `/_sandbox/state/campaigns?account=${LISTED_ACCOUNT}`)).body as {
      campaigns: { id: number; status: string }[];
    };
    expect(
      state.campaigns
        .filter((c) => c.status !== 'TERMINATED')
        .map((c) => String(c.id))
        .sort(),
    ).toEqual(last.results.map((r) => r.id).sort());
    // What other users deleted is told apart from what was never there: listed first, gone since.
    const gone = (await call(sb, 'GET', `/_sandbox/state/deleted-by-others?account=${LISTED_ACCOUNT}`)).body as {
      campaigns: { id: number }[];
    };
    const everListed = new Set(first.flatMap((l) => l.split(',')));
    const stillThere = new Set(last.results.map((r) => r.id));
    expect(gone.campaigns.length).toBeGreaterThan(0);
    for (const c of gone.campaigns) {
      expect(everListed.has(String(c.id))).toBe(true);
      expect(stillThere.has(String(c.id))).toBe(false);
    }
    await call(sb, 'POST', '/_sandbox/reset');
    token = await tokenFor(sb);
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { churn: 0.5, seed: 7 } })).status).toBe(200);
    expect(await tenListings()).toEqual(first);
  });
});
