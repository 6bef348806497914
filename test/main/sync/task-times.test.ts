// A task's send time as the service writes it (sandbox variant task_times): the numbers left out
// with only the *Formatted texts carrying the instant, or (beyond the text) the numbers as ISO
// text or epoch seconds. The client reads the instant once, at the boundary (taskSchema): a lost
// scheduled push is found rather than sent twice, and a future task can still be edited.
import { afterEach, describe, expect, it } from 'vitest';
import { TASK_TIMES, type Variants } from '../../../src/sandbox/variants';
import { fault, requestLog, tasksOnService } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const HOUR = 3_600_000;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function schedule(e: Env, title: string, executionTime: number) {
  const event = {
    title,
    url: 'https://news.example.com/times',
    performer: 'me@example.com',
    target: { include: { apps: ['1001'] } },
    executionTime,
  };
  const d = await e.core.handlers['drafts.save']({
    kind: 'push',
    profileId: P,
    accountId: 'acmeshoes',
    payload: { mode: 'scheduled', event },
  });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

/** A scheduled push whose answer was lost on a service playing `variants` is found, and sent once. */
async function lostScheduledPushIsFoundOnce(variants: Variants, title: string): Promise<void> {
  env = await startEnv({ clock: 'manual', variants: { ...variants, late_apply_ms: undefined, listing_lag_ms: undefined } });
  // A whole second: a service that writes seconds loses nothing of it.
  const at = Math.ceil((env.sandbox.now() + 2 * HOUR) / 1000) * 1000;
  await fault(env.sandbox, { method: 'POST', path_prefix: '/epsilon/push/scheduled', mode: 'close_after', count: 1 });
  const item = await schedule(env, title, at);
  expect((await settled(env, item.id)).state).toBe('sent');
  expect((await tasksOnService(env.sandbox, '1001')).filter((t) => t.title === title)).toHaveLength(1);
  const posts = (await requestLog(env.sandbox)).filter((r) => r.method === 'POST' && r.path === '/epsilon/push/scheduled');
  expect(posts.map((r) => r.outcome)).toEqual(['fault_close_after']);
}

describe.each(TASK_TIMES)('task times written %s', (form) => {
  it('a scheduled push whose answer was lost is found on the service, not sent twice', async () => {
    await lostScheduledPushIsFoundOnce({ task_times: form }, 'Times lost answer');
  });

  it('a future task is listed with its send time and can be edited', async () => {
    env = await startEnv({ clock: 'manual', variants: { task_times: form }, tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    const onService = (await tasksOnService(env.sandbox, '1001')).find(
      (t) => t.taskStatus === 'pending' && t.executionTime > env!.sandbox.now(),
    );
    expect(onService).toBeDefined();
    const cached = await until(
      async () => (await h['tasks.list']({ profileId: P, appId: '1001' })).find((t) => t.taskId === String(onService!.taskId)),
      'the task cached',
    );
    // Within the second a service writing seconds keeps.
    expect(Math.abs((cached.executionTime ?? 0) - onService!.executionTime)).toBeLessThan(1000);
    expect(typeof cached.taskUpdateTime).toBe('number');
    await expect(
      h['tasks.update']({ profileId: P, accountId: 'acmeshoes', taskId: cached.taskId, patch: { title: 'Edited in time' } }),
    ).resolves.toMatchObject({ kind: 'update_task' });
  });
});

describe('task times written only as a wall time without an offset', () => {
  // task_times formatted_only leaves the numbers out; date_form no_zone writes the formatted text
  // as the wall time at the service's offset without naming it. The time names no instant, but it
  // is the sent time at some offset: no evidence against the task being the push's (chaos seed
  // 1550941841 sent such a push twice).
  it.each(['+03:00', '-05:30'])('a scheduled push whose answer was lost is found at offset %s, not sent twice', async (offset) => {
    await lostScheduledPushIsFoundOnce(
      { task_times: 'formatted_only', date_form: 'no_zone', date_offset: offset },
      'Wall time lost answer',
    );
  });
});
