// Times the client compares with the service's are on the service's clock, learned from its Date
// headers (DECISIONS client 10), not on the computer's: with the service's clock 10 minutes off
// (sandbox variant clock_offset_ms, manual sandbox clock), a lost immediate push is found rather
// than sent twice, and a scheduled push whose time has passed on the service is not sent.
import { afterEach, describe, expect, it } from 'vitest';
import { fault, requestLog, tasksOnService } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const MINUTE = 60_000;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function submitPush(e: Env, mode: 'immediate' | 'scheduled', title: string, executionTime?: number) {
  const event = {
    title,
    url: 'https://news.example.com/skew',
    performer: 'me@example.com',
    target: { include: { apps: ['1001'] } },
    ...(executionTime ? { executionTime } : {}),
  };
  const d = await e.core.handlers['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode, event } });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

/** Any answer of the service teaches the client its clock: here a refresh of one account. */
async function learnServiceClock(e: Env): Promise<void> {
  await e.core.handlers['sync.refresh']({ profileId: P, accountId: 'oldtimerltd' });
  await until(
    async () => (await e.core.handlers['accounts.list']({ profileId: P })).find((a) => a.accountId === 'oldtimerltd')?.lastSyncedAt,
    'a first answer',
  );
}

const pushPosts = async (e: Env, path: string) => (await requestLog(e.sandbox)).filter((r) => r.method === 'POST' && r.path === path);

describe("the service's clock 10 minutes behind ours", () => {
  for (const learned of [false, true]) {
    it(`an immediate push whose answer was lost is found, not sent twice (${learned ? 'clock learned before the send' : 'the lost push was the first request'})`, async () => {
      env = await startEnv({ clock: 'manual', variants: { clock_offset_ms: -10 * MINUTE, late_apply_ms: undefined } });
      if (learned) await learnServiceClock(env);
      await fault(env.sandbox, { method: 'POST', path_prefix: '/epsilon/push', mode: 'close_after', count: 1 });
      const item = await submitPush(env, 'immediate', 'Skewed breaking news');
      expect((await settled(env, item.id)).state).toBe('sent');
      const tasks = (await tasksOnService(env.sandbox, '1001')).filter((t) => t.title === 'Skewed breaking news');
      expect(tasks).toHaveLength(1);
      // Stamped by the service's clock, ten minutes before ours.
      expect(Math.abs(tasks[0].executionTime - (env.sandbox.now() - 10 * MINUTE))).toBeLessThan(MINUTE);
      expect((await pushPosts(env, '/epsilon/push')).map((r) => r.outcome)).toEqual(['fault_close_after']);
    });
  }
});

describe("the service's clock 10 minutes ahead of ours", () => {
  it('a scheduled push 5 minutes ahead of our clock, already past on the service, is refused at Queue in words, and nothing is sent', async () => {
    env = await startEnv({ clock: 'manual', variants: { clock_offset_ms: 10 * MINUTE } });
    await learnServiceClock(env);
    // Queue judges the time on the service's clock (one "service now", issue #27): the person hears
    // at once, rather than after the change was queued and then blocked.
    await expect(submitPush(env, 'scheduled', 'Too late on their clock', env.sandbox.now() + 5 * MINUTE)).rejects.toMatchObject({
      message: expect.stringMatching(/Not submitted.*future/),
    });
    expect((await env.core.handlers['outbox.list']({})).filter((i) => i.summary.includes('Too late on their clock'))).toHaveLength(0);
    expect((await tasksOnService(env.sandbox, '1001')).filter((t) => t.title === 'Too late on their clock')).toHaveLength(0);
    expect(await pushPosts(env, '/epsilon/push/scheduled')).toHaveLength(0);
  });
});
