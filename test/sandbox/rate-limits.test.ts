import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRateLimit, parseRateLimitPolicy } from '../../src/main/ratelimit/headers';
import { startSandbox, type Fixtures, type RunningSandbox, type Variants } from '../../src/sandbox/index';
import { call, nativeCampaign, startTestSandbox, testFixtures, tokenFor, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const listOf = (account: string, t = token) => call(sb, 'GET', `/core/api/1.0/${account}/campaigns?fetch_level=R`, { token: t });
const createIn = (account: string, body: unknown = nativeCampaign()) =>
  call(sb, 'POST', `/core/api/1.0/${account}/campaigns/`, { token, json: body });

const TIER4_READ_POLICY = 'second;q=2;w=1, minute;q=15;w=60, hour;q=150;w=3600';

describe('headers of a limited account', () => {
  it('sends the exact policy and state headers on a create (Tier 2 writes)', async () => {
    const r = await createIn('acmeshoes');
    expect(r.status).toBe(200);
    expect(r.headers['ratelimit-policy']).toBe('second;q=10;w=1, minute;q=60;w=60, hour;q=600;w=3600');
    expect(r.headers.ratelimit).toBe('second;r=9;t=1, minute;r=59;t=60, hour;r=599;t=3600');
    expect(r.headers['retry-after']).toBeUndefined();
  });

  it('counts down r per window on lists (Tier 4 reads)', async () => {
    const a = await listOf('acmeshoes');
    expect(a.headers['ratelimit-policy']).toBe(TIER4_READ_POLICY);
    expect(a.headers.ratelimit).toBe('second;r=1;t=1, minute;r=14;t=60, hour;r=149;t=3600');
    const b = await listOf('acmeshoes');
    expect(b.headers.ratelimit).toBe('second;r=0;t=1, minute;r=13;t=60, hour;r=148;t=3600');
  });

  it('reports t as the whole seconds until each window is full again', async () => {
    await listOf('acmeshoes');
    sb.advance(400);
    const r = await listOf('acmeshoes');
    // The newest entry is this one, so every window needs its full length to refill.
    expect(r.headers.ratelimit).toBe('second;r=0;t=1, minute;r=13;t=60, hour;r=148;t=3600');
    sb.advance(700); // the first entry left the second window; the second is 700 ms old
    const c = await listOf('acmeshoes');
    expect(c.headers.ratelimit).toBe('second;r=0;t=1, minute;r=12;t=60, hour;r=147;t=3600');
  });

  it('also sends the headers on a 400 after the rate-limit stage, and counts that request', async () => {
    const bad = await createIn('acmeshoes', nativeCampaign({ name: '' }));
    expect(bad.status).toBe(400);
    expect(bad.headers.ratelimit).toBe('second;r=9;t=1, minute;r=59;t=60, hour;r=599;t=3600');
    const next = await createIn('acmeshoes');
    expect(next.headers.ratelimit).toBe('second;r=8;t=1, minute;r=58;t=60, hour;r=598;t=3600');
  });

  it('sends no headers with 401 or 403 and does not count those requests', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await listOf('acmeshoes', 'bogus-token');
      expect(r.status).toBe(401);
      expect(r.headers.ratelimit).toBeUndefined();
    }
    const other = await tokenFor(sb, 'other-client', 'other-secret');
    const forbidden = await listOf('acmeshoes', other);
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['ratelimit-policy']).toBeUndefined();
    expect((await listOf('acmeshoes')).headers.ratelimit).toBe('second;r=1;t=1, minute;r=14;t=60, hour;r=149;t=3600');
  });
});

