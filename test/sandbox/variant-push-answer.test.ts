// push_answer: a push send's answer written otherwise than the JSON string of spec 4.6.
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, pushEvent, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const play = async (v: string) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { push_answer: v } })).status).toBe(200);
const send = () =>
  call(sb, 'POST', '/epsilon/push', {
    token,
    json: { pushEvents: [pushEvent(), pushEvent({ target: { include: { apps: ['1001', '1002'] } } })] },
  });
/** The ids of the tasks the last send made, from the control API. */
async function newTaskIds(before: Set<string>): Promise<string[]> {
  const r = await call(sb, 'GET', '/_sandbox/state/tasks');
  return (r.body as { tasks: { taskId: number }[] }).tasks.map((t) => String(t.taskId)).filter((id) => !before.has(id));
}
const taskIdsNow = async () => new Set(await newTaskIds(new Set()));

it('by default answers a JSON string', async () => {
  const r = await send();
  expect(r.status).toBe(200);
  expect(r.body).toBe('3 notifications accepted');
});

it('ids_text: a JSON string naming the tasks made', async () => {
  await play('ids_text');
  const before = await taskIdsNow();
  const r = await send();
  const ids = await newTaskIds(before);
  expect(ids).toHaveLength(3);
  expect(r.body).toBe(`3 notifications accepted (tasks ${ids.join(', ')})`);
});

it('wrapped: the words under "message"', async () => {
  await play('wrapped');
  expect((await send()).body).toEqual({ message: '3 notifications accepted' });
});

it('count: the number of notifications as a bare JSON number', async () => {
  await play('count');
  const r = await send();
  expect(r.text).toBe('3');
  expect(r.headers['content-type']).toMatch(/application\/json/);
});

it('tasks: the created task records, as a task list writes them; a scheduled send too', async () => {
  await play('tasks');
  const before = await taskIdsNow();
  const r = await send();
  const ids = await newTaskIds(before);
  expect((r.body as { taskId: number; tagId: number; taskStatus: string }[]).map((t) => String(t.taskId))).toEqual(ids);
  expect(r.body).toEqual([
    expect.objectContaining({ tagId: 1001, taskType: 'immediate', title: 'Evening digest' }),
    expect.objectContaining({ tagId: 1001 }),
    expect.objectContaining({ tagId: 1002 }),
  ]);
  const later = ((await call(sb, 'GET', '/_sandbox/clock')).body as { service_now: number }).service_now + 3_600_000;
  const scheduled = await call(sb, 'POST', '/epsilon/push/scheduled', {
    token,
    json: { pushEvents: [pushEvent({ executionTime: later })] },
  });
  expect(scheduled.body).toEqual([expect.objectContaining({ taskType: 'scheduled', taskStatus: 'pending', executionTime: later })]);
});
