import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/main/clock/clock';
import { RateLimitScheduler } from '../../../src/main/ratelimit/scheduler';
import { refillShownBy } from '../../../src/main/ratelimit/policy';
import { BudgetModel } from '../../../src/main/ratelimit/window-model';
import {
  greedyAdmissions,
  greedyBucketAdmissions,
  SandboxLimiterServer,
  simulate,
  SlidingLogServer,
  type SandboxWindows,
  type SimRequest,
  type SimWindow,
} from './sim';

const windowsArb = fc
  .uniqueArray(fc.record({ quota: fc.integer({ min: 1, max: 4 }), windowMs: fc.integer({ min: 2, max: 40 }).map((n) => n * 50) }), {
    minLength: 1,
    maxLength: 3,
    selector: (w) => w.windowMs,
  })
  .map((ws) => ws.map((w, i): SimWindow => ({ name: `w${i}`, ...w })));

const requestsArb = (accounts: string[]) =>
  fc.array(
    fc.record({
      at: fc.integer({ min: 0, max: 3000 }),
      account: fc.constantFrom(...accounts),
      priority: fc.constantFrom('interactive' as const, 'outbox' as const, 'background' as const),
      latencyIn: fc.integer({ min: 0, max: 40 }),
      latencyOut: fc.integer({ min: 0, max: 40 }),
    }),
    { minLength: 1, maxLength: 25 },
  );

// The guess before the first answer may be far more generous than the truth.
const guessArb = fc.array(fc.record({ quota: fc.integer({ min: 1, max: 50 }), windowMs: fc.integer({ min: 50, max: 5000 }) }), {
  minLength: 1,
  maxLength: 3,
});

