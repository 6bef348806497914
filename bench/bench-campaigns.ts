// The campaigns the benchmarks list: the i-th of an account's, as a sandbox fixture. Names,
// statuses, prices and spend vary with i, so every sort and filter of the window has work to do.
import { closeSync, openSync, writeSync } from 'node:fs';
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

export interface BenchAccount {
  id: string;
  name: string;
  campaigns: number;
  /** Before 2026-11 the account predates rate limits (spec 8.1.1): its refresh is never held back. */
  createdAt: string;
}

/**
 * A fixtures file of these advertisers and their campaigns, written campaign by campaign: at a
 * million campaigns one JSON.stringify of the whole would be a ~300 MB string in this process,
 * which the app's figures would then carry.
 */
export function writeBenchFixtures(file: string, client: { id: string; secret: string }, accounts: BenchAccount[]): void {
  const fd = openSync(file, 'w');
  try {
    const head = {
      now: '2026-11-21T09:00:00Z',
      accounts: accounts.map((a) => ({ account_id: a.id, name: a.name, type: 'ADVERTISER', created_at: a.createdAt, features: [] })),
      clients: [{ client_id: client.id, client_secret: client.secret, accounts: accounts.map((a) => a.id) }],
    };
    writeSync(fd, `${JSON.stringify(head).slice(0, -1)},"campaigns":[\n`);
    let first = true;
    // Campaign ids are the service's, unique across accounts: each account's follow the last one's.
    let before = 0;
    for (const a of accounts) {
      let lines: string[] = [];
      for (let i = 0; i < a.campaigns; i++) {
        lines.push(JSON.stringify(benchCampaign(a.id, before + i)));
        if (lines.length === 10_000 || i === a.campaigns - 1) {
          writeSync(fd, (first ? '' : ',\n') + lines.join(',\n'));
          first = false;
          lines = [];
        }
      }
      before += a.campaigns;
    }
    writeSync(fd, '\n]}\n');
  } finally {
    closeSync(fd);
  }
}
