// The scheduler against the sandbox's real limiter on a real clock, with short windows so that
// refills happen within seconds. The fixture tiers differ from the documented ones on purpose:
// the client must learn them from the headers.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index';
import { testVariants } from '../../helpers/variants';
import { clientFor, raw, sandboxRequests, SECRET, worldFixtures, type LoggedRequest } from './helpers';

const WINDOWS_S = { second: 1, minute: 5, hour: 30 };
const READ = [2, 5, 12] as const;
const WRITE = [3, 6, 12] as const;

let sb: RunningSandbox | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await sb?.close();
  client = undefined;
  sb = undefined;
});

async function start(): Promise<{ s: RunningSandbox; c: ServiceClient }> {
  sb = await startSandbox({
    variants: testVariants(),
    clock: 'real',
    fixtures: worldFixtures({
      rateLimits: {
        windows: WINDOWS_S,
        tiers: { '7': { read: [1, 1, 1], write: [...WRITE] }, '8': { read: [...READ], write: [1, 1, 1] } },
        endpoint_tiers: { campaigns: 7, 'campaigns.list': 8 },
      },
    }),
  });
  client = clientFor(sb);
  await client.authenticate();
  return { s: sb, c: client };
}

/** The most admitted requests of one budget seen inside any window of each length. */
function maxPerWindow(log: LoggedRequest[], account: string, group: string): number[] {
  const times = log.filter((r) => r.account === account && r.group === group && r.status !== 429 && r.status !== null).map((r) => r.time);
  return Object.values(WINDOWS_S).map((w) => Math.max(0, ...times.map((end) => times.filter((t) => t > end - w * 1000 && t <= end).length)));
}

const draft = (i: number) => ({
  name: `Learned tier ${i}`,
  branding_text: 'Limited One',
  cpc: 0.2,
  spending_limit: 900,
  spending_limit_model: 'MONTHLY',
  bid_strategy: 'FIXED',
  marketing_objective: 'LEADS_GENERATION',
});

describe('rate limits over HTTP', () => {
  it('learns tiers changed in the fixtures from the headers and is never refused', async () => {
    const { s, c } = await start();
    const started = Date.now();
    const reads = Array.from({ length: 8 }, (_, i) => c.listCampaigns('limitedone', { fetchLevel: 'RAP', page: i + 1, pageSize: 1 }, { priority: 'background' }));
    const writes = Array.from({ length: 8 }, (_, i) => c.createCampaign('limitedone', draft(i), { priority: 'outbox' }));
    // Another account is not held up by limitedone's queue.
    const otherStart = Date.now();
    await c.listCampaigns('limitedtwo', { fetchLevel: 'R' });
    expect(Date.now() - otherStart).toBeLessThan(1_000);
    await Promise.all([...reads, ...writes]);
    const elapsed = Date.now() - started;

    const log = await sandboxRequests(s);
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    const reads1 = maxPerWindow(log, 'limitedone', 'campaigns.list');
    const writes1 = maxPerWindow(log, 'limitedone', 'campaigns');
    reads1.forEach((n, i) => expect(n).toBeLessThanOrEqual(READ[i]));
    writes1.forEach((n, i) => expect(n).toBeLessThanOrEqual(WRITE[i]));
    // The quotas allow 8 reads in 6 s (2 per second, 5 per 5 s) and 8 writes in 5 s: the
    // scheduler should be close to that, not at the documented Tier 4 pace (2/s, 15/min).
    expect(elapsed).toBeGreaterThanOrEqual(5_500);
    expect(elapsed).toBeLessThan(8_500);

    const budget = c.snapshot().budgets.find((b) => b.account === 'limitedone' && b.group === 'campaigns.list');
    expect(budget?.state).toBe('learned');
    expect(budget?.windows.map((w) => [w.name, w.quota, w.windowMs])).toEqual([
      ['second', 2, 1000],
      ['minute', 5, 5000],
      ['hour', 12, 30000],
    ]);
  });

  it('waits Retry-After after a 429 caused by someone else, then succeeds with the same request', async () => {
    const { s, c } = await start();
    const token = (
      await raw(s, 'POST', '/authentication/oauth/token', { form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: SECRET } })
    ).body as { access_token: string };
    // Another program spends the second's whole read budget of limitedtwo.
    for (let i = 0; i < READ[0]; i++) {
      expect((await raw(s, 'GET', '/core/api/1.0/limitedtwo/campaigns?fetch_level=R', { token: token.access_token })).status).toBe(200);
    }
    const page = await c.listCampaigns('limitedtwo', { fetchLevel: 'R' });
    expect(page.total).toBe(0);
    const statuses = (await sandboxRequests(s)).filter((r) => r.account === 'limitedtwo').map((r) => r.status);
    expect(statuses).toEqual([200, 200, 429, 200]);
    expect(c.snapshot().totals).toMatchObject({ rateLimited: 1, retried: 1 });
  });

  it('does not throttle an account that is not limited', async () => {
    const { s, c } = await start();
    const started = Date.now();
    await Promise.all(Array.from({ length: 30 }, () => c.listCampaigns('oldtimerltd', { fetchLevel: 'RAP' })));
    // Under the documented Tier 4 guess this would take 15 s.
    expect(Date.now() - started).toBeLessThan(3_000);
    const log = (await sandboxRequests(s)).filter((r) => r.account === 'oldtimerltd');
    expect(log).toHaveLength(30);
    expect(log.every((r) => r.limited === false && r.status === 200)).toBe(true);
    expect(c.snapshot().budgets.find((b) => b.account === 'oldtimerltd')?.state).toBe('unlimited');
  });
});
