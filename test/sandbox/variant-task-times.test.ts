// task_times: a task's epoch times left out (formatted_only) or, beyond the text, written as ISO
// 8601 text (iso) or epoch seconds (seconds); the *Formatted texts and the stored times unchanged.
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, DAY, sandboxPerFile, T0 } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const scheduled = (tasks: Record<string, unknown>[]) => tasks.find((t) => t.executionTimeFormatted === new Date(T0 + DAY).toISOString());

async function listed(variants: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
  return scheduled((await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[]);
}

it('by default the times are numbers of milliseconds', async () => {
  expect(await listed({})).toMatchObject({ executionTime: T0 + DAY, executionTimeFormatted: new Date(T0 + DAY).toISOString() });
});

it('formatted_only: the numbers are left out, the texts carry the instant', async () => {
  const t = await listed({ task_times: 'formatted_only' });
  expect(t).toBeDefined();
  expect(t).not.toHaveProperty('executionTime');
  expect(t).not.toHaveProperty('taskUpdateTime');
  expect(typeof t?.taskUpdateTimeFormatted).toBe('string');
});

it('iso: the numbers as ISO 8601 text; seconds: as epoch seconds; the stored time is unchanged', async () => {
  expect((await listed({ task_times: 'iso' }))?.executionTime).toBe(new Date(T0 + DAY).toISOString());
  expect((await listed({ task_times: 'seconds' }))?.executionTime).toBe(Math.floor((T0 + DAY) / 1000));
  const state = (await call(sb, 'GET', '/_sandbox/state/tasks?app=1001')).body as { tasks: Record<string, unknown>[] };
  expect(state.tasks.some((t) => t.executionTime === T0 + DAY)).toBe(true);
});
