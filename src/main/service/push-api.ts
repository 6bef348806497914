// Push operations (spec 4.6). The push API names no account, so its requests draw from one
// budget per client ('push' group): its first request goes alone, and the answer's headers (or
// their absence) tell its limits.
import type { z } from 'zod';
import {
  authAppsSchema,
  pushEventProblems,
  pushEventSchema,
  swPathProblems,
  swPathSchema,
  isTaskLike,
  pickTaskList,
  taskSchema,
  taskUpdateProblems,
  taskUpdateSchema,
  type FoundArray,
  type TASK_TYPES,
  type PushEvent,
  type PushMode,
  type SwPathRequest,
  type Task,
  type TaskUpdate,
} from '../../shared/domain/push';
import type { FieldProblem } from '../../shared/domain/campaign';
import { invalidDraft } from './errors';
import type { HttpResponse } from './http-transport';
import type { CallOptions, CallSpec, RequestExecutor } from './request-executor';
import { RecordArrayScanner, UnreadableBodyError } from './record-arrays';
import { parseJsonBody, unreadableAnswer } from './response-errors';

export interface PushContext {
  exec: RequestExecutor;
  pushUrl: string;
  /** The budget key for push requests. */
  rateAccount: string;
  /** The service's clock, for "in the future" rules. */
  now: () => number;
}

export type TaskType = (typeof TASK_TYPES)[number];

function spec(ctx: PushContext, s: Omit<CallSpec, 'base' | 'rate'>): CallSpec {
  return { ...s, base: ctx.pushUrl, rate: { account: ctx.rateAccount, group: 'push' } };
}

const typeProblems = (issues: z.core.$ZodIssue[], prefix: string): FieldProblem[] =>
  issues.map((i) => ({ field: [prefix, ...i.path.map(String)].filter(Boolean).join('.'), message: i.message }));

/**
 * Push success bodies are a JSON string with no specified meaning (DECISIONS client 4): it is
 * returned for display only, and an answer that is not one is returned as its raw text. The
 * executor has removed the request's token from it (CallSpec.shownAsText).
 */
function acknowledgement(res: HttpResponse): string {
  const v = parseJsonBody(res.body);
  return typeof v === 'string' ? v : res.body.toString('utf8').slice(0, 1000);
}

/** What a push send's answer told: its words, and the tasks it made when it lists them. */
export interface PushAnswer {
  /** For display only (DECISIONS client 4); the answer's raw text when it is not a JSON string. */
  text: string;
  /**
   * Task records the answer holds, read by content as a task list is (DECISIONS client 17): a
   * service may answer a send with the tasks it made, bare or under a key. None for the spec's
   * string, for words that merely name ids, and for an answer whose list cannot be told apart.
   */
  tasks: Task[];
}

/** The one list of task records in an answer already parsed, wherever it is (a bare array, or under a key one or two levels deep). */
function tasksIn(value: unknown): Task[] {
  const arrays: FoundArray[] = [];
  const visit = (v: unknown, path: string, level: number): void => {
    if (Array.isArray(v)) {
      const found: FoundArray = { path, tasks: [], others: 0 };
      for (const el of v) {
        const t = isTaskLike(el) ? taskSchema.safeParse(el) : undefined;
        if (t?.success) found.tasks.push(t.data);
        else found.others++;
      }
      arrays.push(found);
    } else if (typeof v === 'object' && v !== null && level < 2) {
      for (const [k, inner] of Object.entries(v)) visit(inner, path === '' ? k : `${path}.${k}`, level + 1);
    }
  };
  visit(value, '', 0);
  const picked = pickTaskList(arrays);
  return 'tasks' in picked ? picked.tasks : [];
}

export async function authApps(ctx: PushContext, opts: CallOptions = {}): Promise<Record<string, string>> {
  const what = 'list the authorized applications';
  const res = await ctx.exec.call(spec(ctx, { method: 'GET', path: '/epsilon/push/auth-apps', what }), opts);
  const parsed = authAppsSchema.safeParse(parseJsonBody(res.body));
  if (!parsed.success) throw unreadableAnswer(what, res.status);
  return parsed.data;
}

