// Push work against a push API that turns out to be rate-limited (variant push_tier; the interface
// shows no push limits). Reads and writes have budgets of their own, per client, and the read that
// tells a sent push's tasks apart must not wait behind the start-up fetch of every app's tasks.
import { afterEach, describe, expect, it } from 'vitest';
import { control, startEnv, until, type Env } from './env';

const P = 'sandbox-demo';
const MINUTE = 60_000;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const pushBudget = async (e: Env, budget: 'read' | 'write') =>
  (await e.core.handlers['ratelimit.view']({ profileId: P })).push.find((b) => b.group === 'push' && b.budget === budget);

describe('a push API limited at Tier 6 (reads: 1 a second, 1 a minute)', () => {
  it('marks a sent push sent at the next read slot, ahead of the start-up fetch still waiting for the others', async () => {
    env = await startEnv({ clock: 'manual', variants: { push_tier: 6 }, tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    // The start-up fetch read the apps; the answer taught the client the read budget, and the
    // tasks of the apps (read one app after another) wait for the next minute.
    await until(async () => {
      const read = await pushBudget(env!, 'read');
      return read?.model === 'learned' && read.waiting > 0;
    }, 'the start-up fetch to wait on the push read budget');

    const event = { title: 'Limited hello', url: 'https://news.example.com/limited', performer: 'me@example.com', target: { include: { apps: ['1001'] } } };
    const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'immediate', event } });
    const item = await h['drafts.submit']({ id: d.id });
    // The send itself is a write: its budget is untouched, so it goes at once.
    await until(async () => {
      const tasks = (await control(env!.sandbox, 'GET', '/_sandbox/state/tasks')) as { tasks: { title: string }[] };
      return tasks.tasks.some((t) => t.title === 'Limited hello');
    }, 'the push to reach the service');
    expect((await h['outbox.list']({})).find((o) => o.id === item.id)?.state).toBe('sending');

    // One minute on, one read fits: the sent push's, though the start-up fetch's next read was queued first.
    env.sandbox.advance(MINUTE + 50);
    const sent = await until(async () => {
      const o = (await h['outbox.list']({})).find((x) => x.id === item.id);
      return o?.state === 'sent' ? o : undefined;
    }, 'the push to be marked sent');
    expect(sent.state).toBe('sent');
    expect((await pushBudget(env, 'read'))!.waiting).toBe(1);
    expect((await h['tasks.list']({ profileId: P, appId: '1001' })).filter((t) => t.title === 'Limited hello')).toHaveLength(1);
  });
});
