// The token endpoint's legal choices (RFC 6749 2.3.1, 5.1, 5.2) over real HTTP against the
// sandbox's variants: token answers spelled another way (token_response), and servers that want
// the client's credentials in HTTP Basic rather than in the form (token_client_auth).
import { describe, expect, it } from 'vitest';
import { signInWithBrowser } from '../../../src/main/service/browser-sign-in';
import { type RunningSandbox, type Variants } from '../../../src/sandbox/index';
import { freePort } from '../../helpers/free-port';
import { isTokenRequest, loginAs, requestLog } from '../../helpers/sandbox';
import { clientFor, clockOf, closedAfterTest, rejection, startServiceSandbox } from '../../helpers/service-client';
import { SECRET } from '../../helpers/fixtures';

const TTL_S = 600;
async function start(extra: Variants, redirectUri?: string, secret = SECRET): Promise<RunningSandbox> {
  return closedAfterTest(await startServiceSandbox({ variants: extra, tokenTtlS: TTL_S, secret, ...(redirectUri ? { redirectUri } : {}) }));
}

const tokenRequests = async (s: RunningSandbox) => (await requestLog(s)).filter(isTokenRequest);

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
    const log = await requestLog(s);
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

describe.each([
  ['basic', 401],
  ['basic_400', 400],
  ['basic_invalid_request', 400],
] as const)('a token endpoint that takes client credentials through HTTP Basic only (%s)', (mode, refusal) => {
  // Every character RFC 6749 2.3.1 makes a client form-encode before Basic: ':' would end the id,
  // '+' and '%' would be read as encodings, and a space and non-ASCII must survive.
  const ODD_SECRET = 'p:ss w+rd%2F&é=1';

  it('falls back from the form to HTTP Basic once, then renews with Basic directly', async () => {
    const s = await start({ token_client_auth: mode });
    const client = clientFor(s, { clock: clockOf(s) });
    expect(await client.authApps()).toHaveProperty('1001');
    expect((await tokenRequests(s)).map((r) => r.status)).toEqual([refusal, 200]);
    // Past the lifetime: one token request, in the way that worked.
    s.advance(TTL_S * 1000);
    await client.listCampaigns('oldtimerltd', { fetchLevel: 'R' });
    expect((await tokenRequests(s)).map((r) => r.status)).toEqual([refusal, 200, 200]);
    await client.close();
  });

  it('form-encodes the id and secret inside Basic, as RFC 6749 2.3.1 says', async () => {
    const s = await start({ token_client_auth: mode }, undefined, ODD_SECRET);
    const client = clientFor(s, {
      credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve(ODD_SECRET) },
    });
    expect(await client.authApps()).toHaveProperty('1001');
    await client.close();
  });

  it('exchanges an authorization code with Basic after the form is refused', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const s = await start({ token_client_auth: mode }, redirectUri, ODD_SECRET);
    const session = await signInWithBrowser({
      authUrl: s.url,
      baseUrl: s.url,
      clientId: 'demo-client',
      getSecret: () => Promise.resolve(ODD_SECRET),
      redirectUri,
      openBrowser: loginAs('manager@example.com', 'demo'),
      clock: clockOf(s),
    });
    expect((await tokenRequests(s)).map((r) => r.status)).toEqual([refusal, 200]);
    const client = clientFor(s, { credentials: session, clock: clockOf(s) });
    expect(await client.authApps()).toHaveProperty('1001');
    await client.close();
  });

  it('still reports a wrong secret as rejected credentials, after one try each way, without the secret', async () => {
    const s = await start({ token_client_auth: mode });
    const wrong = 'wrong-secret-9d2e';
    const client = clientFor(s, {
      credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve(wrong) },
    });
    const e = await rejection(client.authenticate());
    // The verdict on the credentials (invalid_client) is reported, whichever attempt gave it.
    expect(e).toMatchObject({
      kind: 'unauthorized',
      reason: 'credentials_rejected',
      status: mode === 'basic_invalid_request' ? 401 : refusal,
    });
    expect(JSON.stringify(e.toJSON())).not.toContain(wrong);
    expect((await tokenRequests(s)).map((r) => r.status)).toEqual([refusal, 401]);
    await client.close();
  });
});

describe('a server that wants Basic and is unavailable when asked that way (token_unavailable)', () => {
  it('reports the 503, not refused credentials, and gets a token once the server answers', async () => {
    // Seed 1: the first token request (the form) is judged and refused as invalid_client with a
    // Basic challenge; the second (Basic) is answered 503. That verdict is no word on the secret.
    const s = await start({ token_client_auth: 'basic', token_unavailable: 0.5, seed: 1 });
    const client = clientFor(s, { clock: clockOf(s) });
    const e = await rejection(client.authApps());
    expect(e.kind).toBe('server');
    expect(e.requestWritten).toBe(false);
    expect(e.reason).toBeUndefined();
    expect((await tokenRequests(s)).map((r) => r.status)).toEqual([401, 503]);
    await s.close();
    // The same credentials, the server available: a token.
    const again = await start({ token_client_auth: 'basic' });
    expect(await clientFor(again, { clock: clockOf(again) }).authApps()).toHaveProperty('1001');
  });
});
