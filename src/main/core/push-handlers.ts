// apps.* and tasks.*: reads come from the cache; every change (sw-path, task update or cancel)
// is one outbox item, checked with the shared rules before it is queued and again before it is sent.
import { randomUUID } from 'node:crypto';
import { DeskError } from '../../shared/errors';
import { pushEventProblems, swPathProblems, taskUpdateProblems, type PushEvent, type Task, type TaskUpdate } from '../../shared/domain/push';
import { pushDraftPayloadSchema, type BlockedPush, type DeskHandlers, type PushTemplate } from '../../shared/ipc/contract';
import { checkImage } from '../images/image-check';
import type { EnqueueInput, OutboxItem } from '../store';
import { taskIsFuture } from '../sync/recheck';
import type { CoreContext } from './context';
import { appDto, outboxDto } from './dto';
import { asDeskError } from './errors';

/**
 * What a task update sends: the whole editable record, the cached task merged with the person's
 * change (DECISIONS client 11), because the spec does not say which fields an update requires and
 * a service may refuse one without, say, its performer. Images are the exception: a listing gives
 * them as image-CDN addresses (spec 2.6), and sending those back would have the service wrap a
 * CDN address in another, so they go only when the person changed them.
 */
export function wholeTaskUpdate(task: Task, patch: TaskUpdate): TaskUpdate {
  const update: TaskUpdate = {};
  if (typeof task.title === 'string') update.title = task.title;
  if (typeof task.performer === 'string') update.performer = task.performer;
  if (typeof task.executionTime === 'number' && Number.isInteger(task.executionTime)) update.executionTime = task.executionTime;
  if (task.userTimeZone === 0 || task.userTimeZone === 1) update.userTimeZone = task.userTimeZone;
  if (typeof task.itemDescription === 'string') update.itemDescription = task.itemDescription;
  return { ...update, ...patch };
}

/** Why apps.list has none to show, as the error the window shows in their place. */
function appsUnknown(failure: unknown): unknown {
  const e = asDeskError(failure);
  if (!(e instanceof DeskError)) return new DeskError('internal', 'The applications of this connection could not be fetched; see the activity log.');
  if (e.code === 'offline' || e.code === 'unauthorized' || e.code === 'cancelled') return e;
  return new DeskError(e.code, `The applications of this connection could not be fetched: ${e.message}`, e.details);
}

type PushHandlers = Pick<
  DeskHandlers,
  | 'apps.list'
  | 'apps.setSwPath'
  | 'tasks.list'
  | 'tasks.refresh'
  | 'tasks.update'
  | 'tasks.cancel'
  | 'push.serviceClock'
  | 'push.blocked'
  | 'push.reschedule'
  | 'push.defaults'
  | 'push.setDefaultPerformer'
  | 'push.templates'
  | 'push.saveTemplate'
  | 'push.removeTemplate'
  | 'images.check'
>;

/** A blocked scheduled push whose only fault is its time: the kind one click can fix. */
type PushItem = Extract<OutboxItem, { kind: 'send_push' }>;

