import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, startTestSandbox, T0, testFixtures, tokenFor } from '../helpers/sandbox';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(async () => {
  await call(sb, 'POST', '/_sandbox/reset');
});

describe('clock', () => {
  it('starts a manual clock at fixtures.now and reports it', async () => {
    expect(sb.now()).toBe(T0);
    expect((await call(sb, 'GET', '/_sandbox/clock')).body).toEqual({
      now: T0,
      iso: '2026-11-21T09:00:00.000Z',
      mode: 'manual',
      // No clock_offset_ms: the service's clock is the sandbox clock.
      service_now: T0,
      service_iso: '2026-11-21T09:00:00.000Z',
    });
  });

  it('advances and sets the manual clock through the control API and advance()', async () => {
    expect((await call(sb, 'POST', '/_sandbox/clock', { json: { advance_ms: 1500 } })).body).toEqual({ now: T0 + 1500 });
    sb.advance(500);
    expect(sb.now()).toBe(T0 + 2000);
    const set = await call(sb, 'POST', '/_sandbox/clock', { json: { set: '2026-12-01T00:00:00Z' } });
    expect(set.body).toEqual({ now: Date.parse('2026-12-01T00:00:00Z') });
  });

  it.each([
    [{ set: '2026-01-01T00:00:00Z' }],
    [{ advance_ms: -1 }],
    [{ advance_ms: 1, set: '2027-01-01T00:00:00Z' }],
    [{ set: 'soon' }],
    [{}],
  ])('refuses %j with 400 and leaves the clock alone', async (body) => {
    const r = await call(sb, 'POST', '/_sandbox/clock', { json: body });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String) });
    expect(sb.now()).toBe(T0);
  });

  it('refuses to move a real clock: 409 from the API, a throw from advance()', async () => {
    const real = await startSandbox({ fixtures: testFixtures() });
    try {
      const r = await call(real, 'POST', '/_sandbox/clock', { json: { advance_ms: 1000 } });
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ error: 'clock is real' });
      expect(() => real.advance(1000)).toThrow('clock is real');
      const state = (await call(real, 'GET', '/_sandbox/clock')).body as { now: number; mode: string };
      expect(state.mode).toBe('real');
      expect(Math.abs(state.now - Date.now())).toBeLessThan(5000);
    } finally {
      await real.close();
    }
  });
});

