// The campaigns the benchmarks list: the i-th of an account's, as a sandbox fixture. Names,
// statuses, prices and spend vary with i, so every sort and filter of the window has work to do.
import type { Fixtures } from '../src/sandbox/index';

export type FixtureCampaign = NonNullable<Fixtures['campaigns']>[number];

export function benchCampaign(accountId: string, i: number): FixtureCampaign {
  return {
    account_id: accountId,
    id: 7_000_001 + i,
    name: `Campaign ${i} ${['spring', 'summer', 'autumn', 'winter'][i % 4]} sale`,
    branding_text: `Brand ${i % 97}`,
    status: ['APPROVED', 'PAUSED', 'PENDING_APPROVAL', 'REJECTED'][i % 4],
    // Recent (fixture now 2026-11-21), so fetch_level RAP lists every status (DECISIONS sandbox 2).
    created_at: new Date(Date.parse('2026-11-01T00:00:00Z') + i * 10_000).toISOString(),
    bid_strategy: 'FIXED',
    cpc: 0.1 + (i % 50) / 100,
    spending_limit: 1000,
    spending_limit_model: 'MONTHLY',
    marketing_objective: 'LEADS_GENERATION',
    spent: (i * 7919) % 10_000,
  } as FixtureCampaign;
}
