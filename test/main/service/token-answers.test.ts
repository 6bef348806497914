// The token endpoint's legal choices (RFC 6749 2.3.1, 5.1, 5.2) over real HTTP against the
// sandbox's variants: token answers spelled another way (token_response), and servers that want
// the client's credentials in HTTP Basic rather than in the form (token_client_auth).
import { afterEach, describe, expect, it } from 'vitest';
import { signInWithBrowser } from '../../../src/main/service/browser-sign-in';
import { startSandbox, type RunningSandbox, type Variants } from '../../../src/sandbox/index';
import { testVariants } from '../../helpers/variants';
import { clientFor, clockOf, freePort, isTokenRequest, loginAs, sandboxRequests, SECRET, worldFixtures } from './helpers';

const TTL_S = 600;
let sb: RunningSandbox | undefined;

afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

async function start(extra: Variants, redirectUri?: string): Promise<RunningSandbox> {
  sb = await startSandbox({
    variants: { ...testVariants(), ...extra },
    clock: 'manual',
    fixtures: worldFixtures({ now: '2026-11-21T09:00:00Z', tokenTtlS: TTL_S, ...(redirectUri ? { redirectUri } : {}) }),
  });
  return sb;
}

const tokenRequests = async (s: RunningSandbox) => (await sandboxRequests(s)).filter(isTokenRequest);

describe.each(['spelled', 'nulls'] as const)('token answers spelled "%s"', (spelling) => {
  it('gives a token that works and lives as long as expires_in says', async () => {
    const s = await start({ token_response: spelling });
    const client = clientFor(s, { clock: clockOf(s) });
    expect(await client.authApps()).toHaveProperty('1001');
    // Still well inside the lifetime: no renewal.
    s.advance((TTL_S - 120) * 1000);
    await client.authApps();
    expect(await tokenRequests(s)).toHaveLength(1);
    // Inside the renewal margin of expires_in (a string under "spelled"): renewed before any 401.
    s.advance(90_000);
    await client.authApps();
    const log = await sandboxRequests(s);
    expect(log.filter(isTokenRequest)).toHaveLength(2);
    expect(log.filter((r) => r.status === 401)).toHaveLength(0);
    await client.close();
  });

  it('completes a browser sign-in, keeping the refresh token', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const s = await start({ token_response: spelling }, redirectUri);
    const session = await signInWithBrowser({
      authUrl: s.url,
      baseUrl: s.url,
      clientId: 'demo-client',
      getSecret: () => Promise.resolve(SECRET),
      redirectUri,
      openBrowser: loginAs('manager@example.com', 'demo'),
      clock: clockOf(s),
    });
    expect(session.tokens.refreshToken).toEqual(expect.any(String));
    expect(session.tokens.lifetimeMs).toBe(TTL_S * 1000);
    const client = clientFor(s, { credentials: session, clock: clockOf(s) });
    expect(await client.authApps()).toHaveProperty('1001');
    await client.close();
  });
});
