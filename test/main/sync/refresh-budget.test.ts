// A background refresh knows its cost and what is left, and waits rather than take the reads the
// person's own actions need (issue #15, budget awareness). The rule is checked on snapshots shaped
// like the scheduler's (Tier 4 list reads: 2 a second, 15 a minute, 150 an hour).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/main/clock/clock';
import type { BudgetSnapshot, SchedulerSnapshot } from '../../../src/main/ratelimit/scheduler';
import { planBackgroundRefresh, refreshCost, waitForListBudget } from '../../../src/main/sync/refresh-budget';

function snapshot(
  used: { second: number; minute: number; hour: number },
  opts: { interactive?: number; resetInMs?: number } = {},
): SchedulerSnapshot {
  const w = (name: string, quota: number, windowMs: number, u: number) => ({
    name,
    quota,
    windowMs,
    refill: 'sliding_log' as const,
    used: u,
    inFlight: 0,
    nextSlotInMs: u < quota ? 0 : 500,
    resetInMs: opts.resetInMs ?? windowMs,
  });
  const budget: BudgetSnapshot = {
    account: 'bigshop',
    group: 'campaigns.list',
    budget: 'read',
    state: 'known' as BudgetSnapshot['state'],
    windows: [w('second', 2, 1000, used.second), w('minute', 15, 60_000, used.minute), w('hour', 150, 3_600_000, used.hour)],
    blockedForMs: 0,
    inFlight: 0,
    queued: { interactive: opts.interactive ?? 0, background: 0 } as BudgetSnapshot['queued'],
    drainEstimateMs: 0,
  };
  return { at: 0, budgets: [budget], queued: budget.queued, totals: { sent: 0, rateLimited: 0, retried: 0 } };
}

describe('what a refresh costs', () => {
  it('is one read for a service that answers the whole listing, pages of its size when it capped', () => {
    expect(refreshCost(undefined)).toBe(1);
    expect(refreshCost({ total: 100_000, pageSize: null })).toBe(1);
    expect(refreshCost({ total: 10_000, pageSize: 100 })).toBe(100);
  });
});

describe('a background refresh and the read budget', () => {
  it('starts at once when its read fits and leaves the person one', () => {
    expect(planBackgroundRefresh(snapshot({ second: 0, minute: 3, hour: 3 }), 'bigshop', 1)).toEqual({ go: true });
  });

  it('starts when nothing is known of the budget yet', () => {
    expect(planBackgroundRefresh(snapshot({ second: 0, minute: 0, hour: 0 }), 'otheraccount', 1)).toEqual({ go: true });
  });

  it('waits, saying why, when it would take the last read of the minute', () => {
    const plan = planBackgroundRefresh(snapshot({ second: 0, minute: 14, hour: 20 }, { resetInMs: 42_000 }), 'bigshop', 1);
    expect(plan.go).toBe(false);
    if (plan.go) return;
    expect(plan.waitMs).toBe(42_000);
    expect(plan.message).toBe(
      'Waiting 42 s: this refresh needs 1 list read and bigshop has 1 of 15 list reads left this minute; your own actions keep their share.',
    );
  });

  it('waits while the person has requests queued on the same budget', () => {
    const plan = planBackgroundRefresh(snapshot({ second: 0, minute: 1, hour: 1 }, { interactive: 2 }), 'bigshop', 1);
    expect(plan.go).toBe(false);
    if (!plan.go) expect(plan.message).toContain('your own requests to bigshop go first');
  });

  it('does not wait for a window it can never fit in (a capped listing of 100 pages): the scheduler paces it', () => {
    // 100 reads never fit 15 a minute, but they fit the hour: with 60 used of it, it waits there.
    expect(planBackgroundRefresh(snapshot({ second: 0, minute: 14, hour: 0 }), 'bigshop', 100)).toEqual({ go: true });
    const plan = planBackgroundRefresh(snapshot({ second: 0, minute: 0, hour: 60 }, { resetInMs: 600_000 }), 'bigshop', 100);
    expect(plan.go).toBe(false);
    if (!plan.go) expect(plan.message).toContain('needs 100 list reads and bigshop has 90 of 150 list reads left this hour');
  });
});

describe('waiting for the read budget', () => {
  /** Lets promises settle (no time passes on the clock). */
  const settle = () => new Promise<void>((r) => setImmediate(r));

  it('starts when the window has room again, not before, saying why it waits', async () => {
    const clock = new ManualClock(0);
    let snap = snapshot({ second: 0, minute: 14, hour: 20 }, { resetInMs: 42_000 });
    const said: string[] = [];
    let started = false;
    const ctl = new AbortController();
    void waitForListBudget({
      snapshot: () => snap,
      accountId: 'bigshop',
      cost: 1,
      clock,
      signal: ctl.signal,
      stopped: () => false,
      say: (m) => said.push(m),
    }).then(() => (started = true));
    await settle();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^Waiting 42 s:/);
    clock.advance(41_000);
    await settle();
    expect(started).toBe(false);
    snap = snapshot({ second: 0, minute: 0, hour: 20 });
    clock.advance(1_000);
    await settle();
    expect(started).toBe(true);
  });

  it('stops waiting at once when the refresh is cancelled', async () => {
    const ctl = new AbortController();
    const waiting = waitForListBudget({
      snapshot: () => snapshot({ second: 0, minute: 15, hour: 20 }, { resetInMs: 60_000 }),
      accountId: 'bigshop',
      cost: 1,
      clock: new ManualClock(0),
      signal: ctl.signal,
      stopped: () => false,
      say: () => undefined,
    });
    ctl.abort();
    await expect(waiting).rejects.toThrow('cancelled');
  });
});
