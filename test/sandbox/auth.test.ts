import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, startTestSandbox, tokenFor } from '../helpers/sandbox';

const REDIRECT = 'http://127.0.0.1:53682/callback';
const CC = { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' };

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await call(sb, 'POST', '/_sandbox/reset');
});

const listPath = '/core/api/1.0/acmeshoes/campaigns?fetch_level=R';

describe('token endpoint (client credentials)', () => {
  it('issues a bearer token with expires_in from the fixtures, uncacheable, on both token paths', async () => {
    for (const path of ['/authentication/oauth/token', '/core/oauth/token']) {
      const r = await call(sb, 'POST', path, { form: CC });
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      const body = r.body as Record<string, unknown>;
      expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 3600 });
      expect((body.access_token as string).length).toBeGreaterThanOrEqual(40);
      expect(body).not.toHaveProperty('refresh_token');
      expect((await call(sb, 'GET', listPath, { token: body.access_token as string })).status).toBe(200);
    }
  });

  it('accepts client credentials through HTTP Basic', async () => {
    const basic = Buffer.from('demo-client:demo-secret').toString('base64');
    const r = await call(sb, 'POST', '/authentication/oauth/token', {
      form: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${basic}` },
    });
    expect(r.status).toBe(200);
  });

  it('issues a different opaque token each time', async () => {
    expect(await tokenFor(sb)).not.toBe(await tokenFor(sb));
  });

  it('refuses a body that is not form-urlencoded with invalid_request', async () => {
    const r = await call(sb, 'POST', '/authentication/oauth/token', { json: CC });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('x-www-form-urlencoded') });
  });

  it.each(['grant_type', 'client_id', 'client_secret'])('names the missing field %s with invalid_request', async (field) => {
    const form: Record<string, string> = { ...CC };
    delete form[field];
    const r = await call(sb, 'POST', '/authentication/oauth/token', { form });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid_request', error_description: `Missing required parameter: ${field}` });
  });

  it('answers 401 invalid_client for an unknown client or a wrong secret, without echoing the secret', async () => {
    for (const form of [
      { ...CC, client_secret: 'wrong-secret-xyz' },
      { ...CC, client_id: 'nobody' },
    ]) {
      const r = await call(sb, 'POST', '/authentication/oauth/token', { form });
      expect(r.status).toBe(401);
      expect((r.body as { error: string }).error).toBe('invalid_client');
      expect(r.text).not.toContain('wrong-secret-xyz');
    }
  });

  it.each(['refresh_token', 'password', 'implicit'])('answers unsupported_grant_type for %s', async (grant) => {
    const r = await call(sb, 'POST', '/core/oauth/token', { form: { ...CC, grant_type: grant } });
    expect(r.status).toBe(400);
    expect((r.body as { error: string }).error).toBe('unsupported_grant_type');
  });

  it('answers 405 to a GET on the token endpoint', async () => {
    const r = await call(sb, 'GET', '/core/oauth/token');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
  });
});

describe('token_response variant', () => {
  const play = async (token_response: string) =>
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { token_response } })).status).toBe(200);

  it('spelled: token_type "Bearer", expires_in as a numeric string, scope echoed and a member no client knows', async () => {
    await play('spelled');
    const r = await call(sb, 'POST', '/authentication/oauth/token', { form: CC });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: '3600',
      scope: 'campaigns push',
      jti: expect.any(String),
    });
    expect((await call(sb, 'GET', listPath, { token: (r.body as { access_token: string }).access_token })).status).toBe(200);
  });

  it('nulls: token_type "BEARER" and the members without a value written as null', async () => {
    await play('nulls');
    const r = await call(sb, 'POST', '/authentication/oauth/token', { form: CC });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ access_token: expect.any(String), token_type: 'BEARER', expires_in: 3600, refresh_token: null, scope: null });
    expect((await call(sb, 'GET', listPath, { token: (r.body as { access_token: string }).access_token })).status).toBe(200);
  });
});

describe('token_client_auth variant', () => {
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  it.each([
    ['basic', 401, 'Basic realm="sandbox"'],
    ['basic_400', 400, undefined],
  ] as const)('%s: refuses credentials in the form as invalid_client, takes them through Basic', async (mode, status, challenge) => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { token_client_auth: mode } })).status).toBe(200);
    const refused = await call(sb, 'POST', '/authentication/oauth/token', { form: CC });
    expect(refused.status).toBe(status);
    expect((refused.body as { error: string }).error).toBe('invalid_client');
    expect(refused.headers['www-authenticate']).toBe(challenge);
    const ok = await call(sb, 'POST', '/core/oauth/token', {
      form: { grant_type: 'client_credentials' },
      headers: { authorization: basic('demo-client', 'demo-secret') },
    });
    expect(ok.status).toBe(200);
    // A wrong secret through Basic is still 401 with a challenge (RFC 6749 5.2).
    const wrong = await call(sb, 'POST', '/core/oauth/token', {
      form: { grant_type: 'client_credentials' },
      headers: { authorization: basic('demo-client', 'nope') },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="sandbox"');
  });
});

describe('token_per_client variant', () => {
  it("latest_only: a new token of a client revokes its earlier ones, not other clients' tokens; off by default", async () => {
    const first = await tokenFor(sb);
    expect((await call(sb, 'GET', listPath, { token: first })).status).toBe(200);
    await tokenFor(sb);
    expect((await call(sb, 'GET', listPath, { token: first })).status).toBe(200);
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { token_per_client: 'latest_only' } })).status).toBe(200);
    const older = await tokenFor(sb);
    const other = (
      await call(sb, 'POST', '/core/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: 'other-client', client_secret: 'other-secret' },
      })
    ).body as { access_token: string };
    const newer = await tokenFor(sb);
    const revoked = await call(sb, 'GET', listPath, { token: older });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ http_status: 401, message: 'Invalid or expired access token' });
    expect((await call(sb, 'GET', listPath, { token: newer })).status).toBe(200);
    expect((await call(sb, 'GET', '/epsilon/push/auth-apps', { token: other.access_token })).status).toBe(200);
  });
});

describe('token_error_echo variant', () => {
  const echoing = async () => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { token_error_echo: true } })).status).toBe(200);

  it('ends every token error description with the raw request body, secret and code included', async () => {
    await echoing();
    const cases: [Record<string, string>, number, string][] = [
      [{ ...CC, client_secret: 'wrong secret!(x)' }, 401, 'invalid_client'],
      [{ ...CC, client_id: 'nobody' }, 401, 'invalid_client'],
      [{ ...CC, grant_type: 'password' }, 400, 'unsupported_grant_type'],
      [{ ...CC, grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: REDIRECT }, 400, 'invalid_grant'],
    ];
    for (const [form, status, error] of cases) {
      const r = await call(sb, 'POST', '/authentication/oauth/token', { form });
      expect(r.status).toBe(status);
      const body = r.body as { error: string; error_description: string };
      expect(body.error).toBe(error);
      // As the body arrived: form-encoded, so the secret is spelled as URLSearchParams wrote it.
      expect(body.error_description).toMatch(/ \(request: .+\)$/);
      expect(body.error_description.endsWith(`(request: ${new URLSearchParams(form).toString()})`)).toBe(true);
    }
  });

  it('still issues tokens, and the default sandbox echoes nothing', async () => {
    await echoing();
    expect((await call(sb, 'POST', '/core/oauth/token', { form: CC })).status).toBe(200);
    await call(sb, 'PUT', '/_sandbox/variants', { json: {} });
    const r = await call(sb, 'POST', '/authentication/oauth/token', { form: { ...CC, client_id: 'nobody' } });
    expect(r.text).not.toContain('demo-secret');
  });
});

describe('bearer authentication', () => {
  it('answers 401 with the API body and a Bearer challenge when the token is missing', async () => {
    const r = await call(sb, 'GET', listPath);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ http_status: 401, message: 'Invalid or expired access token' });
    expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
    const p = await call(sb, 'GET', '/epsilon/push/auth-apps');
    expect(p.status).toBe(401);
    expect(p.body).toEqual({ httpStatus: 401, message: 'Invalid or expired access token' });
    expect(p.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers 401 to an unknown token', async () => {
    const r = await call(sb, 'GET', listPath, { token: 'not-a-token' });
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toContain('invalid_token');
  });

  it('expires tokens after token_ttl_s on the sandbox clock', async () => {
    const token = await tokenFor(sb);
    sb.advance(3600 * 1000 - 1);
    expect((await call(sb, 'GET', listPath, { token })).status).toBe(200);
    sb.advance(1);
    const r = await call(sb, 'GET', listPath, { token });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ http_status: 401, message: 'Invalid or expired access token' });
  });

  it('forgets tokens on reset', async () => {
    const token = await tokenFor(sb);
    await call(sb, 'POST', '/_sandbox/reset');
    expect((await call(sb, 'GET', listPath, { token })).status).toBe(401);
  });
});

function queryOf(location: string): URLSearchParams {
  return new URL(location).searchParams;
}

async function signIn(state?: string, creds = { username: 'manager@example.com', password: 'demo' }) {
  return call(sb, 'POST', '/authentication/oauth/authorize/', {
    form: {
      client_id: 'demo-client',
      redirect_uri: REDIRECT,
      response_type: 'code',
      ...(state === undefined ? {} : { state }),
      ...creds,
    },
  });
}

async function exchange(code: string, overrides: Record<string, string> = {}) {
  return call(sb, 'POST', '/core/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      client_id: 'demo-client',
      client_secret: 'demo-secret',
      code,
      redirect_uri: REDIRECT,
      ...overrides,
    },
  });
}

describe('authorization code flow', () => {
  it('shows a real sign-in form that posts back the request', async () => {
    const q = new URLSearchParams({ client_id: 'demo-client', redirect_uri: REDIRECT, response_type: 'code', state: 's<1>' });
    for (const path of ['/authentication/oauth/authorize/', '/authentication/oauth/authorize']) {
      const r = await call(sb, 'GET', `${path}?${q}`);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.text).toMatch(/<form method="post"/);
      expect(r.text).toContain('name="username"');
      expect(r.text).toContain('name="password"');
      expect(r.text).toContain(`name="redirect_uri" value="${REDIRECT}"`);
      expect(r.text).toContain('name="state" value="s&#60;1&#62;"');
      expect(r.text).not.toContain('s<1>');
    }
  });

  it('goes end to end: sign in, 302 with code and state, exchange for access and refresh tokens', async () => {
    const r = await signIn('xyz-42');
    expect(r.status).toBe(302);
    const location = r.headers.location;
    expect(location.startsWith(`${REDIRECT}?`)).toBe(true);
    const q = queryOf(location);
    expect(q.get('state')).toBe('xyz-42');
    const code = q.get('code')!;
    expect(code.length).toBeGreaterThan(20);
    const t = await exchange(code);
    expect(t.status).toBe(200);
    expect(t.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'bearer', expires_in: 3600 });
    const access = (t.body as { access_token: string }).access_token;
    expect((await call(sb, 'GET', listPath, { token: access })).status).toBe(200);
  });

  it('passes state back only when it was given', async () => {
    const r = await signIn(undefined);
    expect(r.status).toBe(302);
    expect(queryOf(r.headers.location).has('state')).toBe(false);
  });

  it('authorize_state "dropped": carries no state back, neither with a code nor with an error', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { authorize_state: 'dropped' } })).status).toBe(200);
    const r = await signIn('xyz-42');
    expect(r.status).toBe(302);
    const q = queryOf(r.headers.location);
    expect(q.has('state')).toBe(false);
    expect((await exchange(q.get('code')!)).status).toBe(200);
    const denied = await call(sb, 'POST', '/authentication/oauth/authorize/', {
      form: { client_id: 'demo-client', redirect_uri: REDIRECT, response_type: 'code', state: 'xyz-42', decision: 'deny' },
    });
    expect(queryOf(denied.headers.location).get('error')).toBe('access_denied');
    expect(queryOf(denied.headers.location).has('state')).toBe(false);
  });

  it('makes codes single-use and revokes the token of a replayed code', async () => {
    const code = queryOf((await signIn('a')).headers.location).get('code')!;
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect((again.body as { error: string }).error).toBe('invalid_grant');
    const access = (first.body as { access_token: string }).access_token;
    expect((await call(sb, 'GET', listPath, { token: access })).status).toBe(401);
  });

  it('expires codes 10 minutes after issue on the sandbox clock', async () => {
    const fresh = queryOf((await signIn('a')).headers.location).get('code')!;
    sb.advance(10 * 60 * 1000 - 1);
    expect((await exchange(fresh)).status).toBe(200);
    const stale = queryOf((await signIn('b')).headers.location).get('code')!;
    sb.advance(10 * 60 * 1000);
    const r = await exchange(stale);
    expect(r.status).toBe(400);
    expect((r.body as { error: string }).error).toBe('invalid_grant');
  });

  it('binds codes to the redirect_uri and the client', async () => {
    const code = queryOf((await signIn('a')).headers.location).get('code')!;
    const wrongUri = await exchange(code, { redirect_uri: 'http://127.0.0.1:53682/other' });
    expect(wrongUri.status).toBe(400);
    expect((wrongUri.body as { error: string }).error).toBe('invalid_grant');
    const otherClient = await exchange(code, { client_id: 'other-client', client_secret: 'other-secret' });
    expect(otherClient.status).toBe(400);
    expect((otherClient.body as { error: string }).error).toBe('invalid_grant');
    expect((await exchange('made-up-code')).status).toBe(400);
    expect((await exchange(code)).status).toBe(200);
  });

  it('requires code and redirect_uri for the authorization_code grant', async () => {
    const noCode = await call(sb, 'POST', '/core/oauth/token', {
      form: { grant_type: 'authorization_code', client_id: 'demo-client', client_secret: 'demo-secret', redirect_uri: REDIRECT },
    });
    expect(noCode.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: code' });
    const noUri = await exchange('x', { redirect_uri: '' });
    expect(noUri.body).toEqual({ error: 'invalid_request', error_description: 'Missing required parameter: redirect_uri' });
  });

  it('shows the form again with 401 and a message after a wrong password, keeping nothing secret', async () => {
    const r = await signIn('a', { username: 'manager@example.com', password: 'hunter2-wrong' });
    expect(r.status).toBe(401);
    expect(r.headers.location).toBeUndefined();
    expect(r.text).toContain('Wrong user name or password');
    expect(r.text).toContain('<form');
    expect(r.text).not.toContain('hunter2-wrong');
    const otherUser = await signIn('a', { username: 'other@example.com', password: 'other' });
    expect(otherUser.status).toBe(401);
  });

  it('never redirects to an unregistered redirect_uri or for an unknown client', async () => {
    const cases: Record<string, string>[] = [
      { client_id: 'demo-client', redirect_uri: 'https://evil.example/steal', response_type: 'code' },
      { client_id: 'demo-client', redirect_uri: 'http://127.0.0.1:9999/other', response_type: 'code' },
      { client_id: 'nobody', redirect_uri: REDIRECT, response_type: 'code' },
      { client_id: 'demo-client', redirect_uri: 'https://evil.example/steal', response_type: 'token' },
      { redirect_uri: REDIRECT, response_type: 'code' },
    ];
    for (const c of cases) {
      const get = await call(sb, 'GET', `/authentication/oauth/authorize/?${new URLSearchParams(c)}`);
      expect(get.status).toBe(400);
      expect(get.headers.location).toBeUndefined();
      expect(get.headers['content-type']).toMatch(/^text\/html/);
      const post = await call(sb, 'POST', '/authentication/oauth/authorize/', {
        form: { ...c, username: 'manager@example.com', password: 'demo' },
      });
      expect(post.status).toBe(400);
      expect(post.headers.location).toBeUndefined();
    }
  });

  it('redirects unsupported_response_type with state when the redirect_uri is good', async () => {
    const q = new URLSearchParams({ client_id: 'demo-client', redirect_uri: REDIRECT, response_type: 'token', state: 'st' });
    const r = await call(sb, 'GET', `/authentication/oauth/authorize/?${q}`);
    expect(r.status).toBe(302);
    const back = queryOf(r.headers.location);
    expect(back.get('error')).toBe('unsupported_response_type');
    expect(back.get('state')).toBe('st');
    expect(back.has('code')).toBe(false);
  });

  it('redirects access_denied when the user denies', async () => {
    const r = await call(sb, 'POST', '/authentication/oauth/authorize/', {
      form: { client_id: 'demo-client', redirect_uri: REDIRECT, response_type: 'code', state: 'q', decision: 'deny' },
    });
    expect(r.status).toBe(302);
    expect(queryOf(r.headers.location).get('error')).toBe('access_denied');
  });
});
