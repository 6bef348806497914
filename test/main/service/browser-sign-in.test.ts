// The authorization-code flow end to end: the sandbox's real login page, filled in over HTTP by a
// stand-in for the browser, redirecting to our loopback listener.
import { request } from 'undici';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/main/clock/clock';
import { signInWithBrowser, type SignInOptions } from '../../../src/main/service/browser-sign-in';
import { freePort } from '../../helpers/free-port';
import { isTokenRequest, loginAs, playVariants, requestLog } from '../../helpers/sandbox';
import { clientFor, clockOf, closedAfterTest, rejection, startServiceSandbox } from '../../helpers/service-client';
import { SECRET } from '../../helpers/fixtures';

async function setup() {
  const port = await freePort();
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  const s = closedAfterTest(await startServiceSandbox({ redirectUri, tokenTtlS: 600 }));
  const base = (openBrowser: SignInOptions['openBrowser']): SignInOptions => ({
    authUrl: s.url,
    baseUrl: s.url,
    clientId: 'demo-client',
    getSecret: () => Promise.resolve(SECRET),
    redirectUri,
    openBrowser,
    clock: clockOf(s),
  });
  return { s, port, redirectUri, base };
}

async function refused(url: string): Promise<boolean> {
  try {
    const r = await request(url);
    await r.body.text();
    return false;
  } catch (e) {
    return (e as { code?: string }).code === 'ECONNREFUSED';
  }
}

describe('signInWithBrowser', () => {
  it('signs in through the login page, exchanges the code, and the session works until it expires', async () => {
    const { s, base, redirectUri } = await setup();
    const seen: { callbackStatus?: number; callbackBody?: string; callbackUrl?: string } = {};
    const session = await signInWithBrowser(base(loginAs('manager@example.com', 'demo', seen)));
    expect(seen.callbackStatus).toBe(200);
    expect(seen.callbackBody).toContain('You can close this window');
    expect(session.flow).toBe('authorization_code');
    expect(session.tokens.refreshToken).toEqual(expect.any(String));
    expect(JSON.stringify(session)).not.toContain(session.tokens.accessToken);
    // The code went to {base_url}/core/oauth/token.
    expect((await requestLog(s)).filter(isTokenRequest).map((r) => r.path)).toEqual(['/core/oauth/token']);
    // The listener is gone: a replayed callback reaches nobody.
    expect(await refused(seen.callbackUrl ?? redirectUri)).toBe(true);

    const client = clientFor(s, { credentials: session, clock: clockOf(s) });
    const page = await client.listCampaigns('oldtimerltd', { fetchLevel: 'RAP' });
    expect(page.total).toBe(0);
    expect(await client.authApps()).toHaveProperty('1001');

    // The token ends on the service clock: the person is asked to sign in again, nothing is sent.
    s.advance(601_000);
    const before = (await requestLog(s)).length;
    const e = await rejection(client.authApps());
    expect(e).toMatchObject({ kind: 'unauthorized', reason: 'sign_in_required', requestWritten: false });
    expect((await requestLog(s)).length).toBe(before);
    await client.close();
  });

  it('asks for a new sign-in after a 401 instead of renewing an authorization-code token', async () => {
    const { s, base } = await setup();
    // This client's clock does not see the service clock move, so it learns from the 401.
    const session = await signInWithBrowser({ ...base(loginAs('manager@example.com', 'demo')), clock: systemClock });
    const client = clientFor(s, { credentials: session });
    s.advance(601_000);
    const e = await rejection(client.listTasks('1001'));
    expect(e).toMatchObject({ kind: 'unauthorized', reason: 'sign_in_required' });
    const log = await requestLog(s);
    expect(log.filter((r) => r.path === '/epsilon/task').map((r) => r.status)).toEqual([401]);
    expect(log.filter(isTokenRequest)).toHaveLength(1);
    await client.close();
  });

  it('refuses a callback with a foreign state and keeps waiting for the real one', async () => {
    const { base, redirectUri } = await setup();
    let forged: number | undefined;
    const login = loginAs('manager@example.com', 'demo');
    const session = await signInWithBrowser(
      base(async (url) => {
        const f = await request(`${redirectUri}?code=stolen&state=not-ours`);
        forged = f.statusCode;
        await f.body.text();
        const other = await request(redirectUri.replace('/callback', '/favicon.ico'));
        await other.body.text();
        expect(other.statusCode).toBe(404);
        await login(url);
      }),
    );
    expect(forged).toBe(400);
    expect(session.tokens.accessToken.length).toBeGreaterThan(0);
  });

  it('completes a sign-in whose redirect carries no state (spec 4.3 shows only the code), still refusing a foreign one', async () => {
    const { s, base, redirectUri } = await setup();
    await playVariants(s, { authorize_state: 'dropped' });
    let forged: number | undefined;
    const login = loginAs('manager@example.com', 'demo');
    const session = await signInWithBrowser({
      ...base(async (url) => {
        const f = await request(`${redirectUri}?code=stolen&state=not-ours`);
        forged = f.statusCode;
        await f.body.text();
        await login(url);
      }),
      // Today's failure mode is waiting out the whole sign-in; a short one keeps the test quick.
      timeoutMs: 2_000,
    });
    expect(forged).toBe(400);
    const client = clientFor(s, { credentials: session, clock: clockOf(s) });
    expect(await client.authApps()).toHaveProperty('1001');
    await client.close();
  });

  it('reports a denied sign-in, a sign-in that never comes back, and a port already taken', async () => {
    const { base, port } = await setup();
    const denied = await rejection(signInWithBrowser(base(loginAs('manager@example.com', 'demo', {}, 'deny'))));
    expect(denied).toMatchObject({ kind: 'forbidden', reason: 'sign_in_required' });
    expect(denied.message).toContain('access_denied');

    const slow = await rejection(signInWithBrowser({ ...base(() => Promise.resolve()), timeoutMs: 150 }));
    expect(slow.kind).toBe('timeout');

    const squatter = createServer((_req, res) => res.end('mine'));
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const busy = await rejection(signInWithBrowser(base(() => Promise.resolve())));
      expect(busy.kind).toBe('network');
      expect(busy.message).toContain(`Port ${port} is in use`);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }

    const notLoopback = await rejection(
      signInWithBrowser({ ...base(() => Promise.resolve()), redirectUri: 'https://example.com/callback' }),
    );
    expect(notLoopback.kind).toBe('validation');
  });
});
