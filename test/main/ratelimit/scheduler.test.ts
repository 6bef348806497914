import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/main/clock/clock';
import { QueueCancelledError, RateLimitScheduler, type Priority, type SchedulerSnapshot } from '../../../src/main/ratelimit/scheduler';
import { flush, simulate, SlidingLogServer, type SimRequest, type SimResponse } from './sim';

const ONE_PER_SECOND = [{ name: 'second', quota: 1, windowMs: 1000 }];

/** Runs the clock until nothing is pending (or `limit`). */
async function drain(clock: ManualClock, limit = 1_000_000): Promise<void> {
  for (;;) {
    await flush();
    const next = clock.nextTimerAt();
    if (next === undefined || next > limit) return;
    clock.fireNext(next);
  }
}

function instantServer(clock: ManualClock, server: SlidingLogServer, log: string[], label: string) {
  return () =>
    new Promise<SimResponse>((resolve) => {
      log.push(`${label}@${clock.now()}`);
      resolve(server.handle(clock.now()));
    });
}

describe('RateLimitScheduler', () => {
  it('sends what a person waits for before outbox writes, and those before background refresh', async () => {
    const clock = new ManualClock(0);
    const server = new SlidingLogServer(ONE_PER_SECOND, true);
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
    const order: string[] = [];
    const run = (label: string, priority: Priority) =>
      scheduler.run({ account: 'a', group: 'campaigns', budget: 'write', priority }, instantServer(clock, server, order, label));
    // The first request teaches the policy; the rest queue behind it in mixed order.
    const all = [
      run('first', 'background'),
      run('bg1', 'background'),
      run('out1', 'outbox'),
      run('bg2', 'background'),
      run('int1', 'interactive'),
      run('out2', 'outbox'),
    ];
    await drain(clock);
    await Promise.all(all);
    expect(order).toEqual(['first@0', 'int1@1000', 'out1@2000', 'out2@3000', 'bg1@4000', 'bg2@5000']);
    expect(server.rejected).toBe(0);
  });

  it("never delays one account's requests because another account is exhausted or refused", async () => {
    const clock = new ManualClock(0);
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
    const slow = new SlidingLogServer([{ name: 'hour', quota: 1, windowMs: 3_600_000 }], true);
    const fast = new SlidingLogServer([{ name: 'second', quota: 5, windowMs: 1000 }], true);
    const servers = new Map([
      ['slow', slow],
      ['fast', fast],
    ]);
    const requests: SimRequest[] = [
      ...Array.from({ length: 3 }, () => ({ at: 0, account: 'slow', priority: 'interactive' as const, latencyIn: 5, latencyOut: 5 })),
      ...Array.from({ length: 10 }, (_, i) => ({
        at: 1 + i,
        account: 'fast',
        priority: 'interactive' as const,
        latencyIn: 5,
        latencyOut: 5,
      })),
    ];
    const outcomes = await simulate(clock, scheduler, servers, requests, 60_000);
    const fastDone = outcomes.filter((o) => o.request.account === 'fast');
    expect(fastDone).toHaveLength(10);
    // Ten requests at five per second: done within about two seconds, while 'slow' waits an hour.
    expect(Math.max(...fastDone.map((o) => o.doneAt))).toBeLessThan(2_100);
    expect(outcomes.filter((o) => o.request.account === 'slow')).toHaveLength(1);
    expect(fast.rejected + slow.rejected).toBe(0);
    scheduler.close();
  });

  it('waits Retry-After after a 429 and resends the same request without the caller noticing', async () => {
    const clock = new ManualClock(0);
    const server = new SlidingLogServer(ONE_PER_SECOND, true);
    // Another device takes the slot: our model cannot know, so the first attempt is refused.
    server.handle(0);
    server.rejected = 0;
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
    const attempts: number[] = [];
    const p = scheduler.run({ account: 'a', group: 'campaigns', budget: 'write' }, () => {
      attempts.push(clock.now());
      return Promise.resolve(server.handle(clock.now()));
    });
    await drain(clock);
    const res = await p;
    expect(res.status).toBe(200);
    expect(attempts).toEqual([0, 1000]);
    expect(scheduler.snapshot().totals).toEqual({ sent: 2, rateLimited: 1, retried: 1 });
  });

  it('gives the 429 to the caller once its retries are used up', async () => {
    const clock = new ManualClock(0);
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0, maxRateLimitRetries: 2 });
    let calls = 0;
    const p = scheduler.run({ account: 'a', group: 'campaigns', budget: 'write' }, () => {
      calls++;
      return Promise.resolve({ status: 429, headers: { 'retry-after': '2' } });
    });
    await drain(clock);
    expect((await p).status).toBe(429);
    expect(calls).toBe(3);
  });

  it('backs off when Retry-After says 0 and the budget keeps refusing, instead of retrying back to back', async () => {
    const clock = new ManualClock(0);
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0, maxRateLimitRetries: 5 });
    const attempts: number[] = [];
    // A service still full that says "retry now" and writes no rate headers.
    const p = scheduler.run({ account: 'a', group: 'campaigns', budget: 'write' }, () => {
      attempts.push(clock.now());
      return Promise.resolve(attempts.length <= 4 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200, headers: {} });
    });
    await drain(clock);
    expect((await p).status).toBe(200);
    // The first Retry-After is taken at its word; each refusal after it doubles the wait from 1 s.
    expect(attempts).toEqual([0, 0, 1000, 3000, 7000]);
  });

  it('counts requests refused together as one refusal: the next wait is Retry-After, not a back-off', async () => {
    const clock = new ManualClock(0);
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
    const attempts: number[] = [];
    let refuse = -1; // the first answer (no rate headers) says the budget is not limited
    const attempt = () => {
      attempts.push(clock.now());
      return new Promise<{ status: number; headers: Record<string, string> }>((resolve) =>
        clock.setTimer(() => resolve(refuse-- > 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200, headers: {} }), 10),
      );
    };
    const run = () => scheduler.run({ account: 'a', group: 'campaigns', budget: 'write' }, attempt);
    await Promise.all([run(), drain(clock)]);
    refuse = 3;
    const all = [run(), run(), run()];
    await drain(clock);
    expect((await Promise.all(all)).map((r) => r.status)).toEqual([200, 200, 200]);
    // Three sent at once, refused at once, all sent again once Retry-After (1 s) has passed.
    expect(attempts).toEqual([0, 10, 10, 10, 1020, 1020, 1020]);
  });

  it('drops a queued request when its signal fires, without sending it', async () => {
    const clock = new ManualClock(0);
    const server = new SlidingLogServer(ONE_PER_SECOND, true);
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
    const log: string[] = [];
    const first = scheduler.run({ account: 'a', group: 'campaigns', budget: 'write' }, instantServer(clock, server, log, 'one'));
    const ctrl = new AbortController();
    const second = scheduler.run(
      { account: 'a', group: 'campaigns', budget: 'write', signal: ctrl.signal },
      instantServer(clock, server, log, 'two'),
    );
    await flush();
    ctrl.abort();
    await expect(second).rejects.toBeInstanceOf(QueueCancelledError);
    await drain(clock);
    await first;
    expect(log).toEqual(['one@0']);
  });

  it('does not throttle a budget whose answers carry no rate-limit headers', async () => {
    const clock = new ManualClock(0);
    const scheduler = new RateLimitScheduler({ clock });
    const sentAt: number[] = [];
    const ok = () => {
      sentAt.push(clock.now());
      return Promise.resolve({ status: 200, headers: {} });
    };
    await scheduler.run({ account: 'old', group: 'campaigns.list', budget: 'read' }, ok);
    await Promise.all(Array.from({ length: 40 }, () => scheduler.run({ account: 'old', group: 'campaigns.list', budget: 'read' }, ok)));
    expect(sentAt).toHaveLength(41);
    expect(new Set(sentAt)).toEqual(new Set([0]));
    expect(scheduler.snapshot().budgets[0].state).toBe('unlimited');
  });

  it('sends push work (no documented limits) one request at a time until the first answer says there are none, then all at once', async () => {
    const clock = new ManualClock(0);
    const scheduler = new RateLimitScheduler({ clock });
    const key = { account: 'push:demo-client', group: 'push', budget: 'write' as const };
    let out = 0;
    let most = 0;
    let answer: (() => void) | undefined;
    const firstAnswered = new Promise<void>((resolve) => (answer = resolve));
    const send = (first: boolean) => async () => {
      most = Math.max(most, ++out);
      if (first) await firstAnswered;
      out--;
      return { status: 200, headers: {} };
    };
    const all = [scheduler.run(key, send(true)), ...Array.from({ length: 10 }, () => scheduler.run(key, send(false)))];
    await flush();
    // Only the probe is out while nobody knows whether push is limited.
    expect(most).toBe(1);
    expect(scheduler.snapshot().budgets[0]).toMatchObject({ state: 'guess', windows: [] });
    answer!();
    await Promise.all(all);
    expect(scheduler.snapshot().budgets[0].state).toBe('unlimited');
    // Once known unlimited, a burst goes out together.
    most = 0;
    const gate = new Promise<void>((resolve) => setTimeout(resolve, 0));
    const held = async () => {
      most = Math.max(most, ++out);
      await gate;
      out--;
      return { status: 200, headers: {} };
    };
    await Promise.all(Array.from({ length: 5 }, () => scheduler.run(key, held)));
    expect(most).toBe(5);
  });

  it('reports used, quota, refill times, queue lengths and drain estimate, and tells subscribers', async () => {
    const clock = new ManualClock(0);
    const server = new SlidingLogServer(
      [
        { name: 'second', quota: 2, windowMs: 1000 },
        { name: 'minute', quota: 10, windowMs: 60_000 },
      ],
      true,
    );
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
    const seen: SchedulerSnapshot[] = [];
    const unsubscribe = scheduler.subscribe((s) => seen.push(s));
    const log: string[] = [];
    await scheduler.run({ account: 'a', group: 'campaigns', budget: 'write' }, instantServer(clock, server, log, 'x'));
    const queued = Array.from({ length: 5 }, (_, i) =>
      scheduler.run(
        { account: 'a', group: 'campaigns', budget: 'write', priority: i < 2 ? 'outbox' : 'background' },
        instantServer(clock, server, log, 'y'),
      ),
    );
    await flush();
    const snap = scheduler.snapshot();
    const b = snap.budgets[0];
    expect(b).toMatchObject({ account: 'a', group: 'campaigns', budget: 'write', state: 'learned', inFlight: 0 });
    expect(b.windows).toEqual([
      { name: 'second', quota: 2, windowMs: 1000, refill: 'sliding_log', used: 2, inFlight: 0, nextSlotInMs: 1000, resetInMs: 1000 },
      { name: 'minute', quota: 10, windowMs: 60_000, refill: 'sliding_log', used: 2, inFlight: 0, nextSlotInMs: 0, resetInMs: 60_000 },
    ]);
    // Queue: 1 outbox and 2 background left; 3 more at 2 per second after the current second.
    expect(b.queued).toEqual({ interactive: 0, outbox: 1, background: 3 });
    expect(b.drainEstimateMs).toBe(2000);
    expect(seen.length).toBeGreaterThan(0);
    unsubscribe();
    const before = seen.length;
    await drain(clock);
    await Promise.all(queued);
    expect(seen.length).toBe(before);
    expect(server.rejected).toBe(0);
  });
});

describe('RateLimitScheduler and Retry-After as an HTTP-date', () => {
  // The computer's clock is 2026-11-21 09:00:00; the service's runs `offsetMs` ahead of it.
  const LOCAL = Date.UTC(2026, 10, 21, 9, 0, 0);

  for (const offsetMs of [0, 2 * 60_000, 10 * 60_000, -10 * 60_000]) {
    it(`retries when the date comes on the service's clock (service ${offsetMs / 60_000} min off ours)`, async () => {
      const clock = new ManualClock(LOCAL);
      const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
      const attempts: number[] = [];
      const p = scheduler.run({ account: 'a', group: 'campaigns', budget: 'write' }, () => {
        attempts.push(clock.now() - LOCAL);
        const serviceNow = clock.now() + offsetMs;
        if (attempts.length > 1) return Promise.resolve({ status: 200, headers: { date: new Date(serviceNow).toUTCString() } });
        return Promise.resolve({
          status: 429,
          headers: { date: new Date(serviceNow).toUTCString(), 'retry-after': new Date(serviceNow + 2000).toUTCString() },
        });
      });
      await drain(clock, Infinity);
      expect((await p).status).toBe(200);
      expect(attempts).toEqual([0, 2000]);
    });
  }
});
