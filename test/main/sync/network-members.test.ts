// A network's first refresh brings in its member accounts as its listing names them and fills each
// member's cache from the same listing. Each notice makes the window re-read its account tree, so
// a batch that brings in several members says so once, not once per member (a 5,000-member
// network would otherwise send thousands). Real sandbox, real SQLite.
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile, SyncProgress } from '../../../src/shared/ipc/contract';
import type { Fixtures } from '../../../src/sandbox/index';
import { testFixtures } from '../../helpers/sandbox';
import { type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function addProfile(e: Env): Promise<Profile> {
  return e.core.handlers['profiles.create']({
    name: 'Agency',
    baseUrl: e.serviceUrl,
    authUrl: e.serviceUrl,
    pushUrl: e.serviceUrl,
    clientId: 'demo-client',
    clientSecret: 'demo-secret',
    flow: 'client_credentials',
    redirectUri: null,
  });
}

/** Letters-only member ids: membera, memberb, ... */
const memberId = (i: number) => `member${String.fromCharCode(97 + (i % 26))}${i >= 26 ? String.fromCharCode(97 + Math.floor(i / 26)) : ''}`;
const MEMBERS = 30;

/** The test world plus a network of MEMBERS members, two recent campaigns each, listed interleaved. */
function withBigNetwork(): Fixtures {
  const f = testFixtures();
  // Made before rate limits began (spec 8.1.1): a service capping pages (SANDBOX_VARIANTS=mixed) lists it in many reads.
  f.accounts.push({ account_id: 'bignet', name: 'Big Network', type: 'NETWORK', created_at: '2026-09-01T00:00:00Z', features: [] });
  for (let i = 0; i < MEMBERS; i++) {
    f.accounts.push({
      account_id: memberId(i),
      name: `Member ${i}`,
      type: 'ADVERTISER',
      network_id: 'bignet',
      created_at: '2026-10-12T00:00:00Z',
      features: [],
    });
  }
  for (let k = 0; k < MEMBERS * 2; k++) {
    f.campaigns!.push({
      account_id: memberId(k % MEMBERS),
      id: 8_000_001 + k,
      name: `Campaign ${k}`,
      status: 'APPROVED',
      created_at: '2026-11-10T00:00:00Z',
    } as NonNullable<Fixtures['campaigns']>[number]);
  }
  for (const c of f.clients) if (c.client_id === 'demo-client') c.accounts.push('bignet');
  return f;
}

describe("a network's first refresh", () => {
  it('adds its members with one notice per batch, not one per member, and fills every member', async () => {
    env = await startEnv({ fixtures: withBigNetwork(), demo: false });
    const h = env.core.handlers;
    // Counts turns of the event loop: two notices in the same turn came from one synchronous batch.
    let turn = 0;
    let ticker: NodeJS.Immediate | undefined;
    const tick = () => {
      turn++;
      ticker = setImmediate(tick);
    };
    tick();
    const seen: { what: string; turn: number }[] = [];
    let refreshing = false;
    let done = false;
    env.core.events.on('sync.progress', (x: SyncProgress) => {
      if (x.accountId !== 'bignet') return;
      refreshing = x.state === 'running';
      if (x.state === 'done') done = true;
    });
    env.core.events.on('data.changed', (x: { what: string }) => {
      if (refreshing && x.what === 'accounts') seen.push({ what: x.what, turn });
    });
    try {
      const p = await addProfile(env);
      await h['accounts.add']({ profileId: p.id, accountId: 'bignet' });
      await until(() => done, 'the network refresh to finish', 20_000);
      // Notices while members were added (the last one is the refresh's end), each in a turn of its own.
      const memberNotices = seen.slice(0, -1);
      expect(memberNotices.length).toBeGreaterThanOrEqual(1);
      expect(new Set(memberNotices.map((n) => n.turn)).size).toBe(memberNotices.length);
      // One notice per batch that brought members in (a batch or two of this small listing; a page
      // each when the service caps pages at 3): fewer notices than members either way.
      expect(memberNotices.length).toBeLessThanOrEqual(Math.ceil(MEMBERS / 3));
      const accounts = (await h['accounts.list']({ profileId: p.id })).map((a) => a.accountId);
      for (let i = 0; i < MEMBERS; i++) expect(accounts).toContain(memberId(i));
      for (const member of [memberId(0), memberId(MEMBERS - 1)]) {
        const q = await h['campaigns.query']({ profileId: p.id, accountId: member, offset: 0, limit: 10 });
        expect(q.total, member).toBeGreaterThan(0);
      }
    } finally {
      if (ticker) clearImmediate(ticker);
    }
  });
});