describe('429', () => {
  it('rejects the request that does not fit, with Retry-After, the headers and violated_policies', async () => {
    await listOf('acmeshoes');
    await listOf('acmeshoes');
    const r = await listOf('acmeshoes');
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ http_status: 429, message: 'Rate limit exceeded', violated_policies: ['second'] });
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['ratelimit-policy']).toBe(TIER4_READ_POLICY);
    expect(r.headers.ratelimit).toBe('second;r=0;t=1, minute;r=13;t=60, hour;r=148;t=3600');
  });

  it('does not count rejected requests, and admits again once the window slid (ms precision)', async () => {
    await listOf('acmeshoes');
    await listOf('acmeshoes');
    for (let i = 0; i < 5; i++) expect((await listOf('acmeshoes')).status).toBe(429);
    sb.advance(999);
    const still = await listOf('acmeshoes');
    expect(still.status).toBe(429);
    expect(still.headers['retry-after']).toBe('1');
    sb.advance(1);
    const again = await listOf('acmeshoes');
    expect(again.status).toBe(200);
    expect(again.headers.ratelimit).toBe('second;r=1;t=1, minute;r=12;t=60, hour;r=147;t=3600');
  });

  it('computes Retry-After from the window that was exhausted (minute)', async () => {
    for (let i = 0; i < 15; i++) {
      expect((await listOf('acmeshoes')).status).toBe(200);
      sb.advance(1000);
    }
    const r = await listOf('acmeshoes'); // at 15 s: the first entry leaves the minute window at 60 s
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ violated_policies: ['minute'] });
    expect(r.headers['retry-after']).toBe('45');
    expect(r.headers.ratelimit).toBe('second;r=2;t=0, minute;r=0;t=59, hour;r=135;t=3599');
    sb.advance(44_999);
    expect((await listOf('acmeshoes')).status).toBe(429);
    sb.advance(1);
    expect((await listOf('acmeshoes')).status).toBe(200);
  });

  it('refuses with 429 before validating: nothing is created', async () => {
    for (let i = 0; i < 10; i++) expect((await createIn('acmeshoes')).status).toBe(200);
    const r = await createIn('acmeshoes', { nonsense: true });
    expect(r.status).toBe(429);
    const state = await call(sb, 'GET', '/_sandbox/state/campaigns?account=acmeshoes');
    expect((state.body as { campaigns: { status: string }[] }).campaigns.filter((c) => c.status === 'PENDING_APPROVAL')).toHaveLength(11);
  });

  it('keeps groups, budgets and accounts apart', async () => {
    await listOf('acmeshoes');
    await listOf('acmeshoes');
    expect((await listOf('acmeshoes')).status).toBe(429);
    expect((await createIn('acmeshoes')).status).toBe(200);
    expect((await listOf('edgecase')).status).toBe(200);
    const options = await call(sb, 'OPTIONS', '/core/api/1.0/acmeshoes/campaigns', { token });
    expect(options.status).toBe(429);
  });

  it('logs limited requests with group, budget and outcome', async () => {
    await listOf('acmeshoes');
    await listOf('acmeshoes');
    await listOf('acmeshoes');
    const log = (await call(sb, 'GET', '/_sandbox/requests')).body as { requests: Record<string, unknown>[] };
    const lists = log.requests.filter((e) => e.path === '/core/api/1.0/acmeshoes/campaigns');
    expect(lists.map((e) => [e.group, e.budget, e.limited, e.status, e.outcome])).toEqual([
      ['campaigns.list', 'read', true, 200, 'ok'],
      ['campaigns.list', 'read', true, 200, 'ok'],
      ['campaigns.list', 'read', true, 429, 'rate_limited'],
    ]);
  });
});

describe('which accounts are limited', () => {
  it('does not limit an account created on or before 2026-10-04, and sends it no headers', async () => {
    for (let i = 0; i < 30; i++) {
      const r = await listOf('oldtimerltd');
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit-policy']).toBeUndefined();
      expect(r.headers.ratelimit).toBeUndefined();
    }
  });

  it('limits an account created at 2026-10-05T00:00:00Z', async () => {
    expect((await listOf('edgecase')).headers['ratelimit-policy']).toBe(TIER4_READ_POLICY);
  });

  it('does not limit a network, or its new member, when one member is old', async () => {
    for (const account of ['southnet', 'southnew', 'southold']) {
      const r = await listOf(account);
      expect(r.status).toBe(200);
      expect(r.headers.ratelimit).toBeUndefined();
    }
  });

  it('limits a network and its members when all of them are new', async () => {
    for (const account of ['northnet', 'northbikes', 'northboats']) {
      expect((await listOf(account)).headers['ratelimit-policy']).toBe(TIER4_READ_POLICY);
    }
  });
});

describe('tiers and windows from fixtures', () => {
  let custom: RunningSandbox | undefined;
  afterEach(async () => {
    await custom?.close();
    custom = undefined;
  });

  async function startWith(rate_limits: Fixtures['rate_limits']) {
    const f = testFixtures();
    f.rate_limits = rate_limits;
    custom = await startTestSandbox(f);
    return { s: custom, t: await tokenFor(custom) };
  }

  it('uses endpoint_tiers and lists every exhausted window in violated_policies', async () => {
    const { s, t } = await startWith({ endpoint_tiers: { 'campaigns.list': 6 } });
    const path = '/core/api/1.0/acmeshoes/campaigns?fetch_level=R';
    expect((await call(s, 'GET', path, { token: t })).headers['ratelimit-policy']).toBe(
      'second;q=1;w=1, minute;q=1;w=60, hour;q=10;w=3600',
    );
    const r = await call(s, 'GET', path, { token: t });
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ http_status: 429, message: 'Rate limit exceeded', violated_policies: ['second', 'minute'] });
    expect(r.headers['retry-after']).toBe('60');
  });

  it('uses tier quotas and window lengths from the fixtures', async () => {
    const { s, t } = await startWith({
      windows: { second: 2, minute: 30, hour: 600 },
      tiers: { '4': { read: [3, 5, 7], write: [1, 1, 1] } },
    });
    const path = '/core/api/1.0/acmeshoes/campaigns?fetch_level=R';
    for (let i = 0; i < 3; i++) {
      const ok = await call(s, 'GET', path, { token: t });
      expect(ok.headers['ratelimit-policy']).toBe('second;q=3;w=2, minute;q=5;w=30, hour;q=7;w=600');
    }
    const r = await call(s, 'GET', path, { token: t });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('2');
    s.advance(1999);
    expect((await call(s, 'GET', path, { token: t })).status).toBe(429);
    s.advance(1);
    const again = await call(s, 'GET', path, { token: t });
    expect(again.status).toBe(200);
    expect(again.headers.ratelimit).toBe('second;r=2;t=2, minute;r=1;t=30, hour;r=3;t=600');
  });
});

