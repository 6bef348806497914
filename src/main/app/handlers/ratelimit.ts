// ratelimit.*: the budgets the status bar and the Limits tab show, as the scheduler knows them
// from the service's headers.
import type { RateLimitState } from '../../../shared/ipc/contract';
import { pushBudgetAccount } from '../../ratelimit/tiers';
import type { CoreContext } from '../context';
import { limitsView } from '../limits-view';
import type { HandlersOf } from '../handlers-of';

/** The budgets of a profile: its accounts' (campaign API) and its client's push budget. */
export function rateLimitStates(ctx: CoreContext, profileId?: string): RateLimitState[] {
  const snap = ctx.scheduler.snapshot();
  const out: RateLimitState[] = [];
  const profiles = profileId === undefined ? ctx.store.profiles.list() : ctx.store.profiles.list().filter((p) => p.id === profileId);
  for (const p of profiles) {
    const accounts = new Set(ctx.store.accounts.list(p.id).map((a) => a.accountId));
    const push = pushBudgetAccount(p.clientId);
    for (const b of snap.budgets) {
      if (!accounts.has(b.account) && b.account !== push) continue;
      out.push({
        profileId: p.id,
        accountId: b.account === push ? 'push' : b.account,
        group: b.group,
        budget: b.budget,
        limited: b.state !== 'unlimited',
        windows: b.windows.map((w) => ({ name: w.name, quota: w.quota, used: w.used, windowMs: w.windowMs, resetInMs: w.resetInMs ?? 0 })),
        queued: b.queued.interactive + b.queued.outbox + b.queued.background,
        drainEstimateMs: b.drainEstimateMs,
      });
    }
  }
  return out;
}

export function ratelimitHandlers(ctx: CoreContext): HandlersOf<'ratelimit'> {
  return {
    async 'ratelimit.state'({ profileId }) {
      return rateLimitStates(ctx, profileId);
    },
    async 'ratelimit.view'({ profileId }) {
      return limitsView(ctx, profileId);
    },
  };
}
