import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, DAY, T0, tokenFor, sandboxPerFile } from '../helpers/sandbox';

// Fixture tasks: 900001 pending scheduled for T0 + 1 day on app 1001, 900002 completed immediate
// on 1001, 900003 pending scheduled on 1003 (not granted to demo-client).
const AT_900001 = T0 + DAY;

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const list = (query: string) => call(sb, 'GET', `/epsilon/task${query}`, { token });
const patch = (id: string | number, body: unknown) => call(sb, 'PATCH', `/epsilon/task/${id}`, { token, json: body });
const del = (id: string | number) => call(sb, 'DELETE', `/epsilon/task/${id}`, { token });
const task = async (id: number) => ((await list('?tagId=1001')).body as Record<string, unknown>[]).find((t) => t.taskId === id)!;
const pushErr = (status: number, message: string) => ({ httpStatus: status, message });

describe('listing tasks', () => {
  it('returns a bare array of the app tasks, oldest first, narrowed by taskType', async () => {
    const all = await list('?tagId=1001');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect((all.body as { taskId: number }[]).map((t) => t.taskId)).toEqual([900001, 900002]);
    expect(((await list('?tagId=1001&taskType=scheduled')).body as { taskId: number }[]).map((t) => t.taskId)).toEqual([900001]);
    expect(((await list('?tagId=1001&taskType=immediate')).body as { taskId: number }[]).map((t) => t.taskId)).toEqual([900002]);
    expect((await list('?tagId=1002')).body).toEqual([]);
  });

  it('fills in the record fields of fixture tasks', async () => {
    expect(await task(900001)).toEqual({
      taskId: 900001,
      tagId: 1001,
      taskType: 'scheduled',
      taskStatus: 'pending',
      taskUpdateTime: T0,
      taskUpdateTimeFormatted: new Date(T0).toISOString(),
      executionTime: AT_900001,
      executionTimeFormatted: new Date(AT_900001).toISOString(),
      method: 'PUSH',
      videoId: null,
      forcedItemPolicy: null,
      userTimeZone: 0,
      title: 'Morning briefing: five stories',
      url: 'https://news.example.com/briefing',
      thumbnailUrl: null,
      iconUrl: null,
      performer: 'editor@example.com',
    });
  });

  it('completes a pending scheduled task when the sandbox clock reaches its executionTime', async () => {
    sb.advance(DAY - 1);
    token = await tokenFor(sb);
    expect((await task(900001)).taskStatus).toBe('pending');
    sb.advance(1);
    token = await tokenFor(sb);
    expect(await task(900001)).toMatchObject({ taskStatus: 'completed', taskUpdateTime: AT_900001 });
  });

  it.each([
    ['', 400, 'tagId is required'],
    ['?tagId=', 400, 'tagId is required'],
    ['?taskType=scheduled', 400, 'tagId is required'],
    ['?tagId=abc', 400, 'tagId must be an application ID (digits)'],
    ['?tagId=1001&taskType=weekly', 400, 'taskType must be immediate or scheduled'],
    ['?tagId=1001&tagId=1002', 400, 'Parameter tagId must not be repeated'],
    ['?tagId=1001&status=pending', 400, 'Unknown parameter status'],
    ['?tagId=1003', 403, 'Not authorized to send notifications for specified application'],
    ['?tagId=1999', 403, 'Not authorized to send notifications for specified application'],
  ])('answers %s with %i', async (query, status, message) => {
    const r = await list(query);
    expect(r.status).toBe(status);
    expect(r.body).toEqual(pushErr(status, message));
  });
});

