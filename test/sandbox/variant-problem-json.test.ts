// The problem_json variant: every error of the campaign and push APIs is RFC 9457 problem details,
// while the token endpoint keeps RFC 6749's body and the control API its own.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, pushEvent, sandboxPerFile, testFixtures, type HttpResult } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => ({ ...testFixtures(), variants: { problem_json: true } }),
);

/** A problem+json answer with exactly the four members (plus any extension members given). */
function expectProblem(r: HttpResult, status: number, detail: string, extensions: Record<string, unknown> = {}): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  expect(r.body).toEqual({ type: 'about:blank', title: expect.any(String), status, detail, ...extensions });
  const body = r.body as Record<string, unknown>;
  for (const legacy of ['message', 'http_status', 'httpStatus']) expect(body).not.toHaveProperty(legacy);
}

describe('problem_json: campaign API errors', () => {
  it('401, 403 and 400 carry type, title (the status phrase), status and detail', async () => {
    const unauth = await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns');
    expectProblem(unauth, 401, 'Invalid or expired access token');
    expect((unauth.body as { title: string }).title).toBe('Unauthorized');
    expect(unauth.headers['www-authenticate']).toBe('Bearer realm="sandbox"');
    expectProblem(await call(sb, 'GET', '/core/api/1.0/strangers/campaigns', { token }), 403, 'Not authorized for account strangers');
    const bad = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ cpc: -1 }) });
    expectProblem(bad, 400, 'cpc must be greater than 0');
    expect((bad.body as { title: string }).title).toBe('Bad Request');
  });

  it('a 429 keeps violated_policies as an extension member, with its rate-limit headers', async () => {
    // campaigns.list is Tier 4 reads: 2 per second.
    for (let i = 0; i < 2; i++) expect((await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns', { token })).status).toBe(200);
    const limited = await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns', { token });
    expectProblem(limited, 429, 'Rate limit exceeded', { violated_policies: ['second'] });
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.headers.ratelimit).toBeDefined();
  });

  it('unknown paths, wrong methods and injected 500s of the campaign API are problems too', async () => {
    expectProblem(await call(sb, 'GET', '/core/api/1.0/acmeshoes/nothing-here', { token }), 404, 'Not found');
    const wrongMethod = await call(sb, 'DELETE', '/core/api/1.0/acmeshoes/campaigns', { token });
    expectProblem(wrongMethod, 405, 'Method DELETE is not allowed here');
    expect(wrongMethod.headers.allow).toContain('GET');
    await call(sb, 'POST', '/_sandbox/faults', { json: { path_prefix: '/core/api', mode: 'status_500' } });
    expectProblem(await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns', { token }), 500, 'Internal server error');
  });
});

describe('problem_json: push API errors', () => {
  it('400, 403, 404 and 401 of the push API', async () => {
    const noTitle = await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent({ title: '' })] } });
    expectProblem(noTitle, 400, 'title cannot be empty');
    const notGranted = await call(sb, 'POST', '/epsilon/push', {
      token,
      json: { pushEvents: [pushEvent({ target: { include: { apps: ['1003'] } } })] },
    });
    expectProblem(notGranted, 403, 'Not authorized to send notifications for specified application');
    expectProblem(await call(sb, 'DELETE', '/epsilon/task/123456', { token }), 404, 'Task not found');
    expectProblem(await call(sb, 'GET', '/epsilon/task?tagId=1001'), 401, 'Invalid or expired access token');
  });
});

describe('problem_json leaves what is not the service API alone', () => {
  it('the token endpoint keeps RFC 6749 bodies', async () => {
    const r = await call(sb, 'POST', '/authentication/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'wrong' },
    });
    expect(r.status).toBe(401);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({ error: 'invalid_client' });
  });

  it('the control API keeps {"error": ...}', async () => {
    const r = await call(sb, 'POST', '/_sandbox/faults', { json: { mode: 'explode' } });
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body).toEqual({ error: expect.any(String) });
  });

  it('success answers are unchanged', async () => {
    const r = await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent()] } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.text).toBe('"1 notification accepted"');
  });
});

describe('problem_json is off by default', () => {
  it('PUT /_sandbox/variants {} brings back the API bodies of DECISIONS sandbox 5', async () => {
    await call(sb, 'PUT', '/_sandbox/variants', { json: {} });
    try {
      const r = await call(sb, 'GET', '/core/api/1.0/strangers/campaigns', { token });
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.body).toEqual({ http_status: 403, message: 'Not authorized for account strangers' });
      const p = await call(sb, 'DELETE', '/epsilon/task/123456', { token });
      expect(p.body).toEqual({ httpStatus: 404, message: 'Task not found' });
    } finally {
      await call(sb, 'POST', '/_sandbox/reset');
    }
  });
});