describe('window model against a fake clock', () => {
  it('never lets any generated request sequence exceed a quota, whatever the latencies and the initial guess', async () => {
    await fc.assert(
      fc.asyncProperty(windowsArb, windowsArb, requestsArb(['a', 'b']), guessArb, async (wa, wb, requests, guess) => {
        const clock = new ManualClock(1_000_000);
        // margin 0: the property must hold from the model's logic alone, not from a safety pad.
        const scheduler = new RateLimitScheduler({
          clock,
          marginMs: 0,
          initialGuess: () => guess.map((g, i) => ({ name: `g${i}`, ...g })),
        });
        const servers = new Map([
          ['a', new SlidingLogServer(wa, false)],
          ['b', new SlidingLogServer(wb, false)],
        ]);
        const outcomes = await simulate(clock, scheduler, servers, requests);
        expect(outcomes).toHaveLength(requests.length);
        expect(outcomes.every((o) => o.response?.status === 200)).toBe(true);
        for (const [, server] of servers) {
          const max = server.maxInWindow();
          server.windows.forEach((w, i) => expect(max[i]).toBeLessThanOrEqual(w.quota));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('learns requests it did not make from r and is refused at most once (its first probe)', async () => {
    await fc.assert(
      fc.asyncProperty(
        windowsArb,
        requestsArb(['a']),
        fc.array(fc.integer({ min: 0, max: 2000 }), { maxLength: 8 }),
        async (w, requests, foreign) => {
          const clock = new ManualClock(1_000_000);
          const server = new SlidingLogServer(w, true);
          // Another device used the budget just before we started.
          for (const ago of foreign.sort((x, y) => y - x)) server.handle(clock.now() - ago);
          server.rejected = 0;
          const scheduler = new RateLimitScheduler({ clock, marginMs: 0, maxRateLimitRetries: 100 });
          const outcomes = await simulate(clock, scheduler, new Map([['a', server]]), requests);
          expect(outcomes.every((o) => o.response?.status === 200)).toBe(true);
          expect(server.rejected).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("is not freed by a stale report: an answer that comes after a racing request's answer keeps that request counted", async () => {
    // Found by the property above: two requests sent in the same millisecond, the second answered
    // first (r=0), then the first (r=1, written before the second was counted). Taken as newer,
    // the first answer's r=1 would free a slot the second had taken, and a third request sent at
    // once would be refused.
    const clock = new ManualClock(1_000_000);
    const server = new SlidingLogServer([{ name: 'w0', quota: 2, windowMs: 100 }], true);
    server.handle(clock.now());
    server.handle(clock.now());
    server.rejected = 0;
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0, maxRateLimitRetries: 100 });
    const at0 = (latencyOut: number) => ({ at: 0, account: 'a', priority: 'interactive' as const, latencyIn: 0, latencyOut });
    const outcomes = await simulate(clock, scheduler, new Map([['a', server]]), [at0(1), at0(0), at0(0)]);
    expect(outcomes.every((o) => o.response?.status === 200)).toBe(true);
    // Only the first probe, which found the window full of another device's requests.
    expect(server.rejected).toBe(1);
  });

  it('sends at the ceiling: with instant answers, requests are admitted exactly when the windows allow', async () => {
    await fc.assert(
      fc.asyncProperty(windowsArb, fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 25 }), async (w, ats) => {
        const clock = new ManualClock(0);
        const server = new SlidingLogServer(w, true);
        const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
        const arrivals = [...ats].sort((x, y) => x - y);
        const requests: SimRequest[] = arrivals.map((at) => ({ at, account: 'a', priority: 'outbox', latencyIn: 0, latencyOut: 0 }));
        await simulate(clock, scheduler, new Map([['a', server]]), requests);
        expect(server.rejected).toBe(0);
        expect(server.admitted).toEqual(greedyAdmissions(arrivals, w));
      }),
      { numRuns: 150 },
    );
  });
});

describe('BudgetModel', () => {
  const info = (status: number, ratelimit: string) => ({
    status,
    policy: [
      { name: 'second', quota: 2, windowS: 1 },
      { name: 'minute', quota: 3, windowS: 60 },
    ],
    remaining: ratelimit.split(',').map((e) => {
      const [name, r, t] = e.trim().split(';');
      return { name, remaining: Number(r.slice(2)), resetS: Number(t.slice(2)) };
    }),
  });

  it('probes a guessed policy with one request at a time until an answer tells the truth', () => {
    const m = new BudgetModel([{ name: 'second', quota: 100, windowMs: 1000 }], { marginMs: 0 });
    expect(m.nextAdmitAt(0)).toBe(0);
    m.admit(1, 0);
    expect(m.state).toBe('guess');
    expect(m.nextAdmitAt(0)).toBe(Infinity);
    m.onResponse(1, 5, info(200, 'second;r=1;t=1, minute;r=2;t=60'));
    expect(m.state).toBe('learned');
    expect(m.policies().map((p) => [p.name, p.quota, p.windowMs])).toEqual([
      ['second', 2, 1000],
      ['minute', 3, 60000],
    ]);
    expect(m.nextAdmitAt(5)).toBe(5);
  });

  it("treats the server's r as authoritative: adds what it did not send, drops what the server forgot", () => {
    const m = new BudgetModel('unlimited', { marginMs: 0 });
    m.admit(1, 0);
    // Someone else sent 2 requests in this minute: r says only 0 left of 3.
    m.onResponse(1, 10, info(200, 'second;r=1;t=1, minute;r=0;t=60'));
    const minute = m.windows(10).find((w) => w.name === 'minute');
    expect(minute?.used).toBe(3);
    expect(m.nextAdmitAt(10)).toBe(10 + 60_000);
    // Later the server says the minute is empty again apart from the new request (a reset).
    m.admit(2, 60_010);
    m.onResponse(2, 60_020, info(200, 'second;r=1;t=1, minute;r=2;t=60'));
    expect(m.windows(60_020).find((w) => w.name === 'minute')?.used).toBe(1);
  });

  it('forgets a response without headers: the budget is not limited', () => {
    const m = new BudgetModel([{ name: 'second', quota: 1, windowMs: 1000 }]);
    m.admit(1, 0);
    m.onResponse(1, 1, { status: 200, policy: [], remaining: [] });
    expect(m.state).toBe('unlimited');
    for (let i = 2; i < 50; i++) m.admit(i, 1);
    expect(m.nextAdmitAt(1)).toBe(1);
  });

  it('keeps limits it has learned across a response without headers, and counts that request', () => {
    const m = new BudgetModel([{ name: 'second', quota: 1, windowMs: 1000 }], { marginMs: 0 });
    m.admit(1, 0);
    m.onResponse(1, 1, info(200, 'second;r=1;t=1, minute;r=2;t=60'));
    m.admit(2, 10);
    // Through a cache or another front server: no headers this time.
    m.onResponse(2, 11, { status: 200, policy: [], remaining: [] });
    expect(m.state).toBe('learned');
    expect(m.windows(11).find((w) => w.name === 'minute')?.used).toBe(2);
    expect(m.nextAdmitAt(11)).toBeGreaterThan(11);
  });

  it('does not count a request that never left, and counts one whose fate is unknown for a full window', () => {
    const m = new BudgetModel('unlimited', { marginMs: 0 });
    m.admit(1, 0);
    m.onResponse(1, 0, info(200, 'second;r=1;t=1, minute;r=2;t=60'));
    m.admit(2, 0);
    m.onNotSent(2);
    expect(m.windows(0).find((w) => w.name === 'second')?.used).toBe(1);
    m.admit(3, 0);
    m.onUnknownOutcome(3, 100);
    expect(m.windows(100).find((w) => w.name === 'second')?.used).toBe(2);
    expect(m.nextAdmitAt(100)).toBe(1000);
  });

  it('estimates the drain time of a queue from the windows', () => {
    const m = new BudgetModel('unlimited', { marginMs: 0 });
    m.admit(1, 0);
    m.onResponse(1, 0, {
      status: 200,
      policy: [{ name: 'second', quota: 2, windowS: 1 }],
      remaining: [{ name: 'second', remaining: 1, resetS: 1 }],
    });
    // 1 slot left now, then 2 per second: the 5th more request goes at 2 s.
    expect(m.drainEstimate(0, 5)).toBe(2000);
    expect(m.drainEstimate(0, 0)).toBe(0);
  });
});

// Windows of whole seconds (the sandbox's unit) with quotas high enough for t to tell a bucket
// from a log, and low enough for a few dozen requests to run into them.
const bucketWindowsArb = fc
  .record({
    second: fc.integer({ min: 1, max: 2 }),
    minute: fc.integer({ min: 3, max: 12 }),
    hour: fc.integer({ min: 13, max: 60 }),
    q: fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 12 }), fc.integer({ min: 3, max: 30 })),
  })
  .map((r): SandboxWindows => ({ seconds: [r.second, r.minute, r.hour], quotas: r.q }));

describe('window model against token buckets (the sandbox limiter, windows: token_bucket)', () => {
  it('is never refused, whatever the latencies, accounts and arrival times', async () => {
    await fc.assert(
      fc.asyncProperty(bucketWindowsArb, bucketWindowsArb, requestsArb(['a', 'b']), async (wa, wb, requests) => {
        const clock = new ManualClock(1_000_000);
        const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
        const servers = new Map([
          ['a', new SandboxLimiterServer(wa, { windows: 'token_bucket' })],
          ['b', new SandboxLimiterServer(wb, { windows: 'token_bucket' })],
        ]);
        const outcomes = await simulate(clock, scheduler, servers, requests);
        expect(outcomes).toHaveLength(requests.length);
        for (const [, server] of servers) expect(server.rejected).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it('sends at the ceiling: with instant answers, requests are admitted when the buckets allow, not when a log would', async () => {
    await fc.assert(
      fc.asyncProperty(bucketWindowsArb, fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 40 }), async (w, ats) => {
        const clock = new ManualClock(0);
        const server = new SandboxLimiterServer(w, { windows: 'token_bucket' });
        const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
        const arrivals = [...ats].sort((x, y) => x - y);
        const requests: SimRequest[] = arrivals.map((at) => ({ at, account: 'a', priority: 'outbox', latencyIn: 0, latencyOut: 0 }));
        await simulate(clock, scheduler, new Map([['a', server]]), requests);
        expect(server.rejected).toBe(0);
        expect(server.admitted).toEqual(greedyBucketAdmissions(arrivals, w));
      }),
      { numRuns: 150 },
    );
  });

  it('learns tokens another device spent from r and t, and is refused at most once (its first probe)', async () => {
    await fc.assert(
      fc.asyncProperty(
        bucketWindowsArb,
        requestsArb(['a']),
        fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 10 }),
        async (w, requests, foreign) => {
          const clock = new ManualClock(1_000_000);
          const server = new SandboxLimiterServer(w, { windows: 'token_bucket' });
          for (const ago of foreign.sort((x, y) => y - x)) server.handle(clock.now() - ago);
          server.rejected = 0;
          server.admitted.length = 0;
          const scheduler = new RateLimitScheduler({ clock, marginMs: 0, maxRateLimitRetries: 100 });
          const outcomes = await simulate(clock, scheduler, new Map([['a', server]]), requests);
          expect(outcomes.every((o) => o.response?.status === 200)).toBe(true);
          expect(server.rejected).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('how a window refills, as its reports show', () => {
  const minute = { name: 'minute', quota: 15, windowMs: 60_000 };
  const second = { name: 'second', quota: 2, windowMs: 1000 };

  it('tells a sliding log (t = w for the request just admitted) from a token bucket (t ~ (q - r) w / q)', () => {
    expect(refillShownBy(minute, 14, 60)).toBe('sliding_log');
    expect(refillShownBy(minute, 14, 59)).toBe('sliding_log');
    expect(refillShownBy(minute, 14, 4)).toBe('token_bucket');
    expect(refillShownBy(minute, 3, 48)).toBe('token_bucket');
    // A 1 s window, an empty bucket or a missing t cannot tell.
    expect(refillShownBy(second, 1, 1)).toBeUndefined();
    expect(refillShownBy(minute, 0, 60)).toBeUndefined();
    expect(refillShownBy(minute, 14, undefined)).toBeUndefined();
  });

  const tier4 = (ratelimit: string) => ({
    status: 200,
    policy: [
      { name: 'second', quota: 2, windowS: 1 },
      { name: 'minute', quota: 15, windowS: 60 },
    ],
    remaining: ratelimit.split(',').map((e) => {
      const [name, r, t] = e.trim().split(';');
      return { name, remaining: Number(r.slice(2)), resetS: Number(t.slice(2)) };
    }),
  });

  it('lets a window whose reports cannot tell follow its siblings, and stays a log until shown', () => {
    const m = new BudgetModel('unlimited', { marginMs: 0 });
    m.admit(1, 0);
    m.onResponse(1, 0, tier4('second;r=1;t=1, minute;r=0;t=60'));
    expect(m.refills()).toEqual({ second: 'sliding_log', minute: 'sliding_log' });
    const b = new BudgetModel('unlimited', { marginMs: 0 });
    b.admit(1, 0);
    b.onResponse(1, 0, tier4('second;r=1;t=1, minute;r=14;t=4'));
    expect(b.refills()).toEqual({ second: 'token_bucket', minute: 'token_bucket' });
    // The bucket of the second gives a token back every 500 ms, a log only after 1 s.
    b.admit(2, 0);
    b.onResponse(2, 0, tier4('second;r=0;t=1, minute;r=13;t=8'));
    expect(b.nextAdmitAt(0)).toBe(500);
    expect(b.drainEstimate(0, 3)).toBe(1500);
  });

  it("follows the server's report down at once when another device spent tokens", () => {
    const m = new BudgetModel('unlimited', { marginMs: 0 });
    m.admit(1, 0);
    m.onResponse(1, 0, tier4('second;r=1;t=1, minute;r=14;t=4'));
    // 6 s later our picture holds a full minute bucket less this request (14); the server says
    // 8 (someone else took 6): believed at once, not averaged away.
    m.admit(2, 6000);
    m.onResponse(2, 6000, tier4('second;r=1;t=1, minute;r=8;t=28'));
    expect(m.windows(6000).find((w) => w.name === 'minute')).toMatchObject({ refill: 'token_bucket', used: 7, nextSlotInMs: 0 });
    // 8 tokens at 2 per second (the second's bucket), then one every 4 s: the 10th at 4 s + 4 s.
    expect(m.drainEstimate(6000, 10)).toBe(8000);
  });
});
