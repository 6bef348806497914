// Variant redirect: every request to the campaign and push APIs is first redirected (307 or 308)
// to the same address under /alias on the same origin, which serves it (RFC 9110 15.4.8, 15.4.9).
import { request } from 'undici';
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, pushEvent, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

it.each([307, 308] as const)('answers %i with a same-origin Location that serves the request, the method and body kept', async (status) => {
  await call(sb, 'PUT', '/_sandbox/variants', { json: { redirect: status } });
  const first = await call(sb, 'GET', '/epsilon/task?tagId=1001&taskType=scheduled', { token });
  expect(first.status).toBe(status);
  expect(first.headers.location).toBe('/alias/epsilon/task?tagId=1001&taskType=scheduled');
  const there = await call(sb, 'GET', first.headers.location, { token });
  expect(there.status).toBe(200);
  expect(there.body).toEqual([expect.objectContaining({ taskId: 900001 })]);
  // A write is applied only where it is redirected to.
  const post = await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent({ title: 'Redirected' })] } });
  expect(post.status).toBe(status);
  const tasks = async () => ((await call(sb, 'GET', '/_sandbox/state/tasks?app=1001')).body as { tasks: { title: string }[] }).tasks;
  expect((await tasks()).filter((t) => t.title === 'Redirected')).toHaveLength(0);
  const sent = await call(sb, 'POST', post.headers.location, { token, json: { pushEvents: [pushEvent({ title: 'Redirected' })] } });
  expect(sent.status).toBe(200);
  expect((await tasks()).filter((t) => t.title === 'Redirected')).toHaveLength(1);
  // The token endpoint and the control API are not redirected.
  const control = await request(`${sb.url}/authentication/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
  });
  expect(control.statusCode).toBe(200);
  await control.body.text();
});
