// The scheduler inside the service client against the sandbox's real limiter over HTTP, on one
// virtual clock (test/main/ratelimit/virtual-time.ts). The fixture tiers and windows differ from
// the documented ones on purpose: the client must learn them from the headers. The file runs
// against the default service and, with SANDBOX_VARIANTS=mixed, against the other legal choices
// (token-bucket windows, quoted header names, Retry-After as a date, a service clock 7 min ahead).
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { type RunningSandbox, type Variants } from '../../../src/sandbox/index';
import { testVariants, variantLabel } from '../../helpers/variants';
import { greedyAdmissions, greedyBucketAdmissions } from '../ratelimit/sim';
import { VirtualTime } from '../ratelimit/virtual-time';
import { call, type LoggedRequest, requestLog } from '../../helpers/sandbox';
import { clientFor, closedAfterTest, startServiceSandbox } from '../../helpers/service-client';
import { OTHER_SECRET } from '../../helpers/fixtures';

const WINDOWS_S = [1, 5, 30] as const;
const READ = [2, 5, 12] as const;
const WRITE = [3, 6, 12] as const;
const REFILL = testVariants()?.windows ?? 'sliding_log';

async function start(extra: Variants = {}): Promise<{ s: RunningSandbox; c: ServiceClient; time: VirtualTime }> {
  const sb = closedAfterTest(
    await startServiceSandbox({
      variants: extra,
      limitedAccounts: true,
      rateLimits: {
        windows: { second: WINDOWS_S[0], minute: WINDOWS_S[1], hour: WINDOWS_S[2] },
        tiers: { '7': { read: [1, 1, 1], write: [...WRITE] }, '8': { read: [...READ], write: [1, 1, 1] } },
        endpoint_tiers: { campaigns: 7, 'campaigns.list': 8 },
      },
    }),
  );
  const time = new VirtualTime(sb);
  const client = closedAfterTest(clientFor(sb, { clock: time, transport: time.transport }));
  await time.run(client.authenticate());
  return { s: sb, c: client, time };
}

/** Admission times (service clock) of one budget. */
const admittedTimes = (log: LoggedRequest[], account: string, group: string) =>
  log.filter((r) => r.account === account && r.group === group && r.status !== 429 && r.status !== null).map((r) => r.time);

/**
 * Whether the admissions kept within the quotas under the service's refill rule: at most q in any
 * window of a sliding log; at most q plus what refills over the stretch for a token bucket.
 */
function withinQuotas(times: number[], quotas: readonly number[]): boolean {
  return WINDOWS_S.every((w, i) =>
    times.every((from, a) =>
      times.every((to, b) => {
        if (b < a) return true;
        const n = b - a + 1;
        return REFILL === 'token_bucket'
          ? n <= quotas[i] + ((to - from) * quotas[i]) / (w * 1000)
          : to - from >= w * 1000 || n <= quotas[i];
      }),
    ),
  );
}

/** The least time `n` requests queued at once take under the service's refill rule. */
function leastMs(n: number, quotas: readonly [number, number, number]): number {
  const arrivals = Array.from({ length: n }, () => 0);
  const last =
    REFILL === 'token_bucket'
      ? greedyBucketAdmissions(arrivals, { seconds: WINDOWS_S, quotas }).at(-1)
      : greedyAdmissions(
          arrivals,
          WINDOWS_S.map((s, i) => ({ name: String(s), quota: quotas[i], windowMs: s * 1000 })),
        ).at(-1);
  return last ?? 0;
}

const draft = (i: number) => ({
  name: `Learned tier ${i}`,
  branding_text: 'Limited One',
  cpc: 0.2,
  spending_limit: 900,
  spending_limit_model: 'MONTHLY',
  bid_strategy: 'FIXED',
  marketing_objective: 'LEADS_GENERATION',
});

