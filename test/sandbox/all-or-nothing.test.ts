// DECISIONS sandbox 12: a request that fails applies nothing. These are the cases third-party
// clients found where it did not: a time beyond what the service can write answered 500 after
// part of the request had been applied.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, DAY, nativeCampaign, pushEvent, sandboxPerFile, T0 } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

/** Beyond the end of JavaScript's Date (8.64e15 ms) but still a safe integer. */
const BEYOND_DATE = 8.7e15;
const RANGE_MESSAGE = 'executionTime must be a Unix timestamp in milliseconds no later than 9999-12-31T23:59:59.999Z';

const allTasks = async () => ((await call(sb, 'GET', '/_sandbox/state/tasks')).body as { tasks: Record<string, unknown>[] }).tasks;
const scheduled = (events: unknown[]) => call(sb, 'POST', '/epsilon/push/scheduled', { token, json: { pushEvents: events } });

describe('push times beyond what the service can write', () => {
  it('a batch whose second event is beyond Date range is a 400 that creates no task, not even the first', async () => {
    const before = await allTasks();
    const r = await scheduled([pushEvent({ executionTime: T0 + DAY }), pushEvent({ executionTime: BEYOND_DATE })]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ httpStatus: 400, message: RANGE_MESSAGE });
    expect(await allTasks()).toEqual(before);
    // Nothing was used up either: the next send gets the next task id.
    expect((await scheduled([pushEvent({ executionTime: T0 + DAY })])).status).toBe(200);
    expect((await allTasks()).at(-1)).toMatchObject({ taskId: 900004 });
  });

  it.each([
    ['scheduled', '/epsilon/push/scheduled', BEYOND_DATE],
    ['immediate', '/epsilon/push', -BEYOND_DATE],
  ])('the %s push with such a time is refused with 400', async (_mode, path, executionTime) => {
    const r = await call(sb, 'POST', path, { token, json: { pushEvents: [pushEvent({ executionTime })] } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ httpStatus: 400, message: RANGE_MESSAGE });
  });

  it('a PATCH with such a time is a 400 that leaves the task exactly as it was', async () => {
    const before = (await allTasks()).find((t) => t.taskId === 900001);
    const r = await call(sb, 'PATCH', '/epsilon/task/900001', {
      token,
      json: { title: 'Half-applied?', performer: 'chief@example.com', executionTime: BEYOND_DATE },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ httpStatus: 400, message: RANGE_MESSAGE });
    expect((await allTasks()).find((t) => t.taskId === 900001)).toEqual(before);
  });

  it('the last millisecond of 9999 is a time: scheduled, and written in any offset', async () => {
    await call(sb, 'PUT', '/_sandbox/variants', { json: { date_offset: '+14:00' } });
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    expect((await scheduled([pushEvent({ executionTime: last })])).status).toBe(200);
    const listed = (await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[];
    const task = listed.at(-1)!;
    expect(task.executionTime).toBe(last);
    expect(Date.parse(task.executionTimeFormatted as string)).toBe(last);
    expect((await call(sb, 'PATCH', `/epsilon/task/${String(task.taskId)}`, { token, json: { executionTime: last - 1 } })).status).toBe(
      200,
    );
  });
});

describe('a refused create', () => {
  it('stores nothing and uses up no campaign id', async () => {
    const refused = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ cpc: 0 }) });
    expect(refused.status).toBe(400);
    const created = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign() });
    expect((created.body as { id: number }).id).toBe(4100013);
  });
});
