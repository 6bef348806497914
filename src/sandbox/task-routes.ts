// Push tasks (spec 4.6, DECISIONS sandbox 7 and 8): listing (a bare array unless the
// task_list_wrapper or empty_as_object variant wraps it), and updating or cancelling a scheduled task while it is
// still in the future.
import {
  MALFORMED_MESSAGE,
  NOT_AUTHORIZED_APP_MESSAGE,
  taskUpdateProblems,
  taskUpdateSchema,
  type TaskUpdate,
} from '../shared/domain/push';
import { answer, taskAnswer, writeAnswer } from './answers';
import { authenticate } from './bearer';
import type { SandboxCore } from './core';
import { apiError, type Reply, type RequestContext, type Route } from './http';
import { readJsonBody } from './push-routes';
import { cdnUrl, setExecutionTime, setTaskUpdateTime, type StoredTask, type TaskRecord } from './records';
import type { ClientRec } from './state';
import { isServiceTime, TIME_RANGE_MESSAGE } from './timestamps';

const err = (core: SandboxCore, status: number, message: string): Reply => apiError(core.variants, 'push', status, message);

export const ONLY_FUTURE_MESSAGE = 'Only future scheduled tasks can be updated or deleted';
const LIST_PARAMS = new Set(['tagId', 'taskType']);

function listTasks(core: SandboxCore, ctx: RequestContext): Reply {
  const auth = authenticate(core, ctx, 'push');
  if (auth.reply) return auth.reply;
  for (const key of new Set(ctx.query.keys())) {
    if (!LIST_PARAMS.has(key)) return err(core, 400, `Unknown parameter ${key.slice(0, 100)}`);
    if (ctx.query.getAll(key).length > 1) return err(core, 400, `Parameter ${key} must not be repeated`);
  }
  const tagId = ctx.query.get('tagId');
  if (tagId === null || tagId === '') return err(core, 400, 'tagId is required');
  if (!/^\d+$/.test(tagId)) return err(core, 400, 'tagId must be an application ID (digits)');
  const taskType = ctx.query.get('taskType');
  if (taskType !== null && taskType !== 'immediate' && taskType !== 'scheduled') {
    return err(core, 400, 'taskType must be immediate or scheduled');
  }
  if (!core.world.apps.has(tagId) || !auth.client.apps.has(tagId)) return err(core, 403, NOT_AUTHORIZED_APP_MESSAGE);
  core.world.settleDueTasks(ctx.now);
  // listing_lag_ms: a new task reaches the listing some time after it was created.
  const lag = core.variants.listing_lag_ms ?? 0;
  const listed = (t: StoredTask) => lag === 0 || t.createdAtMs === undefined || ctx.now >= t.createdAtMs + lag;
  const tasks = (core.world.tasksByApp.get(tagId) ?? []).filter((t) => (taskType === null || t.record.taskType === taskType) && listed(t));
  const records = tasks.map((t) => taskAnswer(t.record, core.variants));
  return answer(core.variants, 200, taskListBody(core.variants, records));
}

/**
 * The spec does not show the wrapper (4.6 note 2): a bare array by default, or the array under the
 * key (or the two nested keys) the task_list_wrapper variant names, with its count beside it; `{}`
 * for no tasks under empty_as_object.
 */
function taskListBody(variants: SandboxCore['variants'], records: unknown[]): unknown {
  if (records.length === 0 && variants.empty_as_object) return {};
  const wrapper = variants.task_list_wrapper;
  if (wrapper === undefined) return records;
  const [outer, inner] = wrapper.split('.');
  const list = { [inner ?? outer]: records, count: records.length };
  return inner === undefined ? list : { [outer]: list };
}

type Found = { task: StoredTask; client: ClientRec; reply?: undefined } | { reply: Reply };