export async function sendPush(ctx: PushContext, mode: PushMode, events: PushEvent[], opts: CallOptions = {}): Promise<PushAnswer> {
  if (events.length === 0) throw invalidDraft([{ field: 'pushEvents', message: 'send at least one push event' }]);
  const problems: FieldProblem[] = [];
  const now = ctx.now();
  const checked: PushEvent[] = [];
  events.forEach((ev, i) => {
    const typed = pushEventSchema.safeParse(ev);
    if (!typed.success) {
      problems.push(...typeProblems(typed.error.issues, `pushEvents.${i}`));
      return;
    }
    for (const p of pushEventProblems(typed.data, mode, now)) {
      problems.push(events.length > 1 ? { field: `pushEvents.${i}.${p.field}`, message: p.message } : p);
    }
    checked.push(typed.data);
  });
  if (problems.length > 0) throw invalidDraft(problems);
  const what = mode === 'scheduled' ? 'schedule the push notification' : 'send the push notification';
  const path = mode === 'scheduled' ? '/epsilon/push/scheduled' : '/epsilon/push';
  const res = await ctx.exec.call(spec(ctx, { method: 'POST', path, json: { pushEvents: checked }, what, shownAsText: true }), opts);
  return { text: acknowledgement(res), tasks: tasksIn(parseJsonBody(res.body)) };
}

export async function listTasks(ctx: PushContext, tagId: string, taskType?: TaskType, opts: CallOptions = {}): Promise<Task[]> {
  if (tagId.trim() === '') throw invalidDraft([{ field: 'tagId', message: 'tagId cannot be empty' }]);
  const query = new URLSearchParams({ tagId });
  if (taskType !== undefined) query.set('taskType', taskType);
  const what = `list the tasks of application ${tagId}`;
  const res = await ctx.exec.stream(spec(ctx, { method: 'GET', path: '/epsilon/task', query, what }), opts);
  // The wrapper is not shown and a list may be tens of MB: read by content, as it arrives.
  const scanner = new RecordArrayScanner();
  const arrays = new Map<string, FoundArray>();
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      for (const el of scanner.write(chunk)) {
        let found = arrays.get(el.path);
        if (!found) arrays.set(el.path, (found = { path: el.path, tasks: [], others: 0 }));
        if (!isTaskLike(el.value)) {
          found.others++;
          continue;
        }
        const t = taskSchema.safeParse(el.value);
        if (!t.success) {
          const issue = t.error.issues[0];
          throw unreadableAnswer(
            what,
            res.status,
            `task ${String((el.value as { taskId: unknown }).taskId)} in it is not a task record (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`,
          );
        }
        found.tasks.push(t.data);
      }
    }
    // An answer without a body lists nothing.
    scanner.end();
  } catch (e) {
    if (e instanceof UnreadableBodyError) throw unreadableAnswer(what, res.status, e.message);
    throw e;
  } finally {
    res.body.destroy();
  }
  const picked = pickTaskList([...arrays.values()]);
  if ('unreadable' in picked) throw unreadableAnswer(what, res.status, picked.unreadable);
  return picked.tasks;
}

function taskPath(taskId: string): string {
  const id = String(taskId);
  if (!/^\d+$/.test(id)) throw invalidDraft([{ field: 'taskId', message: 'taskId must be a number' }]);
  return `/epsilon/task/${id}`;
}

export async function updateTask(ctx: PushContext, taskId: string, update: TaskUpdate, opts: CallOptions = {}): Promise<string> {
  const path = taskPath(taskId);
  const typed = taskUpdateSchema.safeParse(update);
  if (!typed.success) throw invalidDraft(typeProblems(typed.error.issues, ''));
  const problems = taskUpdateProblems(typed.data, ctx.now());
  if (problems.length > 0) throw invalidDraft(problems);
  const res = await ctx.exec.call(
    spec(ctx, { method: 'PATCH', path, json: typed.data, what: `update task ${String(taskId)}`, shownAsText: true }),
    opts,
  );
  return acknowledgement(res);
}

export async function deleteTask(ctx: PushContext, taskId: string, opts: CallOptions = {}): Promise<string> {
  const path = taskPath(taskId);
  const res = await ctx.exec.call(spec(ctx, { method: 'DELETE', path, what: `cancel task ${String(taskId)}`, shownAsText: true }), opts);
  return acknowledgement(res);
}

export async function setSwPath(ctx: PushContext, req: SwPathRequest, opts: CallOptions = {}): Promise<void> {
  const typed = swPathSchema.safeParse(req);
  if (!typed.success) throw invalidDraft(typeProblems(typed.error.issues, ''));
  const problems = swPathProblems(typed.data);
  if (problems.length > 0) throw invalidDraft(problems);
  await ctx.exec.call(
    spec(ctx, {
      method: 'PATCH',
      path: '/epsilon/container/sw-path',
      json: typed.data,
      what: `set the service worker path of application ${typed.data.containerId ?? ''}`,
    }),
    opts,
  );
}
