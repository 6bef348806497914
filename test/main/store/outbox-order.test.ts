// The order of an account's queued changes, as the person sets it (issue #14): on a real SQLite
// file, through a reopen, and as the engine's head, readyLanes and nextDueAt see it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/main/clock/clock';
import { RateLimitScheduler } from '../../../src/main/ratelimit/scheduler';
import type { OutboxItem } from '../../../src/main/store';
import { outboxWaits } from '../../../src/main/sync/outbox-wait';
import { ACME, createWork as create, GLOBEX, openTestStore, seed, type TestStore } from './helpers';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
  seed(t.store);
});
afterEach(() => t.cleanup());

const nameOf = (i: OutboxItem | undefined) => (i?.kind === 'create_campaign' ? i.payload.body.name : i?.kind);
/** The lane's items still on their way, in the order they go out. */
const laneOrder = (lane = ACME) => t.store.outbox.list({ ...lane, states: ['queued', 'sending', 'uncertain'] }).map(nameOf);
const queue = (...names: string[]) => names.map((n) => t.store.outbox.enqueue({ ...ACME, ...create(n) }));

describe('outbox order', () => {
  it('moves a queued change up, down, first, last or before another, and keeps the order across a reopen', async () => {
    const [a, b, c, d] = queue('a', 'b', 'c', 'd');
    const out = t.store.outbox;
    expect(nameOf(out.move(d.seq, 'first'))).toBe('d');
    expect(laneOrder()).toEqual(['d', 'a', 'b', 'c']);
    out.move(a.seq, 'down');
    expect(laneOrder()).toEqual(['d', 'b', 'a', 'c']);
    out.move(c.seq, 'up');
    expect(laneOrder()).toEqual(['d', 'b', 'c', 'a']);
    out.move(d.seq, 'last');
    expect(laneOrder()).toEqual(['b', 'c', 'a', 'd']);
    out.move(d.seq, { before: c.seq });
    expect(laneOrder()).toEqual(['b', 'd', 'c', 'a']);
    // Past either end it stays at that end.
    out.move(b.seq, 'up');
    out.move(a.seq, 'down');
    expect(laneOrder()).toEqual(['b', 'd', 'c', 'a']);

    await t.reopen();
    expect(laneOrder()).toEqual(['b', 'd', 'c', 'a']);
    // A change queued after the moves goes last.
    t.store.outbox.enqueue({ ...ACME, ...create('e') });
    expect(laneOrder()).toEqual(['b', 'd', 'c', 'a', 'e']);
    expect(t.store.outbox.head(ACME)?.seq).toBe(b.seq);
  });

  it('the engine takes the lane in the new order, one at a time', () => {
    const [a, , c] = queue('a', 'b', 'c');
    const out = t.store.outbox;
    out.move(c.seq, 'first');
    out.move(a.seq, 'last');
    const now = t.clock.now();
    const sent: (string | undefined)[] = [];
    for (let claimed = out.claimNext(ACME, now); claimed; claimed = out.claimNext(ACME, now)) {
      sent.push(nameOf(claimed));
      expect(out.claimNext(ACME, now)).toBeUndefined();
      out.markSent(claimed.seq);
    }
    expect(sent).toEqual(['c', 'b', 'a']);
  });

  it('a head due later than a moved change: the moved change is the head, due now', () => {
    const [a, b] = queue('a', 'b');
    const out = t.store.outbox;
    const now = t.clock.now();
    out.claimNext(ACME, now);
    out.retryLater(a.seq, now + 60_000, { code: 'RATE_LIMITED', message: 'Too many requests' });
    expect(out.readyLanes(now)).toEqual([]);
    expect(out.nextDueAt()).toBe(now + 60_000);
    out.move(b.seq, 'first');
    expect(out.readyLanes(now)).toEqual([ACME]);
    expect(out.nextDueAt()).toBe(now);
    expect(nameOf(out.claimNext(ACME, now))).toBe('b');
  });

  it('only queued changes move; one in flight stays the head whatever the person moves', () => {
    const [a, b, c] = queue('a', 'b', 'c');
    const out = t.store.outbox;
    const now = t.clock.now();
    out.claimNext(ACME, now);
    expect(() => out.move(a.seq, 'last')).toThrow(/Only a queued change can be moved: it is being sent right now/);
    // Before it is the same as first: among the queued ones, behind the item in flight.
    expect(() => out.move(c.seq, { before: a.seq })).toThrow(/cannot go before that change: it is being sent/);
    out.move(c.seq, 'first');
    expect(laneOrder()).toEqual(['a', 'c', 'b']);
    out.markUncertain(a.seq, { code: 'UNKNOWN', message: 'No answer came back' });
    expect(() => out.move(a.seq, 'down')).toThrow(/its answer was lost and the service is being checked/);
    expect(out.head(ACME)?.seq).toBe(a.seq);
    expect(out.claimNext(ACME, now)).toBeUndefined();
    expect(out.uncertainHeads().map((i) => i.seq)).toEqual([a.seq]);
    out.markSent(a.seq, { id: '501' });
    expect(() => out.move(a.seq, 'first')).toThrow(/it has already been sent/);
    expect(nameOf(out.claimNext(ACME, now))).toBe('c');
    out.markFailed(c.seq, { code: 'REFUSED', message: 'name cannot be empty' });
    expect(() => out.move(c.seq, 'first')).toThrow(/the service refused it; Retry puts it back in the queue/);
    expect(nameOf(out.claimNext(ACME, now))).toBe('b');
    out.markBlocked(b.seq, { code: 'PAST_SCHEDULE', message: 'The scheduled time has passed' });
    expect(() => out.move(b.seq, 'first')).toThrow(/it needs a fix first/);
    expect(() => out.move(99_999, 'first')).toThrow(/No outbox item 99999/);
  });

  it('a refused change queued again does not overtake the change in flight placed after it', () => {
    const [a, b] = queue('a', 'b');
    const out = t.store.outbox;
    const now = t.clock.now();
    out.claimNext(ACME, now);
    out.markFailed(a.seq, { code: 'REFUSED', message: 'name cannot be empty' });
    out.claimNext(ACME, now);
    out.markUncertain(b.seq, { code: 'UNKNOWN', message: 'No answer came back' });
    // Retry by hand: a goes back to the queue at its old place, before b, but b must be settled first.
    out.requeue(a.seq);
    expect(laneOrder()).toEqual(['b', 'a']);
    expect(out.claimNext(ACME, now)).toBeUndefined();
    expect(out.uncertainHeads().map((i) => i.seq)).toEqual([b.seq]);
    out.markSent(b.seq);
    expect(nameOf(out.claimNext(ACME, now))).toBe('a');
  });

  it('what the Outbox says of each change follows the order: "next to send", then its turn behind the others', () => {
    const [a, b, c] = queue('a', 'b', 'c');
    const out = t.store.outbox;
    // Nothing held by a rate limit: an idle scheduler's snapshot.
    const scheduler = new RateLimitScheduler({ clock: new ManualClock(t.clock.now()) });
    const waits = () =>
      outboxWaits({
        now: t.clock.now(),
        items: out.list({ states: ['queued', 'sending', 'uncertain'] }),
        connection: () => 'online',
        rateAccount: (i) => i.accountId,
        snapshot: scheduler.snapshot(),
      }).map((w) => [nameOf(out.get(w.seq)), w.reason, w.ahead]);
    out.claimNext(ACME, t.clock.now());
    out.move(c.seq, 'first');
    expect(waits()).toEqual([
      ['a', 'sending', 0],
      ['c', 'turn', 1],
      ['b', 'turn', 2],
    ]);
    out.markSent(a.seq);
    expect(waits()).toEqual([
      ['c', 'next', 0],
      ['b', 'turn', 1],
    ]);
    out.move(b.seq, { before: c.seq });
    expect(waits()).toEqual([
      ['b', 'next', 0],
      ['c', 'turn', 1],
    ]);
  });

  it('moves stay within the account: other lanes keep their order, and a change cannot go before another account’s', () => {
    const [a, b] = queue('a', 'b');
    const g1 = t.store.outbox.enqueue({ ...GLOBEX, ...create('g1') });
    t.store.outbox.enqueue({ ...GLOBEX, ...create('g2') });
    t.store.outbox.move(b.seq, 'first');
    expect(laneOrder()).toEqual(['b', 'a']);
    expect(laneOrder(GLOBEX)).toEqual(['g1', 'g2']);
    expect(() => t.store.outbox.move(a.seq, { before: g1.seq })).toThrow(/only be moved among the queued changes of its own account/);
    expect(laneOrder()).toEqual(['b', 'a']);
  });
});
