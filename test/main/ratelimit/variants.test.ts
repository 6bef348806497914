// The app's scheduler, inside the real service client, against sandboxes that make each legal
// choice the interface leaves open about rate limits: windows that refill as sliding logs or as
// token buckets, the headers in other spellings, Retry-After as an HTTP-date from a service whose
// clock is minutes away from ours. Real HTTP on 127.0.0.1, one virtual clock for client and
// sandbox (virtual-time.ts), the documented tiers (create Tier 2 writes, list Tier 4 reads).
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { MIXED_VARIANTS, startSandbox, type RunningSandbox, type Variants } from '../../../src/sandbox/index';
import { SPEC_TIERS } from '../../../src/shared/domain/rate-tiers';
import { call, type LoggedRequest, requestLog } from '../../helpers/sandbox';
import { clientFor, closedAfterTest } from '../../helpers/service-client';
import { SECRET, testFixtures } from '../../helpers/fixtures';
import { greedyAdmissions, greedyBucketAdmissions, type SandboxWindows } from './sim';
import { VirtualTime } from './virtual-time';

const CREATES = 70;
const PAGES = 20;
const WINDOW_SECONDS = [1, 60, 3600] as const;
const CREATE_QUOTAS = SPEC_TIERS['2'].write;
const LIST_QUOTAS = SPEC_TIERS['4'].read;

async function start(variants: Variants): Promise<{ s: RunningSandbox; c: ServiceClient; time: VirtualTime }> {
  const sb = closedAfterTest(
    await startSandbox({ clock: 'manual', fixtures: testFixtures({ secret: SECRET, limitedAccounts: true }), variants }),
  );
  const time = new VirtualTime(sb);
  const client = closedAfterTest(clientFor(sb, { clock: time, transport: time.transport }));
  await time.run(client.authenticate());
  return { s: sb, c: client, time };
}

const draft = (i: number) => ({
  name: `Drained ${i}`,
  branding_text: 'Limited One',
  cpc: 0.2,
  spending_limit: 900,
  spending_limit_model: 'MONTHLY',
  bid_strategy: 'FIXED',
  marketing_objective: 'LEADS_GENERATION',
});

/** The least time the quotas allow for `n` requests queued at once, under the service's refill rule. */
function minimumMs(n: number, quotas: readonly [number, number, number], refill: Variants['windows']): number {
  const arrivals = Array.from({ length: n }, () => 0);
  if (refill === 'token_bucket') {
    const windows: SandboxWindows = { seconds: WINDOW_SECONDS, quotas };
    return greedyBucketAdmissions(arrivals, windows).at(-1) ?? 0;
  }
  const windows = WINDOW_SECONDS.map((s, i) => ({ name: String(s), quota: quotas[i], windowMs: s * 1000 }));
  return greedyAdmissions(arrivals, windows).at(-1) ?? 0;
}

/** From the first request of the group to its last admitted one, on the service's clock. */
function drainedInMs(log: LoggedRequest[], group: string): number {
  const times = log.filter((r) => r.account === 'limitedone' && r.group === group).map((r) => r.time);
  const admitted = log.filter((r) => r.account === 'limitedone' && r.group === group && r.outcome === 'ok').map((r) => r.time);
  return Math.max(...admitted) - Math.min(...times);
}

const SERVICES: { name: string; variants: Variants; refill: 'sliding_log' | 'token_bucket' }[] = [
  { name: 'sliding logs (the default)', variants: {}, refill: 'sliding_log' },
  { name: 'token buckets', variants: { windows: 'token_bucket' }, refill: 'token_bucket' },
  { name: 'names as sf-strings', variants: { header_spelling: 'quoted' }, refill: 'sliding_log' },
  { name: 'entries and parameters reordered, an unknown parameter', variants: { header_spelling: 'reordered' }, refill: 'sliding_log' },
  { name: 'one field line per window', variants: { header_spelling: 'multiple_fields' }, refill: 'sliding_log' },
  {
    name: 'token buckets, one field line per window',
    variants: { windows: 'token_bucket', header_spelling: 'multiple_fields' },
    refill: 'token_bucket',
  },
  { name: 'the mixed variants', variants: MIXED_VARIANTS, refill: MIXED_VARIANTS.windows ?? 'sliding_log' },
];

describe.each(SERVICES)('draining creates and list pages against $name', ({ variants, refill }) => {
  it('is never refused and takes at most 1.05 x the least time the quotas allow', async () => {
    const { s, c, time } = await start(variants);
    const work = Promise.all([
      ...Array.from({ length: CREATES }, (_, i) => c.createCampaign('limitedone', draft(i), { priority: 'outbox' })),
      ...Array.from({ length: PAGES }, (_, i) =>
        c.listCampaigns('limitedone', { fetchLevel: 'RAP', page: i + 1, pageSize: 1 }, { priority: 'background' }),
      ),
    ]);
    await time.run(work);

    const log = (await requestLog(s)).filter((r) => r.account === 'limitedone');
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    expect(log.filter((r) => r.outcome === 'ok')).toHaveLength(CREATES + PAGES);
    const creates = { took: drainedInMs(log, 'campaigns'), least: minimumMs(CREATES, CREATE_QUOTAS, refill) };
    const pages = { took: drainedInMs(log, 'campaigns.list'), least: minimumMs(PAGES, LIST_QUOTAS, refill) };
    for (const d of [creates, pages]) {
      expect(d.took).toBeGreaterThanOrEqual(d.least);
      expect(d.took).toBeLessThanOrEqual(d.least * 1.05);
    }

    // The scheduler says how it believes the windows refill.
    const budget = c.snapshot().budgets.find((b) => b.account === 'limitedone' && b.group === 'campaigns');
    expect(budget?.windows.map((w) => [w.name, w.quota, w.windowMs, w.refill]).sort((x, y) => Number(x[2]) - Number(y[2]))).toEqual([
      ['second', 10, 1000, refill],
      ['minute', 60, 60_000, refill],
      ['hour', 600, 3_600_000, refill],
    ]);
  });
});

