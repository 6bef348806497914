// task_status_spelling: a cancelled task is written "canceled" (American spelling).
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, DAY, sandboxPerFile, T0 } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

async function cancelScheduled(): Promise<Record<string, unknown>[]> {
  const before = (await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[];
  const task = before.find((t) => t.executionTime === T0 + DAY)!;
  expect((await call(sb, 'DELETE', `/epsilon/task/${String(task.taskId)}`, { token })).status).toBe(200);
  return (await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[];
}

it('by default a cancelled task is "cancelled"', async () => {
  expect((await cancelScheduled()).find((t) => t.executionTime === T0 + DAY)?.taskStatus).toBe('cancelled');
});

it('us: "canceled", in the case enum_case asks for; the stored status is unchanged', async () => {
  expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { task_status_spelling: 'us', enum_case: 'upper' } })).status).toBe(200);
  const tasks = await cancelScheduled();
  expect(tasks.find((t) => t.executionTime === T0 + DAY)?.taskStatus).toBe('CANCELED');
  expect(tasks.every((t) => t.taskStatus !== 'CANCELLED')).toBe(true);
  const state = (await call(sb, 'GET', '/_sandbox/state/tasks?app=1001')).body as { tasks: Record<string, unknown>[] };
  expect(state.tasks.find((t) => t.executionTime === T0 + DAY)?.taskStatus).toBe('cancelled');
});
