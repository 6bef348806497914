// A network's first refresh brings in its member accounts one batch at a time. Creating a member's
// campaign table makes SQLite scan its whole schema, which grows with every member: a batch that
// brought in a hundred members of a large network held the event loop for seconds (3.6-8.7 s in
// bench/refresh.ts network), freezing the window. Real sandbox, real SQLite.
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
  it('adds each new member in a turn of the event loop of its own, and fills every member', async () => {
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
      // One notice per member added, then one as the refresh ends (in the turn of its last batch).
      const memberNotices = seen.slice(0, -1);
      expect(memberNotices.length).toBe(2);
      expect(new Set(memberNotices.map((n) => n.turn)).size).toBe(memberNotices.length);
      for (const member of ['northbikes', 'northboats']) {
        const q = await h['campaigns.query']({ profileId: p.id, accountId: member, offset: 0, limit: 10 });
        expect(q.total, member).toBeGreaterThan(0);
      }
    } finally {
      if (ticker) clearImmediate(ticker);
    }
  });
});