describe.each([
  { name: 'sliding logs', variants: { push_tier: 3 } as Variants, refill: 'sliding_log' as const },
  {
    name: 'token buckets, Retry-After as a date',
    variants: { push_tier: 3, windows: 'token_bucket', retry_after_date: true } as Variants,
    refill: 'token_bucket' as const,
  },
])('pushes to a push API that turns out to be limited ($name)', ({ variants, refill }) => {
  // The interface shows no push limits, so the client cannot know them before an answer: it sends
  // the first push alone, learns the real windows from its headers, and sends the rest within them.
  it('delivers every push exactly once, never refused, as fast as the windows allow', async () => {
    const { s, c, time } = await start(variants);
    const n = 40;
    const event = (i: number) => ({
      title: `Burst ${i}`,
      url: 'https://news.example.com/burst',
      performer: 'editor@example.com',
      target: { include: { apps: ['1001'] } },
    });
    await time.run(Promise.all(Array.from({ length: n }, (_, i) => c.sendPush('immediate', [event(i)], { priority: 'outbox' }))));

    const tasks = ((await call(s, 'GET', '/_sandbox/state/tasks')).body as { tasks: { title: string }[] }).tasks.filter((t) =>
      t.title.startsWith('Burst '),
    );
    expect(tasks.map((t) => t.title).sort()).toEqual(Array.from({ length: n }, (_, i) => `Burst ${i}`).sort());
    const log = (await requestLog(s)).filter((r) => r.path === '/epsilon/push');
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    expect(log.filter((r) => r.status === 200)).toHaveLength(n);
    const took = Math.max(...log.map((r) => r.time)) - log[0].time;
    expect(took).toBeLessThanOrEqual(minimumMs(n, SPEC_TIERS['3'].write, refill) * 1.05);

    const budget = c.snapshot().budgets.find((b) => b.group === 'push' && b.budget === 'write');
    expect(budget?.state).toBe('learned');
    expect(budget?.windows.map((w) => w.quota)).toEqual([...SPEC_TIERS['3'].write]);
  });
});

describe('Retry-After as an HTTP-date from a service whose clock is not ours', () => {
  /**
   * Another program spends the second's read budget; our list is refused once and retried when
   * Retry-After says. Returns what the service answered that program when it asked once more, the
   * statuses our client got, and how long after its 429 it retried (service clock).
   */
  async function refusedOnce(variants: Variants): Promise<{ retryAfter: unknown; statuses: (number | null)[]; retriedAfterMs: number }> {
    const { s, c, time } = await start(variants);
    const form = { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: SECRET };
    const token = ((await call(s, 'POST', '/authentication/oauth/token', { form })).body as { access_token: string }).access_token;
    // Mid-second, so that the Date header (truncated) and the retry date (rounded up) both round.
    time.advance(400);
    const path = '/core/api/1.0/limitedtwo/campaigns?fetch_level=R';
    for (let i = 0; i < LIST_QUOTAS[0]; i++) expect((await call(s, 'GET', path, { token })).status).toBe(200);
    const refused = await call(s, 'GET', path, { token });
    expect(refused.status).toBe(429);
    const before = (await requestLog(s)).length;
    await time.run(c.listCampaigns('limitedtwo', { fetchLevel: 'R' }));
    const ours = (await requestLog(s)).slice(before).filter((r) => r.account === 'limitedtwo');
    return {
      retryAfter: refused.headers['retry-after'],
      statuses: ours.map((r) => r.status),
      retriedAfterMs: ours.length >= 2 ? ours[1].time - ours[0].time : NaN,
    };
  }

  for (const [label, offsetMs] of [
    ['2 minutes ahead', 2 * 60_000],
    ['10 minutes ahead', 10 * 60_000],
    ['10 minutes behind', -10 * 60_000],
  ] as const) {
    it(`waits what the date says, measured on the service's clock (${label})`, async () => {
      const r = await refusedOnce({ retry_after_date: true, clock_offset_ms: offsetMs });
      expect(r.retryAfter).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      expect(r.statuses).toEqual([429, 200]);
      // Room comes back 1 s after the program's first request (x.400 on the service's clock); the
      // date says x+2.000 and the Date header x.000, so 2 s: not 122 s or 600 s as against our
      // clock, and not so early that it is refused again.
      expect(r.retriedAfterMs).toBeGreaterThanOrEqual(1_000);
      expect(r.retriedAfterMs).toBeLessThanOrEqual(2_000);
    });
  }
});