describe('reset', () => {
  it('restores fixtures state, clock, tokens, rate windows and faults', async () => {
    const token = await tokenFor(sb);
    await call(sb, 'POST', '/core/api/1.0/acmeshoes/campaigns/', { token, json: nativeCampaign() });
    await call(sb, 'POST', '/_sandbox/faults', { json: { mode: 'status_500', path_prefix: '/epsilon' } });
    sb.advance(10_000);
    expect((await call(sb, 'POST', '/_sandbox/reset')).body).toEqual({ ok: true });
    expect(sb.now()).toBe(T0);
    expect((await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns', { token })).status).toBe(401);
    const fresh = await tokenFor(sb);
    const again = await call(sb, 'POST', '/core/api/1.0/acmeshoes/campaigns/', { token: fresh, json: nativeCampaign() });
    expect((again.body as { id: number }).id).toBe(4100013);
    expect(again.headers.ratelimit).toBe('second;r=9;t=1, minute;r=59;t=60, hour;r=599;t=3600');
    expect((await call(sb, 'GET', '/_sandbox/faults')).body).toEqual({ faults: [] });
  });

  it('re-reads a fixtures file, and keeps the world when the file went bad', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-reset-'));
    const file = join(dir, 'fixtures.json');
    const f = testFixtures();
    writeFileSync(file, JSON.stringify(f));
    const s = await startSandbox({ fixturesPath: file, clock: 'manual' });
    try {
      f.apps!.push({ app_id: '1004', publisher: 'Added Later' });
      writeFileSync(file, JSON.stringify(f));
      expect((await call(s, 'POST', '/_sandbox/reset')).status).toBe(200);
      const apps = (await call(s, 'GET', '/_sandbox/apps')).body as { apps: { app_id: string }[] };
      expect(apps.apps.map((a) => a.app_id)).toContain('1004');
      writeFileSync(file, '{"accounts": []}');
      const bad = await call(s, 'POST', '/_sandbox/reset');
      expect(bad.status).toBe(400);
      expect((bad.body as { error: string }).error).toContain(file);
      expect(((await call(s, 'GET', '/_sandbox/apps')).body as { apps: unknown[] }).apps).toHaveLength(4);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('request log', () => {
  it('records API requests (not control or CDN ones) with increasing seq and sandbox time', async () => {
    const token = await tokenFor(sb);
    sb.advance(42);
    await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=R&sort=name,asc', { token });
    await call(sb, 'GET', '/_cdn/?src=x&w=480');
    await call(sb, 'GET', '/epsilon/nope', { token });
    const log = (await call(sb, 'GET', '/_sandbox/requests')).body as { requests: Record<string, unknown>[] };
    expect(log.requests.map((e) => [e.method, e.path, e.status, e.outcome])).toEqual([
      ['POST', '/authentication/oauth/token', 200, 'ok'],
      ['GET', '/core/api/1.0/oldtimerltd/campaigns', 200, 'ok'],
      ['GET', '/epsilon/nope', 404, 'client_error'],
    ]);
    const [tokenReq, list] = log.requests;
    expect(list).toEqual({
      seq: (tokenReq.seq as number) + 1,
      time: T0 + 42,
      method: 'GET',
      path: '/core/api/1.0/oldtimerltd/campaigns',
      sort: 'name,asc',
      account: 'oldtimerltd',
      group: 'campaigns.list',
      budget: 'read',
      limited: false,
      status: 200,
      outcome: 'ok',
    });
    const since = (await call(sb, 'GET', `/_sandbox/requests?since=${list.seq as number}`)).body as { requests: { path: string }[] };
    expect(since.requests.map((e) => e.path)).toEqual(['/epsilon/nope']);
    expect((await call(sb, 'GET', '/_sandbox/requests?since=x')).status).toBe(400);
  });

  it('never records secrets or tokens', async () => {
    const token = await tokenFor(sb);
    await call(sb, 'GET', `/core/api/1.0/oldtimerltd/campaigns?fetch_level=R`, { token });
    const text = (await call(sb, 'GET', '/_sandbox/requests')).text;
    expect(text).not.toContain(token);
    expect(text).not.toContain('demo-secret');
  });
});

describe('control API guard', () => {
  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    const r = await call(sb, 'POST', '/_sandbox/reset', { headers: { host: `rebind.example:${sb.port}` } });
    expect(r.status).toBe(403);
    expect((await call(sb, 'GET', '/_sandbox/clock', { headers: { host: `localhost:${sb.port}` } })).status).toBe(200);
  });

  /** The sandbox as a web page on another origin sees it: its address only, not the run's secret. */
  const page = () => ({ url: sb.url });
  const faultsNow = async () => ((await call(sb, 'GET', '/_sandbox/faults')).body as { faults: unknown[] }).faults;

  it("refuses a control request without the run's secret, saying what it needs, and changes nothing", async () => {
    const r = await call(page(), 'POST', '/_sandbox/faults', { json: { mode: 'status_500' } });
    expect(r.status).toBe(403);
    expect((r.body as { error: string }).error).toMatch(/x-sandbox-control header with this run's secret/);
    expect(await faultsNow()).toEqual([]);
    for (const [method, path] of [
      ['GET', '/_sandbox/requests'],
      ['GET', '/_sandbox/state/campaigns'],
      ['POST', '/_sandbox/reset'],
      ['GET', '/_sandbox/clock'],
    ]) {
      expect((await call(page(), method, path)).status).toBe(403);
    }
  });

  it('refuses a wrong secret, one of another length, and an empty one', async () => {
    for (const guess of [sb.controlSecret.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), `${sb.controlSecret}x`, '']) {
      const r = await call(page(), 'POST', '/_sandbox/clock', { json: { advance_ms: 60_000 }, headers: { 'x-sandbox-control': guess } });
      expect(r.status).toBe(403);
    }
    expect(sb.now()).toBe(T0);
  });

  it('gives a cross-origin page nothing to work with: its plain POST is refused, no answer lets it read or send the secret', async () => {
    // What a page may send without asking first (a "simple" request): no custom header, so no secret.
    const simple = await call(page(), 'POST', '/_sandbox/faults', {
      body: JSON.stringify({ mode: 'status_500' }),
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
    });
    expect(simple.status).toBe(403);
    expect(await faultsNow()).toEqual([]);
    // Sending the header needs a CORS preflight, which the sandbox never allows.
    const preflight = await call(page(), 'OPTIONS', '/_sandbox/faults', {
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-sandbox-control',
      },
    });
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-allow'))).toEqual([]);
    // And the secret is in no answer, control or API.
    const answers = [
      preflight,
      simple,
      await call(sb, 'GET', '/_sandbox/clock'),
      await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns'),
    ];
    for (const a of answers) expect(JSON.stringify(a.headers) + a.text).not.toContain(sb.controlSecret);
  });

  it('takes the secret its starter chose', async () => {
    const chosen = 'a-secret-the-test-chose-0123456789';
    const other = await startSandbox({ fixtures: testFixtures(), controlSecret: chosen });
    try {
      expect(other.controlSecret).toBe(chosen);
      expect((await call({ url: other.url, controlSecret: chosen }, 'GET', '/_sandbox/clock')).status).toBe(200);
      expect((await call({ url: other.url, controlSecret: sb.controlSecret }, 'GET', '/_sandbox/clock')).status).toBe(403);
    } finally {
      await other.close();
    }
    await expect(startSandbox({ controlSecret: 'short' })).rejects.toThrow(/at least 16 characters/);
  });
});

describe('state views', () => {
  it('shows every campaign of an account, TERMINATED included', async () => {
    const r = await call(sb, 'GET', '/_sandbox/state/campaigns?account=acmeshoes');
    const statuses = (r.body as { campaigns: { status: string }[] }).campaigns.map((c) => c.status);
    expect(statuses).toContain('TERMINATED');
    expect(statuses).toHaveLength(7);
    expect((await call(sb, 'GET', '/_sandbox/state/campaigns?account=nobody')).status).toBe(404);
  });

  it('with fetch_level, shows exactly what a listing at that level shows now', async () => {
    const ids = (body: unknown, key: string) => (body as Record<string, { id: number | string }[]>)[key].map((c) => String(c.id));
    const token = await tokenFor(sb);
    for (const level of ['R', 'RAP']) {
      const state = await call(sb, 'GET', `/_sandbox/state/campaigns?account=acmeshoes&fetch_level=${level}`);
      const listed = await call(sb, 'GET', `/core/api/1.0/acmeshoes/campaigns?fetch_level=${level}`, { token });
      expect(ids(state.body, 'campaigns')).toEqual(ids(listed.body, 'results'));
    }
    // PAUSED and old-but-not-APPROVED are left out as the listing leaves them out; TERMINATED never shows.
    const rap = await call(sb, 'GET', '/_sandbox/state/campaigns?account=acmeshoes&fetch_level=RAP');
    expect(ids(rap.body, 'campaigns')).toEqual(['4100001', '4100004', '4100006', '4100008']);
    expect((await call(sb, 'GET', '/_sandbox/state/campaigns?fetch_level=ALL')).status).toBe(400);
  });

  it('shows apps with their service worker paths', async () => {
    expect(((await call(sb, 'GET', '/_sandbox/apps')).body as { apps: unknown[] }).apps[0]).toEqual({
      app_id: '1001',
      publisher: 'Acme Daily News',
      domain: 'https://news.example.com',
      sw_path: '/sw.js',
    });
  });
});

describe('variants', () => {
  it('PUT plays exactly the variants given until a reset brings back those of the fixtures and of startSandbox', async () => {
    const s = await startSandbox({
      clock: 'manual',
      fixtures: { ...testFixtures(), variants: { task_list_wrapper: 'data', page_size_cap: 5 } },
      variants: { page_size_cap: 7, problem_json: true },
    });
    try {
      const atStart = { task_list_wrapper: 'data', page_size_cap: 7, problem_json: true };
      expect((await call(s, 'GET', '/_sandbox/variants')).body).toEqual({ variants: atStart });
      const put = await call(s, 'PUT', '/_sandbox/variants', { json: { decimal_point: true } });
      expect(put.body).toEqual({ variants: { decimal_point: true } });
      const token = await tokenFor(s);
      // problem_json is no longer played: errors are in the default shape again.
      expect((await call(s, 'GET', '/core/api/1.0/strangers/campaigns', { token })).body).toEqual({
        http_status: 403,
        message: 'Not authorized for account strangers',
      });
      await call(s, 'POST', '/_sandbox/reset');
      expect((await call(s, 'GET', '/_sandbox/variants')).body).toEqual({ variants: atStart });
    } finally {
      await s.close();
    }
  });

  it.each([
    [{ nonsense: true }, 'Unrecognized key'],
    [{ page_size_cap: 0 }, 'page_size_cap'],
    [{ date_offset: '05:30' }, 'must be an offset such as +05:30 or -08:00'],
    [{ task_list_wrapper: 'a.b.c' }, 'task_list_wrapper'],
    [{ clock_offset_ms: 1e13 }, 'clock_offset_ms'],
  ])('PUT refuses %j with 400 and keeps what was played', async (body, message) => {
    await call(sb, 'PUT', '/_sandbox/variants', { json: { problem_json: true } });
    const r = await call(sb, 'PUT', '/_sandbox/variants', { json: body });
    expect(r.status).toBe(400);
    expect((r.body as { error: string }).error).toContain(message);
    expect((await call(sb, 'GET', '/_sandbox/variants')).body).toEqual({ variants: { problem_json: true } });
  });

  it('fixtures with a bad variant fail to load, naming it', async () => {
    await expect(startSandbox({ fixtures: { ...testFixtures(), variants: { late_apply_ms: -1 } } })).rejects.toThrow(
      /variants\.late_apply_ms/,
    );
  });
});
