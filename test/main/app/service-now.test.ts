// Issue 27 item 1 in the core: Queue judges "in the future" on the service's clock (learned from
// its Date headers), as the composer does, whatever the computer's clock says. The time is
// injected: the sandbox and the core share a manual clock, and the service's runs 10 min off it.
import { afterEach, describe, expect, it } from 'vitest';
import { type Env, P, startEnv } from '../../helpers/world';

const MIN = 60_000;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Queues a scheduled push at `at` (ms) for the demo account; resolves to the outbox item or rejects with the refusal. */
async function queuePushAt(e: Env, at: number) {
  const h = e.core.handlers;
  const event = {
    title: `At ${at}`,
    url: 'https://news.example.com/now',
    performer: 'me@example.com',
    target: { include: { apps: ['1001'] } },
    executionTime: at,
  };
  const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'scheduled', event } });
  return h['drafts.submit']({ id: d.id });
}

describe("Queue on the service's clock", () => {
  for (const offset of [-10 * MIN, 10 * MIN]) {
    it(`with the service ${offset < 0 ? 'behind' : 'ahead of'} the computer by 10 min: a time 5 min ${offset < 0 ? 'ahead of the service (past here) is queued' : 'behind the service (future here) is refused'}`, async () => {
      env = await startEnv({ clock: 'manual', variants: { clock_offset_ms: offset } });
      // Any answer teaches the core the service's clock.
      await env.core.handlers['apps.list']({ profileId: P });
      const at = env.sandbox.now() + offset / 2;
      if (offset < 0) expect((await queuePushAt(env, at)).state).toBe('queued');
      else await expect(queuePushAt(env, at)).rejects.toThrow(/must be in the future/);
    });
  }
});