/** Shared by PATCH and DELETE: 401, then 400 for a bad id, 404 unknown, 403 not granted. */
function findTask(core: SandboxCore, ctx: RequestContext, rawId: string): Found {
  const auth = authenticate(core, ctx, 'push');
  if (auth.reply) return { reply: auth.reply };
  if (!/^\d{1,40}$/.test(rawId)) return { reply: err(core, 400, 'taskId must be numeric') };
  const task = core.world.tasks.get(BigInt(rawId));
  if (task === undefined) return { reply: err(core, 404, 'Task not found') };
  if (!auth.client.apps.has(task.appId)) return { reply: err(core, 403, NOT_AUTHORIZED_APP_MESSAGE) };
  return { task, client: auth.client };
}

function isFutureScheduled(t: StoredTask, now: number): boolean {
  return t.record.taskType === 'scheduled' && t.record.taskStatus === 'pending' && t.record.executionTime > now;
}

/** The task as the update leaves it: a new record, so that nothing is touched until it is whole. */
function updated(core: SandboxCore, r: TaskRecord, u: TaskUpdate, now: number): TaskRecord {
  const next: TaskRecord = { ...r };
  if (u.title !== undefined) next.title = u.title;
  if (u.performer !== undefined) next.performer = u.performer;
  if (u.itemDescription !== undefined) next.itemDescription = u.itemDescription;
  if (u.userTimeZone !== undefined) next.userTimeZone = u.userTimeZone;
  if (u.thumbnailUrl !== undefined) next.thumbnailUrl = cdnUrl(core.cdnBase, u.thumbnailUrl, 480);
  if (u.icon !== undefined) next.iconUrl = cdnUrl(core.cdnBase, u.icon, 192);
  if (u.executionTime !== undefined) setExecutionTime(next, u.executionTime);
  setTaskUpdateTime(next, now);
  return next;
}

function updateTask(core: SandboxCore, ctx: RequestContext, rawId: string): Reply {
  const found = findTask(core, ctx, rawId);
  if (found.reply) return found.reply;
  const body = readJsonBody(core, ctx);
  if (body.reply) return body.reply;
  const parsed = taskUpdateSchema.safeParse(body.value);
  if (!parsed.success) return err(core, 400, MALFORMED_MESSAGE);
  const u = parsed.data;
  if (u.executionTime !== undefined && !isServiceTime(u.executionTime)) return err(core, 400, TIME_RANGE_MESSAGE);
  core.world.settleDueTasks(ctx.now);
  if (!isFutureScheduled(found.task, ctx.now)) return err(core, 400, ONLY_FUTURE_MESSAGE);
  // The spec does not say which update fields are required (4.6 note 3); a service may insist on
  // knowing who made the change, as it does for a send.
  if (core.variants.update_requires_performer && (u.performer === undefined || u.performer.trim() === '')) {
    return err(core, 400, 'performer cannot be empty');
  }
  const problems = taskUpdateProblems(u, ctx.now);
  if (problems.length > 0) return err(core, 400, problems[0].message);
  // All-or-nothing (DECISIONS sandbox 12): the whole new record first, then one assignment.
  Object.assign(found.task.record, updated(core, found.task.record, u, ctx.now));
  return writeAnswer(core.variants, answer(core.variants, 200, 'Task updated'));
}

function cancelTask(core: SandboxCore, ctx: RequestContext, rawId: string): Reply {
  const found = findTask(core, ctx, rawId);
  if (found.reply) return found.reply;
  core.world.settleDueTasks(ctx.now);
  if (!isFutureScheduled(found.task, ctx.now)) return err(core, 400, ONLY_FUTURE_MESSAGE);
  found.task.record.taskStatus = 'cancelled';
  setTaskUpdateTime(found.task.record, ctx.now);
  return writeAnswer(core.variants, answer(core.variants, 200, 'Task cancelled'));
}

export function taskRoutes(core: SandboxCore): Route[] {
  return [
    { pattern: /^\/epsilon\/task$/, api: 'push', methods: { GET: (ctx) => listTasks(core, ctx) } },
    {
      pattern: /^\/epsilon\/task\/([^/]+)$/,
      api: 'push',
      methods: {
        PATCH: (ctx, p) => updateTask(core, ctx, p[0]),
        DELETE: (ctx, p) => cancelTask(core, ctx, p[0]),
      },
    },
  ];
}
