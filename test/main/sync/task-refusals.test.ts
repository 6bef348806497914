// A task cancel or update whose answer was lost is simply sent again (it is idempotent), and the
// resend may be refused because the first attempt worked: the task is cancelled now, or has run
// holding the update. Services word and number that refusal differently (409, 404, ...; ours says
// 400). The outbox asks the service about the task before calling it failed: what the person
// wanted happened, so the item is sent. Counted on the sandbox's own state and request log.
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../src/shared/domain/push';
import { isServiceValue } from '../../../src/shared/domain/service-values';
import { fault, requestLog, tasksOnService } from '../../helpers/sandbox';
import { type Env, outboxItem, P, settled, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';
import { rewritingProxy, type RewritingProxy } from '../../helpers/proxy';

const APP = '1002';
const DAY = 24 * 60 * 60_000;
let env: Env | undefined;
let proxy: RewritingProxy | undefined;
afterEach(async () => {
  await env?.close();
  await proxy?.close();
  env = undefined;
  proxy = undefined;
});

/** A future scheduled task of the demo's app 1002, once the start-up refresh has cached it. */
async function pendingTask(e: Env): Promise<Task> {
  return until(
    async () =>
      (await e.core.handlers['tasks.list']({ profileId: P, appId: APP, taskType: 'scheduled' })).find((t) => t.taskStatus === 'pending'),
    'a pending task to be cached',
  );
}

/** The demo core talks to the sandbox through a proxy that answers as another service would. */
async function throughProxy(e: Env, rewrite: Parameters<typeof rewritingProxy>[1]): Promise<RewritingProxy> {
  const p = await rewritingProxy(e.sandbox.url, rewrite);
  await e.core.close();
  await e.restart({ demo: { url: p.url } });
  return p;
}

const taskWrites = async (e: Env, method: string, taskId: string) =>
  (await requestLog(e.sandbox)).filter((r) => r.method === method && r.path === `/epsilon/task/${taskId}` && r.outcome !== 'late_applied');

const activity = async (e: Env) => (await e.core.handlers['activity.list']({ profileId: P, limit: 50 })).map((a) => a.message);

describe('a cancel whose answer was lost', () => {
  it('refused with 409 when sent again is done: the task is cancelled on the service', async () => {
    env = await startEnv({ variants: { late_apply_ms: undefined }, tuning: { refreshOnStart: true } });
    proxy = await throughProxy(env, {
      // This service says 409 where ours says 400 ("Only future scheduled tasks ...").
      status: (method, path, status) => (method === 'DELETE' && path.startsWith('/epsilon/task/') && status === 400 ? 409 : status),
    });
    const task = await pendingTask(env);
    await fault(env.sandbox, { method: 'DELETE', path_prefix: `/epsilon/task/${task.taskId}`, mode: 'close_after', count: 1 });
    const item = await env.core.handlers['tasks.cancel']({ profileId: P, accountId: 'northbikes', taskId: task.taskId });
    const done = await settled(env, item.id);
    expect(done.state).toBe('sent');
    expect(await activity(env)).toContain(`Cancel task ${task.taskId} was already cancelled.`);
    expect((await tasksOnService(env.sandbox, APP)).find((t) => String(t.taskId) === task.taskId)?.taskStatus).toBe('cancelled');
    expect((await taskWrites(env, 'DELETE', task.taskId)).map((r) => r.outcome)).toEqual(['fault_close_after', 'client_error']);
  });

  it('refused with 404 by a service that forgets cancelled tasks is done: our first attempt removed it', async () => {
    env = await startEnv({ variants: { late_apply_ms: undefined }, tuning: { refreshOnStart: true } });
    proxy = await throughProxy(env, {
      status: (method, path, status) => (method === 'DELETE' && path.startsWith('/epsilon/task/') && status === 400 ? 404 : status),
      body: (method, path, body) => {
        if (method !== 'GET' || path !== '/epsilon/task') return undefined;
        const parsed = JSON.parse(body.toString()) as unknown;
        // Any spelling the service writes (task_status_spelling: "canceled").
        const gone = (list: { taskStatus?: string }[]) => list.filter((t) => !isServiceValue(t.taskStatus, 'cancelled'));
        if (Array.isArray(parsed)) return Buffer.from(JSON.stringify(gone(parsed as { taskStatus?: string }[])));
        // The list under any key, nested one level at most (task_list_wrapper).
        const unwrap = (o: Record<string, unknown>, depth: number): void => {
          for (const [key, v] of Object.entries(o)) {
            if (Array.isArray(v)) o[key] = gone(v as { taskStatus?: string }[]);
            else if (depth === 0 && v !== null && typeof v === 'object') unwrap(v as Record<string, unknown>, 1);
          }
        };
        unwrap(parsed as Record<string, unknown>, 0);
        return Buffer.from(JSON.stringify(parsed));
      },
    });
    const task = await pendingTask(env);
    await fault(env.sandbox, { method: 'DELETE', path_prefix: `/epsilon/task/${task.taskId}`, mode: 'close_after', count: 1 });
    const item = await env.core.handlers['tasks.cancel']({ profileId: P, accountId: 'northbikes', taskId: task.taskId });
    const done = await settled(env, item.id);
    expect(done.state).toBe('sent');
    expect(
      (await activity(env)).some((m) => m.startsWith(`Cancel task ${task.taskId} is done: the task is no longer on the service`)),
    ).toBe(true);
    expect((await tasksOnService(env.sandbox, APP)).find((t) => String(t.taskId) === task.taskId)?.taskStatus).toBe('cancelled');
  });
});

describe('a cancel whose answer was lost, on a service that writes "canceled"', () => {
  it('refused when sent again is done: "canceled" is the status asked for (task_status_spelling)', async () => {
    env = await startEnv({ variants: { late_apply_ms: undefined, task_status_spelling: 'us' }, tuning: { refreshOnStart: true } });
    const task = await pendingTask(env);
    await fault(env.sandbox, { method: 'DELETE', path_prefix: `/epsilon/task/${task.taskId}`, mode: 'close_after', count: 1 });
    const item = await env.core.handlers['tasks.cancel']({ profileId: P, accountId: 'northbikes', taskId: task.taskId });
    const done = await settled(env, item.id);
    expect(done.state).toBe('sent');
    expect(await activity(env)).toContain(`Cancel task ${task.taskId} was already cancelled.`);
    expect((await taskWrites(env, 'DELETE', task.taskId)).map((r) => r.outcome)).toEqual(['fault_close_after', 'client_error']);
  });
});

describe('an update whose answer was lost', () => {
  it('is done, not blocked, when the task has run since, holding the update', async () => {
    // The automatic retry after the 500 is days away on the manual clock: the person's Retry, after
    // the task has run, is what sends it again.
    env = await startEnv({
      clock: 'manual',
      variants: { late_apply_ms: undefined },
      tuning: { refreshOnStart: true, retryBackoff: { baseMs: 30 * DAY, maxMs: 30 * DAY } },
    });
    const task = await pendingTask(env);
    const path = `/epsilon/task/${task.taskId}`;
    // The update lands but its answer is lost; the resend meets a failing server and waits.
    await fault(env.sandbox, { method: 'PATCH', path_prefix: path, mode: 'close_after', count: 1 });
    await fault(env.sandbox, { method: 'PATCH', path_prefix: path, mode: 'status_500', count: 1 });
    const item = await env.core.handlers['tasks.update']({
      profileId: P,
      accountId: 'northbikes',
      taskId: task.taskId,
      patch: { title: 'Winter tyres, moved' },
    });
    await until(async () => {
      const i = await outboxItem(env!, item.id);
      return i?.state === 'queued' && i.attempts >= 2;
    }, 'the resend to fail and wait');
    // Meanwhile the task runs (its time passes on the service's clock).
    env.sandbox.advance((task.executionTime ?? env.sandbox.now()) - env.sandbox.now() + 15 * 60_000);
    await env.core.handlers['outbox.retry']({ id: item.id });
    const done = await settled(env, item.id);
    expect(done.state).toBe('sent');
    expect(await activity(env)).toContain(`Update task ${task.taskId} was already applied.`);
    const onService = (await tasksOnService(env.sandbox, APP)).find((t) => String(t.taskId) === task.taskId);
    expect(onService).toMatchObject({ title: 'Winter tyres, moved', taskStatus: 'completed' });
    expect((await taskWrites(env, 'PATCH', task.taskId)).map((r) => r.outcome)).toEqual(['fault_close_after', 'fault_500']);
  });
});
