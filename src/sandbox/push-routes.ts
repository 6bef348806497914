// The push API's sending side (spec 4.6): authorized apps, immediate and scheduled sends, and the
// service worker path. A send is all-or-nothing: every event and every app is checked before a
// single task is created.
import {
  MALFORMED_MESSAGE,
  NOT_AUTHORIZED_APP_MESSAGE,
  pushEventProblems,
  pushEventSchema,
  pushRequestSchema,
  schemaFailureMessage,
  swPathProblems,
  swPathSchema,
  type PushEvent,
  type PushMode,
} from '../shared/domain/push';
import { answer, taskAnswer, writeAnswer } from './answers';
import { authenticate } from './bearer';
import type { SandboxCore } from './core';
import { apiError, isJsonContent, parseJson, type Reply, type RequestContext, type Route } from './http';
import { cdnUrl, iso, type RecordId, type StoredTask, type TaskRecord } from './records';
import { byId } from './state';
import { storedEvent } from './stored-form';
import { isServiceTime, TIME_RANGE_MESSAGE } from './timestamps';

const err = (core: SandboxCore, status: number, message: string): Reply => apiError(core.variants, 'push', status, message);

export const NOT_JSON_MESSAGE = 'Content-Type must be application/json';

/** The JSON body of a push request, or the reply that refuses it. */
export function readJsonBody(core: SandboxCore, ctx: RequestContext): { value: unknown; reply?: undefined } | { reply: Reply } {
  if (!isJsonContent(ctx.headers)) return { reply: err(core, 415, NOT_JSON_MESSAGE) };
  const json = parseJson(ctx.body);
  return json.ok ? { value: json.value } : { reply: err(core, 400, MALFORMED_MESSAGE) };
}

function authApps(core: SandboxCore, ctx: RequestContext): Reply {
  const auth = authenticate(core, ctx, 'push');
  if (auth.reply) return auth.reply;
  const out: Record<string, string | null> = {};
  const ids = [...auth.client.apps].filter((id) => core.world.apps.has(id)).sort((a, b) => byId(BigInt(a), BigInt(b)));
  const shape = core.variants.auth_apps_shape;
  ids.forEach((id, i) => (out[id] = shape === 'null_publisher' && i % 2 === 1 ? null : core.world.apps.get(id)!.publisher));
  if (shape === 'wrapped') return answer(core.variants, 200, { apps: out });
  if (shape === 'list')
    return answer(
      core.variants,
      200,
      ids.map((id) => ({ app_id: BigInt(id), publisher: out[id] })),
    );
  return answer(core.variants, 200, out);
}

/** The task one event creates for one app; `taskId` is the id it will get if the send succeeds. */
function taskOf(core: SandboxCore, ev: PushEvent, appId: string, taskId: RecordId, mode: PushMode, now: number): TaskRecord {
  const executionTime = mode === 'immediate' ? now : ev.executionTime!;
  const icon = ev.icon ?? ev.iconUrl;
  const record: TaskRecord = {
    taskId,
    tagId: BigInt(appId),
    taskType: mode,
    // DECISIONS sandbox 8: an immediate push is active for no observable time, then completed.
    taskStatus: mode === 'immediate' ? 'completed' : 'pending',
    taskUpdateTime: now,
    taskUpdateTimeFormatted: iso(now),
    executionTime,
    executionTimeFormatted: iso(executionTime),
    method: 'PUSH',
    videoId: null,
    forcedItemPolicy: null,
    userTimeZone: ev.userTimeZone ?? 0,
    title: ev.title!,
    url: ev.url!,
    thumbnailUrl: ev.thumbnailUrl === undefined ? null : cdnUrl(core.cdnBase, ev.thumbnailUrl, 480),
    iconUrl: icon === undefined ? null : cdnUrl(core.cdnBase, icon, 192),
    performer: ev.performer!,
  };
  if (ev.itemDescription !== undefined) record.itemDescription = ev.itemDescription;
  return record;
}

/**
 * A send is all-or-nothing (DECISIONS sandbox 12): every event is parsed and judged, every app
 * checked, and every task built before the first one is stored.
 */
