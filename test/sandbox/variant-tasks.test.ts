// Variants of the push task endpoints: task_list_wrapper and empty_as_object (the list's wrapper,
// spec 4.6 note 2), omit_empty (task fields left out when empty) and update_requires_performer
// (which update fields are required, note 3).
import { describe, expect, it } from 'vitest';
import type { Variants } from '../../src/sandbox/index';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, DAY, T0, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
// Every test starts from the fixtures, which play no variant; each test says which it plays.
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const play = async (variants: Variants) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
const controlTask = async (id: number) =>
  ((await call(sb, 'GET', '/_sandbox/state/tasks?app=1001')).body as { tasks: Record<string, unknown>[] }).tasks.find(
    (t) => t.taskId === id,
  )!;

describe('task_list_wrapper', () => {
  it.each(['results', 'tasks', 'data', 'items'] as const)(
    'answers {"%s": [...], "count": n} holding what the bare array held',
    async (key) => {
      const bare = await call(sb, 'GET', '/epsilon/task?tagId=1001', { token });
      expect(Array.isArray(bare.body)).toBe(true);
      await play({ task_list_wrapper: key });
      const wrapped = await call(sb, 'GET', '/epsilon/task?tagId=1001', { token });
      expect(wrapped.status).toBe(200);
      expect(wrapped.body).toEqual({ [key]: bare.body, count: (bare.body as unknown[]).length });
      const scheduled = await call(sb, 'GET', '/epsilon/task?tagId=1001&taskType=scheduled', { token });
      expect(scheduled.body).toEqual({ [key]: [expect.objectContaining({ taskId: 900001 })], count: 1 });
      expect((await call(sb, 'GET', '/epsilon/task?tagId=1002', { token })).body).toEqual({ [key]: [], count: 0 });
    },
  );

  it('nests the list one level under a dotted key', async () => {
    const bare = await call(sb, 'GET', '/epsilon/task?tagId=1001', { token });
    await play({ task_list_wrapper: 'payload.items' });
    const wrapped = await call(sb, 'GET', '/epsilon/task?tagId=1001', { token });
    expect(wrapped.body).toEqual({ payload: { items: bare.body, count: (bare.body as unknown[]).length } });
  });

  it('leaves errors unwrapped', async () => {
    await play({ task_list_wrapper: 'data' });
    const r = await call(sb, 'GET', '/epsilon/task', { token });
    expect(r.body).toEqual({ httpStatus: 400, message: 'tagId is required' });
  });
});

describe('update_requires_performer', () => {
  const patch = (body: unknown) => call(sb, 'PATCH', '/epsilon/task/900001', { token, json: body });

  it('refuses an update without performer with 400 and applies nothing', async () => {
    await play({ update_requires_performer: true });
    const before = await controlTask(900001);
    const r = await patch({ title: 'New title', executionTime: T0 + 2 * DAY });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ httpStatus: 400, message: 'performer cannot be empty' });
    expect(await controlTask(900001)).toEqual(before);
    const blank = await patch({ title: 'New title', performer: '  ' });
    expect(blank.body).toEqual({ httpStatus: 400, message: 'performer cannot be empty' });
    expect(await controlTask(900001)).toEqual(before);
  });

  it('accepts the same update with performer', async () => {
    await play({ update_requires_performer: true });
    const r = await patch({ title: 'New title', performer: 'chief@example.com' });
    expect(r.status).toBe(200);
    expect(await controlTask(900001)).toMatchObject({ title: 'New title', performer: 'chief@example.com' });
  });

  it('speaks problem+json when that variant is played as well', async () => {
    await play({ update_requires_performer: true, problem_json: true });
    const r = await patch({ title: 'New title' });
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(r.body).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'performer cannot be empty' });
  });

  it('by default an update without performer is applied', async () => {
    const r = await patch({ title: 'New title' });
    expect(r.status).toBe(200);
    expect((await controlTask(900001)).title).toBe('New title');
  });
});
