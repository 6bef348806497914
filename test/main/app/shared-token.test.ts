// Two connections with the same client id against a service that keeps one live token per client
// (variant token_per_client "latest_only": a new token revokes the client's earlier ones). Each
// connection minting its own token would revoke the other's: calls fail "unauthorized" after
// their one retry, and every retry's new token revokes the other's again. The connections share
// one token per (token endpoint, client id), and a connection edit's credential check with a
// secret that token was issued for reuses it instead of minting one.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CLIENT_ID, DEMO_CLIENT_SECRET } from '../../../src/shared/demo-world';
import { isTokenRequest, requestLog } from '../../helpers/sandbox';
import { addConnection, type Env, settleIo, startEnv } from '../../helpers/world';

const A = 'sandbox-demo';
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function twoConnections(): Promise<{ e: Env; b: string }> {
  const e = (env = await startEnv({ clock: 'manual', variants: { token_per_client: 'latest_only' } }));
  const b = await addConnection(e, { name: 'Same client, second desk', clientId: DEMO_CLIENT_ID, clientSecret: DEMO_CLIENT_SECRET });
  await settleIo(e);
  // Their applications, so that each can read its tasks.
  for (const profileId of [A, b.id]) await e.core.handlers['apps.list']({ profileId });
  return { e, b: b.id };
}

/** What the service saw after `seq`: tokens asked for and issued, and API answers refusing a token. */
async function seenSince(e: Env, seq: number) {
  const log = (await requestLog(e.sandbox)).filter((r) => r.seq > seq);
  const tokens = log.filter(isTokenRequest);
  return {
    tokens: tokens.length,
    issued: tokens.filter((r) => r.status === 200).length,
    refused: log.filter((r) => !isTokenRequest(r) && r.status === 401).length,
  };
}

/** Both connections read at once, `rounds` times: every read must succeed. */
async function workTogether(e: Env, profiles: string[], rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await Promise.all(
      profiles.flatMap((profileId) => ['1001', '1002'].map((appId) => e.core.handlers['tasks.refresh']({ profileId, appId }))),
    );
  }
}

describe('one token per client id, shared by the connections that use it', () => {
  it("two connections working at once never revoke each other's token", async () => {
    const { e, b } = await twoConnections();
    const before = e.sandbox.lastRequestSeq();
    await workTogether(e, [A, b], 5);
    const seen = await seenSince(e, before);
    // Once the second connection's check has given the shared token, no one needs another.
    expect(seen).toEqual({ tokens: 0, issued: 0, refused: 0 });
    for (const id of [A, b]) expect((await e.core.handlers['profiles.list']({})).find((p) => p.id === id)?.connection).toBe('online');
  });

  it('renews the shared token once for both connections when it runs out: no refresh storm', async () => {
    const { e, b } = await twoConnections();
    await workTogether(e, [A, b], 1);
    // Past the token's lifetime (the sandbox's default, an hour).
    e.sandbox.advance(3_600_000 + 1);
    const before = e.sandbox.lastRequestSeq();
    await workTogether(e, [A, b], 3);
    expect(await seenSince(e, before)).toEqual({ tokens: 1, issued: 1, refused: 0 });
  });

  it("a connection edit's credential check while the other works reuses the shared token, revoking nothing", async () => {
    const { e, b } = await twoConnections();
    await workTogether(e, [A, b], 1);
    const before = e.sandbox.lastRequestSeq();
    // The person saves the second connection with its secret typed again, while the first reads.
    const [edited] = await Promise.all([
      e.core.handlers['profiles.update']({ profileId: b, name: 'Renamed second desk', clientSecret: DEMO_CLIENT_SECRET }),
      workTogether(e, [A], 3),
    ]);
    expect(edited).toMatchObject({ name: 'Renamed second desk' });
    await settleIo(e);
    await workTogether(e, [A, b], 2);
    expect(await seenSince(e, before)).toEqual({ tokens: 0, issued: 0, refused: 0 });
  });

  it('a wrong secret typed in an edit is refused by the service and leaves the shared token working', async () => {
    const { e, b } = await twoConnections();
    await workTogether(e, [A, b], 1);
    const before = e.sandbox.lastRequestSeq();
    await expect(e.core.handlers['profiles.update']({ profileId: b, clientSecret: 'not-the-secret' })).rejects.toMatchObject({
      code: 'unauthorized',
    });
    await workTogether(e, [A, b], 1);
    // The refused secret was asked about (in the form, then through HTTP Basic); no token was
    // issued, and the one both connections use kept working.
    expect(await seenSince(e, before)).toMatchObject({ issued: 0, refused: 0 });
  });
});
