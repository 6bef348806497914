// retention.*: how many days sent changes and the activity log are kept, set by the person. A
// shorter period prunes at once; the preview says what would go before anything is saved.
import { DeskError } from '../../../shared/errors';
import { daysLabel, retentionSchema, type Retention } from '../../../shared/retention';
import { historyOlderThan, pruneHistory } from '../../sync/retention';
import type { CoreContext } from '../context';
import type { HandlersOf } from '../handlers-of';

/** The days as the person gave them, or a refusal naming the field and its bounds. */
function checked(input: { sentDays: number; activityDays: number }): Retention {
  const r = retentionSchema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new DeskError('validation', issue?.message ?? 'Keep history between 1 and 365 days.', {
    field: String(issue?.path[0] ?? 'sentDays'),
  });
}

export function retentionHandlers(ctx: CoreContext): HandlersOf<'retention'> {
  const { store } = ctx;
  return {
    async 'retention.get'() {
      return store.settings.get('retention');
    },

    async 'retention.preview'(input) {
      return historyOlderThan(store, checked(input), ctx.now());
    },

    async 'retention.set'(input) {
      const next = checked(input);
      store.settings.set('retention', next);
      const removed = pruneHistory(store, next, ctx.now());
      ctx.log(
        null,
        null,
        'info',
        'retention.changed',
        `History is now kept for ${daysLabel(next.sentDays)} (sent changes) and ${daysLabel(next.activityDays)} (activity log)${
          removed.sent + removed.activity > 0
            ? `; ${removed.sent} sent changes and ${removed.activity} activity entries older than that were removed`
            : ''
        }.`,
      );
      // The Outbox's history and the Activity tab read again what is left.
      if (removed.sent > 0) for (const p of store.profiles.list()) ctx.hub.emit('outbox.changed', { profileId: p.id, accountId: '' });
      if (removed.activity > 0) ctx.hub.emit('data.changed', { profileId: null, accountId: null, what: 'activity' });
      return { retention: next, removed };
    },
  };
}
