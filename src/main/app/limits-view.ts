// The rate-limit view's picture of one connection: for each of its accounts, every budget the
// scheduler has modelled since start-up (endpoint group x read/write) with its windows, which one
// holds waiting work back, and how long the account's queued changes would take to go out. Built
// from the scheduler's live model at the moment it is asked; nothing here is stored.
import type { AccountLimits, LimitBudget, LimitWindow, LimitsView } from '../../shared/ipc/contract';
import type { BudgetKey, BudgetSnapshot, RateLimitScheduler } from '../ratelimit/scheduler';
import { pushBudgetAccount } from '../ratelimit/tiers';
import type { OutboxItem, Store } from '../store';

export interface LimitsInputs {
  store: Store;
  scheduler: RateLimitScheduler;
}

/** The write budget of a client's push work. */
const pushBudgetOf = (clientId: string): BudgetKey => ({ account: pushBudgetAccount(clientId), group: 'push', budget: 'write' });

/** The budget an outbox item's request draws from: campaigns are the account's, push work the client's. */
export function budgetOf(item: OutboxItem, clientId: string): BudgetKey {
  if (item.kind === 'create_campaign') return { account: item.accountId ?? '', group: 'campaigns', budget: 'write' };
  return pushBudgetOf(clientId);
}

const keyOf = (k: BudgetKey) => `${k.account}\u0000${k.group}\u0000${k.budget}`;

/**
 * The window that keeps the budget's waiting work from going out: the one a request fits last
 * (an unanswered request counts as never, until its answer comes). None when one fits now.
 */
function holdingWindow(b: BudgetSnapshot): string | null {
  let worst: string | null = null;
  let worstIn = 0;
  for (const w of b.windows) {
    const inMs = w.nextSlotInMs ?? Infinity;
    if (inMs > worstIn) {
      worstIn = inMs;
      worst = w.name;
    }
  }
  return worst;
}

function budgetView(b: BudgetSnapshot, workWaits: boolean): LimitBudget {
  const waiting = b.queued.interactive + b.queued.outbox + b.queued.background;
  const holding = workWaits || waiting > 0 ? holdingWindow(b) : null;
  const windows: LimitWindow[] = b.windows.map((w) => ({
    name: w.name,
    quota: w.quota,
    used: w.used,
    windowMs: w.windowMs,
    resetInMs: w.resetInMs,
    nextSlotInMs: w.nextSlotInMs,
    holding: w.name === holding,
  }));
  return { group: b.group, budget: b.budget, model: b.state, windows, waiting, blockedForMs: b.blockedForMs };
}

/**
 * Until `n` requests of a budget would have gone out: null when its limits are not known yet (not
 * used since start-up, or no answer with rate-limit headers so far).
 */
function drainOf(scheduler: RateLimitScheduler, key: BudgetKey, n: number): number | null {
  const e = scheduler.estimate(key, n);
  return e === null || e.state === 'guess' ? null : e.drainMs;
}

export function limitsView({ store, scheduler }: LimitsInputs, profileId: string): LimitsView {
  const profile = store.profiles.get(profileId);
  const snap = scheduler.snapshot();
  if (!profile) return { at: snap.at, accounts: [], push: [] };
  const pending = store.outbox.list({ profileId, states: ['queued', 'sending'] });
  const accounts: AccountLimits[] = store.accounts.list(profileId).map((a) => {
    const mine = pending.filter((i) => i.accountId === a.accountId);
    const perBudget = new Map<string, { key: BudgetKey; n: number }>();
    for (const item of mine) {
      const key = budgetOf(item, profile.clientId);
      const entry = perBudget.get(keyOf(key)) ?? { key, n: 0 };
      entry.n++;
      perBudget.set(keyOf(key), entry);
    }
    let drain: number | null = 0;
    for (const { key, n } of perBudget.values()) {
      const d = drainOf(scheduler, key, n);
      drain = d === null || drain === null ? null : Math.max(drain, d);
    }
    const budgets = snap.budgets.filter((b) => b.account === a.accountId).map((b) => budgetView(b, perBudget.has(keyOf(b))));
    return { accountId: a.accountId, queued: mine.length, drainEstimateMs: drain, budgets };
  });
  const pushKey = pushBudgetOf(profile.clientId);
  const pushWaits = pending.some((i) => i.kind !== 'create_campaign');
  const push = snap.budgets
    .filter((b) => b.account === pushKey.account)
    .map((b) => budgetView(b, pushWaits && b.budget === pushKey.budget));
  return { at: snap.at, accounts, push };
}
