// A world for the listing variants' tests: oldtimerltd (not rate limited) with `count` campaigns,
// every third one TERMINATED (never listed), ids from 7_000_001 up.
import type { Fixtures } from '../../src/sandbox/index';
import { testFixtures } from '../helpers/sandbox';

export const LISTED_ACCOUNT = 'oldtimerltd';

export function listingFixtures(count = 150): Fixtures {
  const f = testFixtures();
  f.campaigns = f.campaigns!.filter((c) => c.account_id !== LISTED_ACCOUNT);
  for (let i = 0; i < count; i++) {
    f.campaigns.push({
      account_id: LISTED_ACCOUNT,
      id: 7_000_001 + i,
      name: `Listed ${i}`,
      status: i % 3 === 0 ? 'TERMINATED' : 'APPROVED',
      created_at: '2026-01-01T00:00:00Z',
      bid_strategy: 'FIXED',
      cpc: 0.2,
      spent: i,
    });
  }
  return f;
}

/** Ids the listing should show: every campaign that is not TERMINATED. */
export const listedIds = (count = 150) =>
  Array.from({ length: count }, (_, i) => i)
    .filter((i) => i % 3 !== 0)
    .map((i) => String(7_000_001 + i));
