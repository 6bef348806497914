// A network's first refresh brings in its member accounts as its listing names them and fills each
// member's cache from the same listing. Each notice makes the window re-read its account tree, so
// a batch that brings in several members says so once, not once per member (a 5,000-member
// network would otherwise send thousands). Real sandbox, real SQLite.
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile, SyncProgress } from '../../../src/shared/ipc/contract';
import { testFixtures } from '../../helpers/sandbox';
import { startEnv, until, type Env } from '../app/env';

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

describe("a network's first refresh", () => {
  it('adds its members with one notice per batch, not one per member, and fills every member', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
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
      if (x.accountId !== 'northnet') return;
      refreshing = x.state === 'running';
      if (x.state === 'done') done = true;
    });
    env.core.events.on('data.changed', (x: { what: string }) => {
      if (refreshing && x.what === 'accounts') seen.push({ what: x.what, turn });
    });
    try {
      const p = await addProfile(env);
      await h['accounts.add']({ profileId: p.id, accountId: 'northnet' });
      await until(() => done, 'the network refresh to finish', 20_000);
      // Notices while members were added (the last one is the refresh's end), each in a turn of its own.
      const memberNotices = seen.slice(0, -1);
      expect(memberNotices.length).toBeGreaterThanOrEqual(1);
      expect(new Set(memberNotices.map((n) => n.turn)).size).toBe(memberNotices.length);
      // Both members are named by the first batch (the sandbox lists them mixed): one notice for both.
      expect(memberNotices.length).toBe(1);
      expect((await h['accounts.list']({ profileId: p.id })).map((a) => a.accountId)).toEqual(expect.arrayContaining(['northbikes', 'northboats']));
      for (const member of ['northbikes', 'northboats']) {
        const q = await h['campaigns.query']({ profileId: p.id, accountId: member, offset: 0, limit: 10 });
        expect(q.total, member).toBeGreaterThan(0);
      }
    } finally {
      if (ticker) clearImmediate(ticker);
    }
  });
});
