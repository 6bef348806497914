// A refresh asks for the whole listing in one request and writes its rows as they are parsed
// (DECISIONS client 9): one list read for an account the service answers whole.
import { afterEach, describe, expect, it } from 'vitest';
import type { Fixtures } from '../../../src/sandbox/index';
import type { Profile, SyncProgress } from '../../../src/shared/ipc/contract';
import { control, testFixtures } from '../../helpers/sandbox';
import { type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

function fixtures(count: number): Fixtures {
  const f = testFixtures();
  // A new account: Tier 4 for listing (2 a second, 15 a minute).
  f.accounts.push({ account_id: 'wholeshop', name: 'Whole Shop', type: 'ADVERTISER', created_at: '2026-11-19T00:00:00Z', features: [] });
  f.clients[0].accounts.push('wholeshop');
  for (let i = 0; i < count; i++) {
    f.campaigns!.push({
      account_id: 'wholeshop',
      id: 8_000_001 + i,
      name: `Whole ${i}`,
      status: i % 2 ? 'PAUSED' : 'APPROVED',
      created_at: '2026-11-19T01:00:00Z',
      cpc: 0.2,
      spent: i,
      bid_strategy: 'FIXED',
    });
  }
  return f;
}

describe('a refresh in one request', () => {
  it('caches every campaign of an account with one list read, without paging, and is done only then', async () => {
    env = await startEnv({ fixtures: fixtures(3000), demo: false, variants: { page_size_cap: undefined } });
    const h = env.core.handlers;
    const p: Profile = await h['profiles.create']({
      name: 'A',
      baseUrl: env.serviceUrl,
      authUrl: env.serviceUrl,
      pushUrl: env.serviceUrl,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      flow: 'client_credentials',
      redirectUri: null,
    });
    await h['accounts.add']({ profileId: p.id, accountId: 'wholeshop' });
    const last = await until(
      () =>
        env!.events
          .map((x) => x.payload as SyncProgress)
          .find((x) => x.accountId === 'wholeshop' && x.state !== 'running' && 'pagesDone' in x),
      'the refresh to end',
      30_000,
    );
    expect(last).toMatchObject({ state: 'done', pagesDone: 1, pagesTotal: 1 });
    const log = (await control(env.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string }[] };
    const reads = log.requests
      .filter((r) => r.method === 'GET' && r.path.startsWith('/core/api/1.0/wholeshop/campaigns'))
      .map((r) => r.path);
    // The add's check (one row), then the whole listing: no page, no page_size.
    expect(reads).toHaveLength(2);
    expect(reads[1]).not.toMatch(/page/);
    const q = await h['campaigns.query']({
      profileId: p.id,
      accountId: 'wholeshop',
      sort: { field: 'spent', direction: 'desc' },
      statuses: ['PAUSED'],
      offset: 0,
      limit: 3,
    });
    expect(q.total).toBe(1500);
    expect(q.rows.map((r) => r.spent)).toEqual([2999, 2997, 2995]);
  }, 300_000);
});
