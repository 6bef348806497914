// A push send answered in another shape than the interface's JSON string (sandbox variant
// push_answer): the string naming the tasks, the words under a key, a bare number, or the task
// records themselves. Whatever the shape, the push is sent once, never taken for a lost answer, and
// the Outbox names the tasks it made; an answer that lists them names them even while the task
// list does not show them yet.
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import type { Variants } from '../../../src/sandbox/index';
import { control } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv } from '../../helpers/world';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const taskIdsOnService = async (e: Env, title: string) =>
  ((await control(e.sandbox, 'GET', '/_sandbox/state/tasks')) as { tasks: { taskId: number | string; title: string }[] }).tasks
    .filter((t) => t.title === title)
    .map((t) => String(t.taskId))
    .sort();
const doubts = async (e: Env) =>
  (await e.core.handlers['activity.list']({ profileId: P, limit: 200 })).filter((a) =>
    /answer was lost|checking the service/.test(a.message),
  );

async function push(e: Env, title: string): Promise<OutboxItem> {
  const event = {
    title,
    url: 'https://news.example.com/hello',
    performer: 'me@example.com',
    target: { include: { apps: ['1001', '1002'] } },
  };
  const d = await e.core.handlers['drafts.save']({
    kind: 'push',
    profileId: P,
    accountId: 'acmeshoes',
    payload: { mode: 'immediate', event },
  });
  return settled(e, (await e.core.handlers['drafts.submit']({ id: d.id })).id);
}

// write_answer is left out: it takes the body away, whatever its shape.
const plain: Variants = { write_answer: undefined };

describe.each([undefined, 'ids_text', 'wrapped', 'count', 'tasks'] as const)('push_answer %s', (shape) => {
  it('sends the push once, as sent, naming the tasks it made', async () => {
    env = await startEnv({ variants: { ...plain, push_answer: shape } });
    const title = `Answered ${shape ?? 'as a string'}`;
    const item = await push(env, title);
    const made = await taskIdsOnService(env, title);
    expect(made).toHaveLength(2);
    expect(item.state).toBe('sent');
    expect(item.posted?.kind).toBe('task');
    expect([...(item.posted?.ids ?? [])].sort()).toEqual(made);
    expect(await doubts(env)).toEqual([]);
    // The person's Tasks tab shows it.
    const shown = await env.core.handlers['tasks.list']({ profileId: P, appId: '1001' });
    expect(shown.filter((t) => t.title === title)).toHaveLength(1);
  });
});

it('names the tasks an answer lists even while the task list does not show them yet', async () => {
  // The task list lags far behind: a look-up cannot find the push's tasks, its answer can.
  env = await startEnv({ variants: { ...plain, push_answer: 'tasks', listing_lag_ms: 600_000 } });
  const item = await push(env, 'Listed in the answer');
  const made = await taskIdsOnService(env, 'Listed in the answer');
  expect(made).toHaveLength(2);
  expect(item).toMatchObject({ state: 'sent', posted: { kind: 'task' } });
  expect([...(item.posted?.ids ?? [])].sort()).toEqual(made);
});
