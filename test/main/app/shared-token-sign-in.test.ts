// A browser sign-in and a client-credentials connection of the same client id, against a service
// that keeps one live token per client id (variant token_per_client "latest_only"). A sign-in's
// token cannot be shared as client-credentials tokens are, so the two end each other's tokens. The
// client renews the client-credentials token once on its refusal (never in a loop), and the
// sign-in that the service then ends says why, in words, wherever the person looks: not "sign in
// again" (which would end the other's token in turn), not "cannot be reached".
import { afterEach, expect, it } from 'vitest';
import { demoFixtures } from '../../../src/sandbox/index';
import { isTokenRequest, loginAs, requestLog } from '../../helpers/sandbox';
import { freePort } from '../../helpers/free-port';
import { addConnection, type Env, startEnv } from '../../helpers/world';

const A = 'sandbox-demo';
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const outcome = (p: Promise<unknown>): Promise<{ ok?: true; code?: string; message?: string }> =>
  p.then(
    () => ({ ok: true as const }),
    (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
  );

it('renews the shared token once, and the ended sign-in names the other connection of its client id as the cause', async () => {
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  const fixtures = demoFixtures(Date.now());
  fixtures.clients[0].redirect_uris = [...(fixtures.clients[0].redirect_uris ?? []), redirectUri];
  env = await startEnv({ fixtures, variants: { token_per_client: 'latest_only' } });
  await env.core.close();
  const h = (await env.restart({ openExternal: loginAs('manager@example.com', 'demo') })).handlers;
  // The demo connection (client credentials, demo-client) works.
  await h['apps.list']({ profileId: A });
  expect(await outcome(h['tasks.refresh']({ profileId: A, appId: '1001' }))).toEqual({ ok: true });
  // A second connection signs in through the browser with the same client id: the service ends
  // the demo connection's token.
  const b = await addConnection(env, { name: 'Browser', url: env.sandbox.url, flow: 'authorization_code', redirectUri });
  await h['profiles.signIn']({ profileId: b.id });
  const before = env.sandbox.lastRequestSeq();
  for (let round = 0; round < 3; round++) {
    // The demo connection renews once and works (ending the browser sign-in's token).
    expect(await outcome(h['tasks.refresh']({ profileId: A, appId: '1001' }))).toEqual({ ok: true });
    const second = await outcome(h['tasks.refresh']({ profileId: b.id, appId: '1001' }));
    expect(second).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('client id "demo-client"') });
    expect(second.message).toMatch(/cannot both work at once/);
    expect(second.message).not.toMatch(/cannot be reached/);
  }
  const log = (await requestLog(env.sandbox)).filter((r) => r.seq > before);
  // One renewal for the refusal, none after: no loop of tokens ending each other.
  expect(log.filter(isTokenRequest)).toHaveLength(1);
  expect(log.filter((r) => !isTokenRequest(r) && r.status === 401)).toHaveLength(2);
  const profile = (await h['profiles.list']({})).find((p) => p.id === b.id)!;
  expect(profile.signIn).toMatchObject({ state: 'sign_in_required', message: expect.stringMatching(/client id "demo-client"/) });
  expect((await h['profiles.list']({})).find((p) => p.id === A)?.connection).toBe('online');
});
