// A 503 that says when to come back (RFC 9110 10.2.3, DECISIONS client 20): the outbox sends the
// change again no sooner than its Retry-After, however short its own backoff.
import { afterEach, expect, it } from 'vitest';
import { control, fault } from '../../helpers/sandbox';
import { type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const swWrites = async (e: Env) =>
  (
    (await control(e.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string; outcome: string }[] }
  ).requests.filter((r) => r.method === 'PATCH' && r.path === '/epsilon/container/sw-path');

it('sends a change the service answered 503 with Retry-After: 120 again after 120 s, not at its 20 ms backoff', async () => {
  env = await startEnv({ clock: 'manual' });
  const h = env.core.handlers;
  await h['apps.list']({ profileId: P });
  await fault(env.sandbox, { method: 'PATCH', path_prefix: '/epsilon/container/sw-path', mode: 'status_503', retry_after: 120 });
  const item = await h['apps.setSwPath']({
    profileId: P,
    accountId: 'northbikes',
    appId: '1002',
    serviceWorkerPath: '/push/sw-9.js',
    performer: 'me@example.com',
  });
  const waiting = await until(async () => {
    const o = (await h['outbox.list']({ profileId: P })).find((x) => x.id === item.id);
    return o?.state === 'queued' && o.attempts === 1 ? o : undefined;
  }, 'the 503 to be answered');
  expect(waiting.nextAttemptAt! - env.sandbox.now()).toBeGreaterThanOrEqual(119_000);
  // Far past the backoff, short of the Retry-After: nothing is sent again.
  env.sandbox.advance(119_000);
  await h['outbox.list']({ profileId: P });
  expect((await swWrites(env)).map((r) => r.outcome)).toEqual(['fault_503']);
  env.sandbox.advance(1_100);
  const sent = await until(async () => {
    const o = (await h['outbox.list']({ profileId: P })).find((x) => x.id === item.id);
    return o?.state === 'sent' ? o : undefined;
  }, 'the change to be sent after Retry-After');
  expect(sent.attempts).toBe(2);
  expect((await swWrites(env)).map((r) => r.outcome)).toEqual(['fault_503', 'ok']);
});

it('looks for a push the service answered 503 with Retry-After: 120, and sends it again, once, only after 120 s', async () => {
  env = await startEnv({ clock: 'manual' });
  const h = env.core.handlers;
  await h['apps.list']({ profileId: P });
  await fault(env.sandbox, { method: 'POST', path_prefix: '/epsilon/push', mode: 'status_503', retry_after: 120 });
  const event = {
    title: 'After the outage',
    url: 'https://news.example.com/after',
    performer: 'me@example.com',
    target: { include: { apps: ['1001'] } },
  };
  const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'immediate', event } });
  const item = await h['drafts.submit']({ id: d.id });
  // A 5xx may have been applied: the push is looked for first, found absent, and queued again.
  const waiting = await until(async () => {
    env!.sandbox.advance(10);
    const o = (await h['outbox.list']({ profileId: P })).find((x) => x.id === item.id);
    return o?.state === 'queued' && o.attempts === 1 ? o : undefined;
  }, 'the push to be found absent and queued again');
  expect(waiting.nextAttemptAt! - env.sandbox.now()).toBeGreaterThanOrEqual(110_000);
  env.sandbox.advance(121_000);
  const sent = await until(async () => {
    const o = (await h['outbox.list']({ profileId: P })).find((x) => x.id === item.id);
    return o?.state === 'sent' ? o : undefined;
  }, 'the push to be sent after Retry-After');
  expect(sent.attempts).toBe(2);
  const tasks = ((await control(env.sandbox, 'GET', '/_sandbox/state/tasks?app=1001')) as { tasks: { title: string }[] }).tasks;
  expect(tasks.filter((t) => t.title === 'After the outage')).toHaveLength(1);
});
