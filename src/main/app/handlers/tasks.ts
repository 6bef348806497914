// tasks.*: the task list comes from the cache (a first look at an app has its tasks read from the
// service, the cache answering at once); an update or a cancel of a future task is one outbox
// item, checked with the shared rules before it is queued and again before it is sent.
import { DeskError } from '../../../shared/errors';
import { taskUpdateProblems, type Task, type TaskUpdate } from '../../../shared/domain/push';
import { isServiceValue } from '../../../shared/domain/service-values';
import { taskIsFuture, taskNotFutureWords } from '../../sync/recheck';
import type { ConnectionView } from '../../connections/connection-state';
import type { CoreContext } from '../context';
import type { HandlersOf } from '../handlers-of';
import { requireProfile } from '../lookups';
import { outboxDto } from '../dto';
import { enqueueChange } from '../enqueue-change';

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

/** Why the tasks cannot be read now, by the connection's state: only an offline one "cannot be reached". */
function notRefreshed({ connection, signIn }: ConnectionView): DeskError {
  switch (connection) {
    case 'working_offline':
      return new DeskError('offline', 'You work offline; showing the last synced tasks.');
    case 'signing_in':
      return new DeskError('offline', 'Signing in: the tasks are read once that is done; showing the last synced tasks.');
    case 'failing':
      return new DeskError('unauthorized', `${signIn.message ?? 'Sign in to this connection.'} Showing the last synced tasks.`);
    default:
      return new DeskError('offline', 'The service cannot be reached now; showing the last synced tasks.');
  }
}

export function tasksHandlers(ctx: CoreContext): HandlersOf<'tasks'> {
  const { store } = ctx;

  const futureTask = (profileId: string, taskId: string): Task => {
    const task = store.tasks.get(profileId, taskId);
    if (!task) throw new DeskError('not_found', `Task ${taskId} is not in the task list. Refresh the tasks of its application first.`);
    if (!taskIsFuture(task, ctx.connections.serviceNow(profileId))) {
      throw new DeskError('conflict', `Not changed: ${taskNotFutureWords(taskId, task.taskStatus)}.`);
    }
    return task;
  };

  return {
    async 'tasks.list'({ profileId, appId, taskType }) {
      // The person looks at this app's tasks: read them if not read yet (no read of every app's).
      ctx.refresher.apps.tasksWanted(profileId, appId);
      // The type as the service wrote it, in any case (DECISIONS client 18: "SCHEDULED" is scheduled).
      return store.tasks.list(profileId, appId).filter((t) => taskType === undefined || isServiceValue(t.taskType, taskType));
    },

    async 'tasks.refresh'({ profileId, appId }) {
      requireProfile(ctx, profileId);
      if (!ctx.connections.canUse(profileId)) throw notRefreshed(ctx.connections.view(profileId));
      await ctx.refresher.apps.refreshTasks(profileId, appId, 'interactive');
      return { ok: true };
    },

    async 'tasks.update'({ profileId, accountId, taskId, patch }) {
      const task = futureTask(profileId, taskId);
      const update = wholeTaskUpdate(task, patch);
      const problems = taskUpdateProblems(update, ctx.connections.serviceNow(profileId));
      if (problems.length > 0) throw new DeskError('validation', problems.map((p) => p.message).join('; '), { problems });
      return outboxDto(enqueueChange(ctx, { profileId, accountId, kind: 'update_task', payload: { appId: task.tagId, taskId, update } }));
    },

    async 'tasks.cancel'({ profileId, accountId, taskId }) {
      const task = futureTask(profileId, taskId);
      return outboxDto(enqueueChange(ctx, { profileId, accountId, kind: 'cancel_task', payload: { appId: task.tagId, taskId } }));
    },
  };
}