function isTimePassedPush(item: OutboxItem): item is PushItem {
  return item.kind === 'send_push' && item.state === 'blocked' && item.payload.mode === 'scheduled' && item.lastError?.code === 'TIME_PASSED';
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
export function rescheduledEvents(events: readonly PushEvent[], when: { kind: 'at'; executionTime: number } | { kind: 'now' }): PushEvent[] {
  return events.map((ev) => {
    if (when.kind === 'at') return { ...ev, executionTime: when.executionTime };
    const { executionTime: _dropped, ...rest } = ev;
    return rest;
  });
}

export function pushHandlers(ctx: CoreContext): PushHandlers {
  const { store, hub, drainer } = ctx;

  const enqueue = (input: EnqueueInput): OutboxItem => {
    if (!store.accounts.get({ profileId: input.profileId, accountId: input.accountId ?? '' })) {
      throw new DeskError('not_found', `Account ${input.accountId ?? ''} is not added to this connection.`);
    }
    const item = store.outbox.enqueue(input);
    ctx.log(item.profileId, item.accountId, 'info', 'outbox.queued', `${outboxDto(item).summary} queued.`);
    hub.emit('outbox.changed', { profileId: item.profileId, accountId: item.accountId ?? '' });
    drainer.kick();
    return item;
  };

  const futureTask = (profileId: string, taskId: string): Task => {
    const task = store.tasks.get(profileId, taskId);
    if (!task) throw new DeskError('not_found', `Task ${taskId} is not in the task list. Refresh the tasks of its application first.`);
    if (!taskIsFuture(task, ctx.now())) {
      throw new DeskError('conflict', `Task ${taskId} is no longer a future scheduled task (it is ${task.taskStatus}); it cannot be changed.`);
    }
    return task;
  };

  /** "Now" as the service sees it (DECISIONS client 10): the computer's clock plus the learned offset. */
  const serviceOffset = (profileId: string): number => {
    try {
      return ctx.connections.client(profileId).serviceClock.offsetMs() ?? 0;
    } catch {
      return 0;
    }
  };

  const templates = (): PushTemplate[] =>
    store.settings.get('pushTemplates').flatMap((t) => {
      const payload = pushDraftPayloadSchema.partial().safeParse(t.payload);
      return payload.success ? [{ ...t, payload: payload.data }] : [];
    });

  return {
    async 'apps.list'({ profileId }) {
      if (!store.profiles.get(profileId)) throw new DeskError('not_found', 'This connection no longer exists. Pick another one.');
      // None cached (a connection just added, or its first fetch failed): fetched once, not at every look.
      const { failure } = await ctx.refresher.appsWanted(profileId);
      if (failure !== null) throw appsUnknown(failure);
      return store.apps.list(profileId).map(appDto);
    },

    async 'apps.setSwPath'({ profileId, accountId, appId, serviceWorkerPath, performer }) {
      const payload = { containerId: appId, serviceWorkerPath, performer };
      const problems = swPathProblems(payload);
      if (problems.length > 0) throw new DeskError('validation', problems.map((p) => p.message).join('; '), { problems });
      return outboxDto(enqueue({ profileId, accountId, kind: 'set_sw_path', payload }));
    },

    async 'tasks.list'({ profileId, appId, taskType }) {
      return store.tasks.list(profileId, appId).filter((t) => taskType === undefined || t.taskType === taskType);
    },

    async 'tasks.refresh'({ profileId, appId }) {
      if (!store.profiles.get(profileId)) throw new DeskError('not_found', 'This connection no longer exists.');
      if (!ctx.connections.canUse(profileId)) {
        throw new DeskError('offline', 'The service cannot be reached now (or you work offline); showing the last synced tasks.');
      }
      await ctx.refresher.refreshTasks(profileId, appId, 'interactive');
      return { ok: true };
    },

    async 'tasks.update'({ profileId, accountId, taskId, patch }) {
      const task = futureTask(profileId, taskId);
      const update = wholeTaskUpdate(task, patch);
      const problems = taskUpdateProblems(update, ctx.now());
      if (problems.length > 0) throw new DeskError('validation', problems.map((p) => p.message).join('; '), { problems });
      return outboxDto(enqueue({ profileId, accountId, kind: 'update_task', payload: { appId: task.tagId, taskId, update } }));
    },

    async 'tasks.cancel'({ profileId, accountId, taskId }) {
      const task = futureTask(profileId, taskId);
      return outboxDto(enqueue({ profileId, accountId, kind: 'cancel_task', payload: { appId: task.tagId, taskId } }));
    },

    async 'push.serviceClock'({ profileId }) {
      return { offsetMs: serviceOffset(profileId) };
    },

    async 'push.blocked'({ profileId, accountId }) {
      return store.outbox.list({ profileId, accountId, states: ['blocked'] }).filter(isTimePassedPush).map(blockedPushDto);
    },

    async 'push.reschedule'({ id, when }) {
      const seq = Number(id);
      const item = Number.isInteger(seq) ? store.outbox.get(seq) : undefined;
      if (!item) throw new DeskError('not_found', 'This push is no longer in the outbox.');
      if (!isTimePassedPush(item)) throw new DeskError('conflict', 'Only a scheduled push blocked because its time passed can be given a new time here.');
      const mode = when.kind === 'now' ? 'immediate' : 'scheduled';
      const events = rescheduledEvents(item.payload.events, when);
      const now = ctx.now() + serviceOffset(item.profileId);
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
      if (!store.profiles.get(profileId)) throw new DeskError('not_found', 'This connection no longer exists.');
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
      store.settings.set('pushTemplates', store.settings.get('pushTemplates').filter((t) => t.id !== id));
      return { ok: true };
    },

    async 'images.check'({ url, role }) {
      return checkImage(url, role);
    },
  };
}
