// app.info, ratelimit.state, activity.list and outbox.waits: what the status bar and the activity tab show.
import type { DeskHandlers, RateLimitState } from '../../../shared/ipc/contract';
import type { CoreContext } from '../context';
import { demoState } from '../demo';
import { activityDto } from '../dto';
import { outboxWaits } from '../../sync/outbox-wait';
import { budgetOf, limitsView } from '../limits-view';
import { pushBudgetAccount } from '../../ratelimit/tiers';
import { ON_THE_WAY_STATES, UNSENT_OUTBOX_STATES, type UnsentOutboxState } from '../../../shared/domain/outbox';

type InfoHandlers = Pick<DeskHandlers, 'app.info' | 'ratelimit.state' | 'ratelimit.view' | 'activity.list' | 'outbox.waits' | 'outbox.counts'>;

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

export function infoHandlers(ctx: CoreContext): InfoHandlers {
  return {
    async 'app.info'() {
      return {
        version: ctx.info.version,
        transport: ctx.info.transport,
        secrets: { kind: ctx.secrets.kind, warning: ctx.secrets.warning ?? null },
        demo: demoState(ctx),
      };
    },
    async 'ratelimit.state'({ profileId }) {
      return rateLimitStates(ctx, profileId);
    },
    async 'ratelimit.view'({ profileId }) {
      return limitsView(ctx, profileId);
    },
    async 'outbox.waits'({ profileId }) {
      const profiles = new Map(ctx.store.profiles.list().map((p) => [p.id, p]));
      const items = ctx.store.outbox.list({ ...(profileId === undefined ? {} : { profileId }), states: ON_THE_WAY_STATES });
      const waits = outboxWaits({
        now: ctx.now(),
        items,
        connection: (id) => ctx.connections.view(id).connection,
        // Push work is counted against the client's push budget, campaign work against the account's.
        rateAccount: (item) => {
          const profile = profiles.get(item.profileId);
          return profile === undefined ? null : budgetOf(item, profile.clientId).account;
        },
        snapshot: ctx.scheduler.snapshot(),
      });
      const bySeq = new Map(items.map((i) => [i.seq, i]));
      return waits.map(({ seq, ...w }) => ({ id: String(seq), profileId: bySeq.get(seq)?.profileId ?? '', accountId: bySeq.get(seq)?.accountId ?? '', ...w }));
    },
    async 'outbox.counts'({ profileId }) {
      // Only unsent items are read (no sent history), counted per account and state.
      const counts = new Map<string, { profileId: string; accountId: string; state: UnsentOutboxState; count: number }>();
      for (const item of ctx.store.outbox.list({ ...(profileId === undefined ? {} : { profileId }), states: UNSENT_OUTBOX_STATES })) {
        if (item.state === 'sent') continue;
        const accountId = item.accountId ?? '';
        const key = JSON.stringify([item.profileId, accountId, item.state]);
        const c = counts.get(key) ?? { profileId: item.profileId, accountId, state: item.state, count: 0 };
        c.count++;
        counts.set(key, c);
      }
      return [...counts.values()];
    },
    async 'activity.list'({ profileId, limit }) {
      return ctx.store.activity.list({ ...(profileId === undefined ? {} : { profileId, withAppWide: true }), limit }).map(activityDto);
    },
  };
}
