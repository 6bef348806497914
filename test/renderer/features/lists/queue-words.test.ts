import { describe, expect, it } from 'vitest';
import { accountCounts, accountWaits, attentionWords, headWords, queuedWords } from '../../../../src/renderer/features/lists/queue-words';
import { tightestWords } from '../../../../src/renderer/features/shell/status-bar';
import type { AccountLimits, OutboxCount, OutboxWait } from '../../../../src/shared/ipc/contract';

const ref = { profileId: 'p1', accountId: 'acme' };
const count = (state: OutboxCount['state'], n: number): OutboxCount => ({ ...ref, state, count: n });
const wait = (w: Partial<OutboxWait>): OutboxWait => ({
  id: '1',
  ...ref,
  reason: 'next',
  until: null,
  ahead: 0,
  window: null,
  lastTry: null,
  ...w,
});
const NOW = Date.UTC(2026, 10, 28, 5, 0, 0);

describe('the queue in words, from the outbox counts and waits', () => {
  it('counts as queued what is on its way, and says failed and blocked apart', () => {
    const c = accountCounts(
      [count('queued', 1), count('uncertain', 1), count('failed', 1), count('blocked', 2), { ...count('queued', 5), accountId: 'other' }],
      ref,
    );
    expect(c).toEqual({ onTheWay: 2, checking: 1, failed: 1, blocked: 2 });
    expect(queuedWords(c.onTheWay)).toBe('2 queued');
    expect(attentionWords(c)).toBe('1 failed, 2 blocked');
    expect(attentionWords({ failed: 0, blocked: 0 })).toBeNull();
  });

  it('never says "all sent now" while the first change is being checked on the service', () => {
    const waits = [wait({ id: '2', reason: 'turn', ahead: 1 })];
    expect(headWords({ onTheWay: 2, checking: 1 }, waits, 'online', NOW)).toBe(
      'checking on the service whether one arrived before sending more',
    );
  });

  it('says the hour limit and the clock time it sends at, and counts a short wait down in seconds', () => {
    const hour = { group: 'campaigns', name: 'hour', used: 2, quota: 2, windowMs: 3_600_000, nextSlotAt: NOW + 14 * 60_000 };
    const held = [wait({ reason: 'rate_limit', until: NOW + 14 * 60_000, window: hour })];
    expect(headWords({ onTheWay: 1, checking: 0 }, held, 'online', NOW)).toMatch(/^waiting for the hour limit, sends at \d\d:\d\d$/);
    const second = [wait({ reason: 'rate_limit', until: NOW + 43_000, window: { ...hour, name: 'second', windowMs: 1_000 } })];
    expect(headWords({ onTheWay: 1, checking: 0 }, second, 'online', NOW)).toBe('waiting for the second limit, sends in 43 s');
    expect(headWords({ onTheWay: 1, checking: 0 }, second, 'online', NOW + 1_000)).toBe('waiting for the second limit, sends in 42 s');
    expect(headWords({ onTheWay: 1, checking: 0 }, second, 'working_offline', NOW)).toBe('nothing is sent while working offline');
  });

  it('takes the head of the account from the waits of every account', () => {
    const all = { a: wait({ id: 'a', ahead: 1 }), b: wait({ id: 'b', ahead: 0 }), c: wait({ id: 'c', accountId: 'other' }) };
    expect(accountWaits(all, ref).map((w) => w.id)).toEqual(['b', 'a']);
  });
});

describe('the tightest rate-limit window, from the Limits picture', () => {
  const budget = (
    model: AccountLimits['budgets'][number]['model'],
    windows: [number, number, number][],
  ): AccountLimits['budgets'][number] => ({
    group: 'campaigns',
    budget: 'write',
    model,
    waiting: 0,
    blockedForMs: 0,
    windows: windows.map(([quota, used, windowMs]) => ({
      name: String(windowMs),
      quota,
      used,
      windowMs,
      resetInMs: 0,
      nextSlotInMs: 0,
      holding: false,
    })),
  });
  const limits = (budgets: AccountLimits['budgets']): AccountLimits => ({ accountId: 'acme', queued: 0, drainEstimateMs: null, budgets });

  it('says nothing is known before the service has answered, not "not rate limited"', () => {
    expect(tightestWords(undefined)).toBe('Rate limits not known yet');
    expect(tightestWords(limits([]))).toBe('Rate limits not known yet');
    expect(tightestWords(limits([budget('guess', [[10, 0, 1_000]])]))).toBe('Rate limits not known yet');
  });

  it('names the window with the smallest share left, in the Limits tab words, or that the account is not limited', () => {
    expect(
      tightestWords(
        limits([
          budget('learned', [
            [10, 1, 1_000],
            [60, 50, 60_000],
          ]),
        ]),
      ),
    ).toBe('Create campaigns (writes): 10 of 60 per minute left');
    expect(tightestWords(limits([budget('unlimited', [])]))).toBe('Not rate limited');
  });

  it('takes a window refilled since the picture for full, and of two empty windows names the one that refills last', () => {
    const reads: AccountLimits['budgets'][number] = {
      ...budget('learned', [[2, 2, 1_000]]),
      group: 'campaigns.list',
      budget: 'read',
    };
    reads.windows[0].resetInMs = 800;
    const writes = budget('learned', [[2, 2, 3_600_000]]);
    writes.windows[0].resetInMs = 3_000_000;
    // Both empty when the picture was taken: the hour's is what the person waits for.
    expect(tightestWords(limits([reads, writes]))).toBe('Create campaigns (writes): 0 of 2 per hour left');
    // A second later the reads' window is full again, with no new picture.
    expect(tightestWords(limits([reads]), 1_000)).toBe('List campaigns (reads): 2 of 2 per second left');
    expect(tightestWords(limits([reads]), 500)).toBe('List campaigns (reads): 0 of 2 per second left');
  });
});