describe('updating a scheduled task', () => {
  it('applies the fields, rewrites images, bumps taskUpdateTime and answers "Task updated"', async () => {
    sb.advance(5000);
    const newAt = T0 + 2 * DAY;
    const r = await patch(900001, {
      title: 'New title',
      icon: 'https://news.example.com/i.png',
      thumbnailUrl: 'https://news.example.com/t.png',
      executionTime: newAt,
      userTimeZone: 1,
      itemDescription: 'Body',
      performer: 'chief@example.com',
    });
    expect(r.status).toBe(200);
    expect(r.text).toBe('"Task updated"');
    expect(await task(900001)).toMatchObject({
      title: 'New title',
      iconUrl: `${sb.url}/_cdn/?src=${encodeURIComponent('https://news.example.com/i.png')}&w=192`,
      thumbnailUrl: `${sb.url}/_cdn/?src=${encodeURIComponent('https://news.example.com/t.png')}&w=480`,
      executionTime: newAt,
      executionTimeFormatted: new Date(newAt).toISOString(),
      userTimeZone: 1,
      itemDescription: 'Body',
      performer: 'chief@example.com',
      taskStatus: 'pending',
      taskUpdateTime: T0 + 5000,
    });
  });

  it.each([
    [{}, 'Nothing to update: send at least one field'],
    [{ title: '' }, 'title cannot be empty'],
    [{ title: 'y'.repeat(141) }, 'title is too long (max 140)'],
    [{ performer: ' ' }, 'performer cannot be empty'],
    [{ thumbnailUrl: 'nope' }, 'thumbnailUrl must be a valid URL'],
    [{ icon: 'data:image/png;base64,AAAA' }, 'iconUrl must be an HTTP/HTTPS URL'],
    [{ userTimeZone: 3 }, 'userTimeZone must be 0 (UTC) or 1 (local time zone)'],
    [{ executionTime: T0 }, 'executionTime must be in the future for scheduled push'],
    [{ url: 'https://x.example' }, 'Malformed JSON or type mismatch'],
    [{ title: 5 }, 'Malformed JSON or type mismatch'],
    [{ iconUrl: 'https://x.example/i.png' }, 'Malformed JSON or type mismatch'],
  ])('refuses %j with 400', async (body, message) => {
    const r = await patch(900001, body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(pushErr(400, message));
    expect((await task(900001)).title).toBe('Morning briefing: five stories');
  });

  it('refuses tasks that are not future scheduled ones', async () => {
    const done = await patch(900002, { title: 'x' });
    expect(done.status).toBe(400);
    expect(done.body).toEqual(pushErr(400, 'Only future scheduled tasks can be updated or deleted'));
    sb.advance(DAY);
    token = await tokenFor(sb);
    expect((await patch(900001, { title: 'x' })).body).toEqual(pushErr(400, 'Only future scheduled tasks can be updated or deleted'));
  });

  it('answers 400 for a non-numeric id, 404 for an unknown task, 403 for a task of an app not granted', async () => {
    expect((await patch('abc', { title: 'x' })).body).toEqual(pushErr(400, 'taskId must be numeric'));
    const missing = await patch(123, { title: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(pushErr(404, 'Task not found'));
    expect((await patch(900003, { title: 'x' })).body).toEqual(
      pushErr(403, 'Not authorized to send notifications for specified application'),
    );
  });

  it('answers 400 to a body that is not JSON', async () => {
    const r = await call(sb, 'PATCH', '/epsilon/task/900001', { token, body: '{', headers: { 'content-type': 'application/json' } });
    expect(r.body).toEqual(pushErr(400, 'Malformed JSON or type mismatch'));
  });
});

describe('cancelling a scheduled task', () => {
  it('cancels a future scheduled task once; then it is no longer future-scheduled', async () => {
    sb.advance(1000);
    const r = await del(900001);
    expect(r.status).toBe(200);
    expect(r.text).toBe('"Task cancelled"');
    expect(await task(900001)).toMatchObject({ taskStatus: 'cancelled', taskUpdateTime: T0 + 1000 });
    expect((await del(900001)).body).toEqual(pushErr(400, 'Only future scheduled tasks can be updated or deleted'));
    sb.advance(DAY);
    token = await tokenFor(sb);
    expect((await task(900001)).taskStatus).toBe('cancelled');
  });

  it('refuses sent, unknown and foreign tasks', async () => {
    expect((await del(900002)).status).toBe(400);
    expect((await del(777)).body).toEqual(pushErr(404, 'Task not found'));
    expect((await del(900003)).status).toBe(403);
    expect((await del('1e5')).status).toBe(400);
  });
});
