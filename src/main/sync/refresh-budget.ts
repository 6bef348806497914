// Budget awareness of a background refresh: what it will cost in list reads, what the service's
// read budget for the account has left (the scheduler's live model), and whether starting now
// would take the reads the person's own actions need, and the wait until it would not. A manual
// refresh is never held back.
import type { Clock } from '../clock/clock';
import type { SchedulerSnapshot } from '../ratelimit/scheduler';

/** Reads kept free in every window for the person's own look-ups while a background refresh runs. */
export const RESERVED_READS = 1;

/** How long to wait before looking again when the model cannot say when a read fits. */
export const RECHECK_MS = 1000;

/**
 * List reads a refresh of the account costs: 1 when the service answers the whole listing in one
 * request; when it capped the last answer, the pages of that size its total needs.
 */
export function refreshCost(last: { total: number; pageSize: number | null } | undefined): number {
  if (!last || last.pageSize === null || last.pageSize <= 0) return 1;
  return Math.max(1, Math.ceil(last.total / last.pageSize));
}

export type RefreshPlan = { go: true } | { go: false; waitMs: number; message: string };

/**
 * Start now, or wait: a background refresh waits while the person's own requests queue on the
 * account's list budget, or while its cost (plus RESERVED_READS) does not fit what some window has
 * left although it would fit that window when full. A cost larger than a whole window is not
 * waited for (it never fits): the scheduler paces it, the person's requests going first.
 */
export function planBackgroundRefresh(snap: SchedulerSnapshot, accountId: string, cost: number): RefreshPlan {
  const budget = snap.budgets.find((b) => b.account === accountId && b.group === 'campaigns.list' && b.budget === 'read');
  // Nothing learned about this budget yet: the first answer will teach it.
  if (!budget) return { go: true };
  const reads = cost === 1 ? '1 list read' : `${cost} list reads`;
  if (budget.queued.interactive > 0) {
    return {
      go: false,
      waitMs: RECHECK_MS,
      message: `Waiting: your own requests to ${accountId} go first; this refresh (${reads}) starts after them.`,
    };
  }
  let waitMs = 0;
  let tightest: { name: string; left: number; quota: number } | null = null;
  for (const w of budget.windows) {
    if (cost + RESERVED_READS > w.quota) continue;
    const left = w.quota - w.used;
    if (cost + RESERVED_READS <= left) continue;
    waitMs = Math.max(waitMs, w.resetInMs ?? w.nextSlotInMs ?? RECHECK_MS);
    if (!tightest || left < tightest.left) tightest = { name: w.name, left, quota: w.quota };
  }
  if (budget.blockedForMs > 0) waitMs = Math.max(waitMs, budget.blockedForMs);
  if (waitMs === 0) return { go: true };
  const why = tightest
    ? `${accountId} has ${Math.max(0, tightest.left)} of ${tightest.quota} list reads left this ${tightest.name}`
    : `the service asked to wait before the next list read of ${accountId}`;
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    go: false,
    waitMs: Math.max(waitMs, 50),
    message: `Waiting ${seconds} s: this refresh needs ${reads} and ${why}; your own actions keep their share.`,
  };
}

/**
 * Until the account's list budget has room for a background refresh of `cost` reads and the
 * person's own reads, saying each time why it waits; throws once `signal` aborts or `stopped()`.
 */
export async function waitForListBudget(opts: {
  /** The scheduler's model now (asked again after each wait). */
  snapshot: () => SchedulerSnapshot;
  accountId: string;
  cost: number;
  clock: Clock;
  signal: AbortSignal;
  stopped: () => boolean;
  say: (message: string) => void;
}): Promise<void> {
  const { clock, signal } = opts;
  for (;;) {
    const plan = planBackgroundRefresh(opts.snapshot(), opts.accountId, opts.cost);
    if (plan.go) return;
    opts.say(plan.message);
    await new Promise<void>((resolve) => {
      const timer = clock.setTimer(done, plan.waitMs);
      signal.addEventListener('abort', done, { once: true });
      function done() {
        timer.cancel();
        signal.removeEventListener('abort', done);
        resolve();
      }
    });
    if (signal.aborted || opts.stopped()) throw new Error('cancelled');
  }
}
