// push.*: the service's clock, pushes blocked because their time passed (and their one-click
// fix), the default performer and message templates.
import { randomUUID } from 'node:crypto';
import { DeskError } from '../../../shared/errors';
import { pushEventProblems, type PushEvent } from '../../../shared/domain/push';
import { pushDraftPayloadSchema, type BlockedPush, type PushTemplate } from '../../../shared/ipc/contract';
import type { OutboxItem } from '../../store';
import type { CoreContext } from '../context';
import type { HandlersOf } from '../handlers-of';
import { requireProfile } from '../lookups';
import { outboxDto } from '../dto';

/** A blocked scheduled push whose only fault is its time: the kind one click can fix. */
type PushItem = Extract<OutboxItem, { kind: 'send_push' }>;

function isTimePassedPush(item: OutboxItem): item is PushItem {
  return (
    item.kind === 'send_push' && item.state === 'blocked' && item.payload.mode === 'scheduled' && item.lastError?.code === 'TIME_PASSED'
  );
}

function blockedPushDto(item: PushItem): BlockedPush {
  const ev = item.payload.events[0];
  return {
    id: String(item.seq),
    title: ev?.title ?? '',
    executionTime: ev?.executionTime ?? null,
    userTimeZone: ev?.userTimeZone ?? null,
    message: item.lastError?.message ?? '',
  };
}

/** The events of a blocked push with a new time, or made immediate ("send now"). */
export function rescheduledEvents(
  events: readonly PushEvent[],
  when: { kind: 'at'; executionTime: number } | { kind: 'now' },
): PushEvent[] {
  return events.map((ev) => {
    if (when.kind === 'at') return { ...ev, executionTime: when.executionTime };
    const { executionTime: _dropped, ...rest } = ev;
    return rest;
  });
}

export function pushHandlers(ctx: CoreContext): HandlersOf<'push'> {
  const { store, hub, drainer } = ctx;

  const templates = (): PushTemplate[] =>
    store.settings.get('pushTemplates').flatMap((t) => {
      const payload = pushDraftPayloadSchema.partial().safeParse(t.payload);
      return payload.success ? [{ ...t, payload: payload.data }] : [];
    });

  return {
    async 'push.serviceClock'({ profileId }) {
      return { offsetMs: ctx.connections.serviceOffset(profileId) ?? 0 };
    },

    async 'push.blocked'({ profileId, accountId }) {
      return store.outbox
        .list({ profileId, accountId, states: ['blocked'] })
        .filter(isTimePassedPush)
        .map(blockedPushDto);
    },

    async 'push.reschedule'({ id, when }) {
      const seq = Number(id);
      const item = Number.isInteger(seq) ? store.outbox.get(seq) : undefined;
      if (!item) throw new DeskError('not_found', 'This push is no longer in the outbox.');
      if (!isTimePassedPush(item))
        throw new DeskError('conflict', 'Only a scheduled push blocked because its time passed can be given a new time here.');
      const mode = when.kind === 'now' ? 'immediate' : 'scheduled';
      const events = rescheduledEvents(item.payload.events, when);
      const now = ctx.connections.serviceNow(item.profileId);
      const problems = events.flatMap((ev) => pushEventProblems(ev, mode, now));
      if (problems.length > 0) throw new DeskError('validation', problems.map((p) => p.message).join('; '), { problems });
      // The same item, queued again: it keeps its place in the lane and its history.
      const queued = store.outbox.requeue(item.seq, { work: { kind: 'send_push', payload: { mode, events } } });
      const what = when.kind === 'now' ? 'to be sent now' : `for ${new Date(when.executionTime).toISOString()}`;
      ctx.log(queued.profileId, queued.accountId, 'info', 'outbox.fixed', `${outboxDto(queued).summary} queued again ${what}.`);
      hub.emit('outbox.changed', { profileId: queued.profileId, accountId: queued.accountId ?? '' });
      drainer.kick();
      return outboxDto(queued);
    },

    async 'push.defaults'({ profileId }) {
      return { performer: store.settings.get('pushPerformers')[profileId] ?? null };
    },

    async 'push.setDefaultPerformer'({ profileId, performer }) {
      requireProfile(ctx, profileId);
      const all = { ...store.settings.get('pushPerformers') };
      if (performer.trim() === '') delete all[profileId];
      else all[profileId] = performer.trim();
      store.settings.set('pushPerformers', all);
      return { ok: true };
    },

    async 'push.templates'() {
      return templates();
    },

    async 'push.saveTemplate'({ name, payload }) {
      const t: PushTemplate = { id: randomUUID(), name, payload, createdAt: ctx.now() };
      store.settings.set('pushTemplates', [...store.settings.get('pushTemplates'), t]);
      return t;
    },

    async 'push.removeTemplate'({ id }) {
      store.settings.set(
        'pushTemplates',
        store.settings.get('pushTemplates').filter((t) => t.id !== id),
      );
      return { ok: true };
    },
  };
}