describe(`rate limits over HTTP (${variantLabel()})`, () => {
  it('learns tiers changed in the fixtures from the headers and is never refused', async () => {
    const { s, c, time } = await start();
    const started = time.now();
    const reads = Array.from({ length: 8 }, (_, i) =>
      c.listCampaigns('limitedone', { fetchLevel: 'RAP', page: i + 1, pageSize: 1 }, { priority: 'background' }),
    );
    const writes = Array.from({ length: 8 }, (_, i) => c.createCampaign('limitedone', draft(i), { priority: 'outbox' }));
    // Another account is not held up by limitedone's queue: answered before any time passes.
    let otherDoneAt = NaN;
    const other = c.listCampaigns('limitedtwo', { fetchLevel: 'R' }).then(() => (otherDoneAt = time.now()));
    await time.run(Promise.all([...reads, ...writes, other]));
    expect(otherDoneAt).toBe(started);

    const log = await requestLog(s);
    expect(log.filter((r) => r.status === 429)).toEqual([]);
    const readTimes = admittedTimes(log, 'limitedone', 'campaigns.list');
    const writeTimes = admittedTimes(log, 'limitedone', 'campaigns');
    expect(withinQuotas(readTimes, READ)).toBe(true);
    expect(withinQuotas(writeTimes, WRITE)).toBe(true);
    // As fast as the learned quotas allow, not at the documented Tier 4 pace (2/s, 15/min).
    for (const [times, quotas] of [
      [readTimes, READ],
      [writeTimes, WRITE],
    ] as const) {
      const took = Math.max(...times) - Math.min(...times);
      expect(took).toBeGreaterThanOrEqual(leastMs(8, quotas));
      expect(took).toBeLessThanOrEqual(leastMs(8, quotas) * 1.05);
    }

    const budget = c.snapshot().budgets.find((b) => b.account === 'limitedone' && b.group === 'campaigns.list');
    expect(budget?.state).toBe('learned');
    expect(budget?.windows.map((w) => [w.name, w.quota, w.windowMs, w.refill]).sort((x, y) => Number(x[2]) - Number(y[2]))).toEqual([
      ['second', 2, 1000, REFILL],
      ['minute', 5, 5000, REFILL],
      ['hour', 12, 30000, REFILL],
    ]);
  });

  it('waits Retry-After after a 429 caused by someone else, then succeeds with the same request', async () => {
    const { s, c, time } = await start();
    const form = { grant_type: 'client_credentials', client_id: 'other-program', client_secret: OTHER_SECRET };
    const token = ((await call(s, 'POST', '/authentication/oauth/token', { form })).body as { access_token: string }).access_token;
    // Another program spends the second's whole read budget of limitedtwo.
    for (let i = 0; i < READ[0]; i++) {
      expect((await call(s, 'GET', '/core/api/1.0/limitedtwo/campaigns?fetch_level=R', { token })).status).toBe(200);
    }
    const page = await time.run(c.listCampaigns('limitedtwo', { fetchLevel: 'R' }));
    expect(page.total).toBe(0);
    const ours = (await requestLog(s)).filter((r) => r.account === 'limitedtwo');
    expect(ours.map((r) => r.status)).toEqual([200, 200, 429, 200]);
    // Retried once Retry-After had passed (whole seconds, or a date on the service's clock), not
    // a minute or more later.
    expect(ours[3].time - ours[2].time).toBeGreaterThanOrEqual(REFILL === 'token_bucket' ? 500 : 1000);
    expect(ours[3].time - ours[2].time).toBeLessThanOrEqual(2000);
    expect(c.snapshot().totals).toMatchObject({ rateLimited: 1, retried: 1 });
  });

  it('does not throttle an account that is not limited', async () => {
    const { s, c, time } = await start();
    const started = time.now();
    await time.run(Promise.all(Array.from({ length: 30 }, () => c.listCampaigns('oldtimerltd', { fetchLevel: 'RAP' }))));
    // Under the documented Tier 4 guess this would take 15 s.
    expect(time.now()).toBe(started);
    const log = (await requestLog(s)).filter((r) => r.account === 'oldtimerltd');
    expect(log).toHaveLength(30);
    expect(log.every((r) => r.limited === false && r.status === 200)).toBe(true);
    expect(c.snapshot().budgets.find((b) => b.account === 'oldtimerltd')?.state).toBe('unlimited');
  });
});

describe(`rate limits when some answers carry no headers (${variantLabel()})`, () => {
  // Spec 8.1.6 says every answer of a limited endpoint carries them; a cache or a second front
  // server in the way may not (variant rate_headers_dropped). One answer without them must not
  // undo what the others taught: the account is limited, and a burst would be refused.
  it.each([0.5, 1])('keeps the limits it learned when %s of the admitted answers come without them', async (dropped) => {
    const { s, c, time } = await start({ rate_headers_dropped: dropped });
    const n = 16;
    const pages = await time.run(
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          c.listCampaigns('limitedone', { fetchLevel: 'RAP', page: i + 1, pageSize: 1 }, { priority: 'background' }),
        ),
      ),
    );
    expect(pages).toHaveLength(n);
    const log = (await requestLog(s)).filter((r) => r.account === 'limitedone');
    const refusedAt = log.filter((r) => r.status === 429).map((r) => r.seq);
    const lastAdmittedAt = (seq: number) => log.filter((r) => r.seq < seq && r.status === 200).length;
    // Refusals come at most in the one burst before anything was learned (only when the very
    // first answer had no headers, which says "not limited"): never after an admitted answer
    // that followed a refusal.
    const firstRefusal = refusedAt[0];
    if (firstRefusal !== undefined) {
      expect(refusedAt.every((seq) => lastAdmittedAt(seq) === lastAdmittedAt(firstRefusal))).toBe(true);
    }
    expect(withinQuotas(admittedTimes(log, 'limitedone', 'campaigns.list'), READ)).toBe(true);
    expect(c.snapshot().budgets.find((b) => b.account === 'limitedone' && b.group === 'campaigns.list')?.state).toBe('learned');
  });
});