function send(core: SandboxCore, ctx: RequestContext, mode: PushMode): Reply {
  const auth = authenticate(core, ctx, 'push');
  if (auth.reply) return auth.reply;
  const body = readJsonBody(core, ctx);
  if (body.reply) return body.reply;
  const request = pushRequestSchema.safeParse(body.value);
  if (!request.success) return err(core, 400, MALFORMED_MESSAGE);
  if (request.data.pushEvents.length === 0) return err(core, 400, 'pushEvents cannot be empty');
  const events: PushEvent[] = [];
  for (const raw of request.data.pushEvents) {
    const ev = pushEventSchema.safeParse(raw);
    if (!ev.success) return err(core, 400, schemaFailureMessage(ev.error));
    if (ev.data.executionTime !== undefined && !isServiceTime(ev.data.executionTime)) return err(core, 400, TIME_RANGE_MESSAGE);
    events.push(ev.data);
  }
  for (const ev of events) {
    const problems = pushEventProblems(ev, mode, ctx.now);
    if (problems.length > 0) return err(core, 400, problems[0].message);
  }
  const appsPerEvent = events.map((ev) => [...new Set(ev.target?.include?.apps ?? [])]);
  for (const apps of appsPerEvent) {
    for (const app of apps) {
      if (!core.world.apps.has(app) || !auth.client.apps.has(app)) return err(core, 403, NOT_AUTHORIZED_APP_MESSAGE);
    }
  }
  // Every check has passed: the ids are taken now, and the tasks built whole before any is stored.
  const taskIds = core.world.allocateTaskIds(
    core.variants,
    appsPerEvent.reduce((n, apps) => n + apps.length, 0),
    core.choices,
  );
  const tasks: StoredTask[] = [];
  events.forEach((ev, i) => {
    const stored = storedEvent(ev, core.variants, core.choices);
    for (const app of appsPerEvent[i]) {
      const taskId = taskIds[tasks.length];
      tasks.push({ appId: app, record: taskOf(core, stored, app, taskId, mode, ctx.now), target: ev.target, createdAtMs: ctx.now });
    }
  });
  for (const task of tasks) core.world.pushTask(task);
  return writeAnswer(core.variants, answer(core.variants, 200, sendAnswer(core, tasks, mode)));
}

/** A send's answer: the JSON string of spec 4.6, or what the push_answer variant writes instead. */
function sendAnswer(core: SandboxCore, tasks: readonly StoredTask[], mode: PushMode): unknown {
  const noun = tasks.length === 1 ? 'notification' : 'notifications';
  const words = `${tasks.length} ${noun} ${mode === 'immediate' ? 'accepted' : 'scheduled'}`;
  switch (core.variants.push_answer) {
    case undefined:
      return words;
    case 'ids_text':
      return `${words} (task${tasks.length === 1 ? '' : 's'} ${tasks.map((t) => String(t.record.taskId)).join(', ')})`;
    case 'wrapped':
      return { message: words };
    case 'count':
      return tasks.length;
    case 'tasks':
      return tasks.map((t) => taskAnswer(t.record, core.variants));
  }
}

function swPath(core: SandboxCore, ctx: RequestContext): Reply {
  const auth = authenticate(core, ctx, 'push');
  if (auth.reply) return auth.reply;
  const body = readJsonBody(core, ctx);
  if (body.reply) return body.reply;
  const parsed = swPathSchema.safeParse(body.value);
  if (!parsed.success) return err(core, 400, MALFORMED_MESSAGE);
  const problems = swPathProblems(parsed.data);
  if (problems.length > 0) return err(core, 400, problems[0].message);
  const app = core.world.apps.get(parsed.data.containerId!);
  if (app === undefined) return err(core, 404, 'Container not found');
  if (!auth.client.apps.has(app.id)) return err(core, 400, 'Not authorized to update this container');
  app.swPath = parsed.data.serviceWorkerPath!;
  return writeAnswer(core.variants, { status: 204 });
}

export function pushRoutes(core: SandboxCore): Route[] {
  return [
    { pattern: /^\/epsilon\/push\/auth-apps$/, api: 'push', methods: { GET: (ctx) => authApps(core, ctx) } },
    { pattern: /^\/epsilon\/push$/, api: 'push', methods: { POST: (ctx) => send(core, ctx, 'immediate') } },
    { pattern: /^\/epsilon\/push\/scheduled$/, api: 'push', methods: { POST: (ctx) => send(core, ctx, 'scheduled') } },
    { pattern: /^\/epsilon\/container\/sw-path$/, api: 'push', methods: { PATCH: (ctx) => swPath(core, ctx) } },
  ];
}