describe('service variants of the rate limits (over HTTP)', () => {
  let custom: RunningSandbox | undefined;
  afterEach(async () => {
    await custom?.close();
    custom = undefined;
  });

  async function startWith(variants: Variants) {
    custom = await startSandbox({ clock: 'manual', fixtures: testFixtures(), variants });
    const t = await tokenFor(custom);
    const s = custom;
    return { s, list: () => call(s, 'GET', '/core/api/1.0/acmeshoes/campaigns?fetch_level=R', { token: t }) };
  }

  it('rate_headers_dropped: admitted answers go without the headers (all at 1, some at 0.5), 429s never; every request counts', async () => {
    const { list } = await startWith({ rate_headers_dropped: 1 });
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-policy']).toBeUndefined();
    expect(first.headers.ratelimit).toBeUndefined();
    expect((await list()).status).toBe(200);
    const refused = await list();
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit-policy']).toBe(TIER4_READ_POLICY);
    expect(refused.headers.ratelimit).toBe('second;r=0;t=1, minute;r=13;t=60, hour;r=148;t=3600');
    expect(refused.headers['retry-after']).toBe('1');
    await custom?.close();

    const some = await startWith({ rate_headers_dropped: 0.5, seed: 3 });
    const carried: boolean[] = [];
    for (let i = 0; i < 12; i++) {
      some.s.advance(1000);
      const r = await some.list();
      expect(r.status).toBe(200);
      carried.push(r.headers.ratelimit !== undefined);
    }
    expect(carried).toContain(true);
    expect(carried).toContain(false);
  });

  it('token_bucket: r and t follow buckets that refill at q/w per second', async () => {
    const { s, list } = await startWith({ windows: 'token_bucket' });
    expect((await list()).headers.ratelimit).toBe('second;r=1;t=1, minute;r=14;t=4, hour;r=149;t=24');
    expect((await list()).headers.ratelimit).toBe('second;r=0;t=1, minute;r=13;t=8, hour;r=148;t=48');
    const refused = await list();
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    // Tier 4 reads: the second's bucket gets a token back every 500 ms (a sliding log: after 1 s).
    s.advance(499);
    expect((await list()).status).toBe(429);
    s.advance(1);
    const again = await list();
    expect(again.status).toBe(200);
    expect(again.headers.ratelimit).toBe('second;r=0;t=1, minute;r=12;t=12, hour;r=147;t=72');
  });

  it('multiple_fields: one ratelimit-policy and one ratelimit field line per window', async () => {
    custom = await startSandbox({ clock: 'manual', fixtures: testFixtures(), variants: { header_spelling: 'multiple_fields' } });
    const t = await tokenFor(custom);
    const res = await request(`${custom.url}/core/api/1.0/acmeshoes/campaigns?fetch_level=R`, {
      headers: { authorization: `Bearer ${t}` },
    });
    await res.body.text();
    expect(res.headers['ratelimit-policy']).toEqual(TIER4_READ_POLICY.split(', '));
    expect(res.headers.ratelimit).toEqual(['second;r=1;t=1', 'minute;r=14;t=60', 'hour;r=149;t=3600']);
  });

  it('retry_after_date with the service clock ahead: Retry-After is a date on the clock of the Date header', async () => {
    const offset = 10 * 60_000;
    const { s, list } = await startWith({ retry_after_date: true, clock_offset_ms: offset });
    s.advance(300); // 09:00:00.300 on the sandbox clock, 09:10:00.300 on the service's
    await list();
    await list();
    const refused = await list();
    expect(refused.status).toBe(429);
    expect(refused.headers.date).toBe('Sat, 21 Nov 2026 09:10:00 GMT');
    expect(refused.headers['retry-after']).toBe('Sat, 21 Nov 2026 09:10:02 GMT');
    s.advance(999);
    expect((await list()).status).toBe(429);
    s.advance(1); // 09:10:01.300: the first request left the second's window
    expect((await list()).status).toBe(200);
  });

  it('quoted and reordered spellings carry the same policy and state', async () => {
    for (const header_spelling of ['quoted', 'reordered'] as const) {
      const { list } = await startWith({ header_spelling });
      const r = await list();
      expect(
        parseRateLimitPolicy(r.headers['ratelimit-policy'])
          .map((p) => [p.name, p.quota, p.windowS])
          .sort(),
      ).toEqual([
        ['hour', 150, 3600],
        ['minute', 15, 60],
        ['second', 2, 1],
      ]);
      expect(
        parseRateLimit(r.headers.ratelimit)
          .map((e) => [e.name, e.remaining, e.resetS])
          .sort(),
      ).toEqual([
        ['hour', 149, 3600],
        ['minute', 14, 60],
        ['second', 1, 1],
      ]);
      await custom?.close();
      custom = undefined;
    }
  });
});
