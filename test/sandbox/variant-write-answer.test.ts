// The write_answer variant: a write that succeeds is answered 200 with an empty body, 204 or 202
// (RFC 9110 15.3: each means success; spec 4.1 and 4.6 do not show these answers), and is
// applied all the same. Errors are unchanged.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, pushEvent, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const play = async (write_answer: string) =>
  expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { write_answer } })).status).toBe(200);
const campaignNames = async () =>
  ((await call(sb, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd')).body as { campaigns: { name: string }[] }).campaigns.map(
    (c) => c.name,
  );

describe('write_answer', () => {
  it.each([
    ['empty', 200],
    ['no_content', 204],
    ['accepted', 202],
  ] as const)('%s: create, push, task update and cancel, sw-path answer %i without a body, and are applied', async (mode, status) => {
    await play(mode);
    const created = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', {
      token,
      json: nativeCampaign({ name: `Written ${mode}` }),
    });
    expect([created.status, created.text]).toEqual([status, '']);
    expect(created.headers['content-type']).toBeUndefined();
    expect(await campaignNames()).toContain(`Written ${mode}`);
    const future = Date.parse('2026-11-21T09:00:00Z') + 86_400_000;
    const pushed = await call(sb, 'POST', '/epsilon/push/scheduled', {
      token,
      json: { pushEvents: [pushEvent({ title: `Push ${mode}`, executionTime: future })] },
    });
    expect([pushed.status, pushed.text]).toEqual([status, '']);
    const tasks = (await call(sb, 'GET', '/epsilon/task?tagId=1001&taskType=scheduled', { token })).body as {
      taskId: number;
      title: string;
    }[];
    const task = tasks.find((t) => t.title === `Push ${mode}`)!;
    expect(task).toBeDefined();
    const updated = await call(sb, 'PATCH', `/epsilon/task/${task.taskId}`, {
      token,
      json: { title: `Updated ${mode}`, performer: 'editor@example.com' },
    });
    expect([updated.status, updated.text]).toEqual([status, '']);
    const cancelled = await call(sb, 'DELETE', `/epsilon/task/${task.taskId}`, { token });
    expect([cancelled.status, cancelled.text]).toEqual([status, '']);
    const after = (
      (await call(sb, 'GET', '/epsilon/task?tagId=1001&taskType=scheduled', { token })).body as {
        taskId: number;
        title: string;
        taskStatus: string;
      }[]
    ).find((t) => t.taskId === task.taskId);
    expect(after).toMatchObject({ title: `Updated ${mode}`, taskStatus: 'cancelled' });
    const sw = await call(sb, 'PATCH', '/epsilon/container/sw-path', {
      token,
      json: { containerId: '1001', serviceWorkerPath: `/sw-${mode}.js`, performer: 'editor@example.com' },
    });
    expect([sw.status, sw.text]).toEqual([status, '']);
    // A refusal still has its status and words.
    expect((await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ cpc: -1 }) })).status).toBe(400);
  });

  it('is off by default: the create answers 200 with the campaign, sw-path 204', async () => {
    const created = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign() });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Spring sale' });
  });
});
