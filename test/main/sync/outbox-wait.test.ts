// Each wait reason the Outbox shows is true at the moment it is shown: the rate-limit reason is
// read from a real scheduler on a manual clock (held while its window is full, gone once the
// request is admitted), and the connection's state overrides any "due now".
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/main/clock/clock';
import { RateLimitScheduler } from '../../../src/main/ratelimit/scheduler';
import type { OutboxItem } from '../../../src/main/store';
import type { ConnectionState } from '../../../src/main/connections/connections';
import { outboxWaits, type WaitInputs } from '../../../src/main/sync/outbox-wait';
import { SlidingLogServer } from '../ratelimit/sim';

const item = (seq: number, o: Partial<OutboxItem> = {}): OutboxItem =>
  ({
    seq,
    profileId: 'p',
    accountId: 'acme',
    kind: 'create_campaign',
    payload: { body: { name: `c${seq}` } },
    draftId: null,
    state: 'queued',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    result: null,
    createdAt: 0,
    updatedAt: 0,
    ...o,
  }) as OutboxItem;

const flush = () => new Promise((r) => setImmediate(r));

function inputs(items: OutboxItem[], connection: ConnectionState, scheduler: RateLimitScheduler, now: number): WaitInputs {
  return { now, items, connection: () => connection, rateAccount: (i) => i.accountId, snapshot: scheduler.snapshot() };
}

describe('outbox waits', () => {
  it('says "rate limit" with the window, how full it is and when a request fits while the scheduler holds the request, and "sending" once admitted', async () => {
    const clock = new ManualClock(1_000_000);
    // A service allowing one write a minute, answering with its rate-limit headers.
    const server = new SlidingLogServer([{ name: 'minute', quota: 1, windowMs: 60_000 }], true);
    const scheduler = new RateLimitScheduler({ clock, marginMs: 0 });
    await scheduler.run({ account: 'acme', group: 'campaigns', budget: 'write', priority: 'outbox' }, async () =>
      server.handle(clock.now()),
    );
    let admitted = false;
    const second = scheduler.run({ account: 'acme', group: 'campaigns', budget: 'write', priority: 'outbox' }, async () => {
      admitted = true;
      return new Promise<never>(() => {}); // on the wire: no answer yet
    });
    await flush();
    const sending = [item(1, { state: 'sent' }), item(2, { state: 'sending' })];
    const [held] = outboxWaits(inputs(sending, 'online', scheduler, clock.now()));
    expect(admitted).toBe(false);
    expect(held).toMatchObject({
      seq: 2,
      reason: 'rate_limit',
      window: { group: 'campaigns', name: 'minute', used: 1, quota: 1, windowMs: 60_000 },
    });
    expect(held.until).toBe(held.window?.nextSlotAt);
    expect(held.until! - clock.now()).toBeGreaterThan(50_000);
    // The window refills when it said it would: the request goes out, and the item is sending.
    clock.advanceTo(held.until!);
    await flush();
    expect(admitted).toBe(true);
    expect(outboxWaits(inputs(sending, 'online', scheduler, clock.now()))[0]).toMatchObject({ seq: 2, reason: 'sending', window: null });
    void second;
    scheduler.close();
  });

  it('never says "next" while offline, working offline or signing in, and counts the changes ahead in the lane', () => {
    const scheduler = new RateLimitScheduler({ clock: new ManualClock(0) });
    const items = [item(1), item(2), item(3, { accountId: 'other' }), item(4, { state: 'failed' }), item(5)];
    for (const [connection, reason] of [
      ['offline', 'offline'],
      ['working_offline', 'working_offline'],
      ['signing_in', 'signing_in'],
      ['failing', 'signing_in'],
    ] as const) {
      const waits = outboxWaits(inputs(items, connection, scheduler, 0));
      expect(waits.map((w) => w.reason)).toEqual([reason, reason, reason, reason]);
    }
    const online = outboxWaits(inputs(items, 'online', scheduler, 0));
    expect(online.map((w) => [w.seq, w.reason, w.ahead])).toEqual([
      [1, 'next', 0],
      [2, 'turn', 1],
      [3, 'next', 0],
      [5, 'turn', 2],
    ]);
  });

  it('says when a retry after an error or a 429 is due, not "now"', () => {
    const scheduler = new RateLimitScheduler({ clock: new ManualClock(0) });
    const waits = outboxWaits(
      inputs(
        [
          item(1, { nextAttemptAt: 30_000, lastError: { code: 'SERVER', message: '500' } }),
          item(2, { accountId: 'b', nextAttemptAt: 9_000, lastError: { code: 'RATE_LIMITED', message: '429' } }),
        ],
        'online',
        scheduler,
        0,
      ),
    );
    expect(waits.map((w) => [w.reason, w.until, w.lastTry])).toEqual([
      ['retry', 30_000, '500'],
      ['rate_limit', 9_000, '429'],
    ]);
  });
});
