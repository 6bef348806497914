// Push work against a push API that turns out to be rate-limited (variant push_tier; the interface
// shows no push limits). Reads and writes have budgets of their own, per client; nothing reads the
// tasks of every app unasked (DECISIONS client 19), so the person's own read of an app's tasks and
// the read that tells a sent push's tasks apart take the next read slot.
import { afterEach, describe, expect, it } from 'vitest';
import { control } from '../../helpers/sandbox';
import { type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const MINUTE = 60_000;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const pushBudget = async (e: Env, budget: 'read' | 'write') =>
  (await e.core.handlers['ratelimit.view']({ profileId: P })).push.find((b) => b.group === 'push' && b.budget === budget);

describe('a push API limited at Tier 6 (reads: 1 a second, 1 a minute)', () => {
  it('marks a sent push sent at the next read slot', async () => {
    env = await startEnv({ clock: 'manual', variants: { push_tier: 6 }, tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    // The start-up fetch read the apps; the answer taught the client the read budget.
    await until(async () => (await pushBudget(env!, 'read'))?.model === 'learned', 'the start-up fetch to learn the push read budget');

    const event = {
      title: 'Limited hello',
      url: 'https://news.example.com/limited',
      performer: 'me@example.com',
      target: { include: { apps: ['1001'] } },
    };
    const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'immediate', event } });
    const item = await h['drafts.submit']({ id: d.id });
    // The send itself is a write: its budget is untouched, so it goes at once.
    await until(async () => {
      const tasks = (await control(env!.sandbox, 'GET', '/_sandbox/state/tasks')) as { tasks: { title: string }[] };
      return tasks.tasks.some((t) => t.title === 'Limited hello');
    }, 'the push to reach the service');
    expect((await h['outbox.list']({})).find((o) => o.id === item.id)?.state).toBe('sending');

    // One minute on, one read fits: the sent push's.
    env.sandbox.advance(MINUTE + 50);
    const sent = await until(async () => {
      const o = (await h['outbox.list']({})).find((x) => x.id === item.id);
      return o?.state === 'sent' ? o : undefined;
    }, 'the push to be marked sent');
    expect(sent.state).toBe('sent');
    expect((await pushBudget(env, 'read'))!.waiting).toBe(0);
    expect((await h['tasks.list']({ profileId: P, appId: '1001' })).filter((t) => t.title === 'Limited hello')).toHaveLength(1);
  });

  it("answers the person's read of an app's tasks at once after start-up, with no read of every app's tasks taking the slot", async () => {
    env = await startEnv({ clock: 'manual', variants: { push_tier: 6 }, tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    expect((await h['apps.list']({ profileId: P })).map((a) => a.appId)).toEqual(['1001', '1002', '1004']);
    // The apps were read at start-up; a minute and a half later the read budget (1 a minute) has
    // room again, unless something the person did not ask for took it.
    env.sandbox.advance(MINUTE + 30_000);
    const asked = env.sandbox.now();
    let answered = false;
    const refresh = h['tasks.refresh']({ profileId: P, appId: '1002' }).then(() => (answered = true));
    // Bound: answered without the clock moving at all (before, it waited for the next minute's
    // slot: 30 s here, up to a minute, and an hour once the start-up reads had spent the hour's 10).
    await until(() => answered, "the person's read to be answered with no time passing");
    await refresh;
    expect(env.sandbox.now()).toBe(asked);
    expect((await h['tasks.list']({ profileId: P, appId: '1002' })).length).toBeGreaterThan(0);
    const reads = ((await control(env.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string }[] }).requests;
    expect(reads.filter((r) => r.method === 'GET' && r.path === '/epsilon/task')).toHaveLength(1);
  });

  it('reads the tasks of the app the person opens, once, and not those of the others', async () => {
    env = await startEnv({ clock: 'manual', variants: { push_tier: 6 }, tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    await h['apps.list']({ profileId: P });
    env.sandbox.advance(MINUTE + 50);
    // The Tasks tab opens app 1001: the cache answers at once, the read follows.
    await h['tasks.list']({ profileId: P, appId: '1001' });
    await until(async () => (await h['tasks.list']({ profileId: P, appId: '1001' })).length > 0, 'the tasks of the app the person opened');
    env.sandbox.advance(10 * MINUTE);
    await h['tasks.list']({ profileId: P, appId: '1001' });
    const reads = ((await control(env.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string }[] }).requests;
    expect(reads.filter((r) => r.method === 'GET' && r.path === '/epsilon/task')).toHaveLength(1);
  });
});
