// The engine's timers follow the core's clock: on a manual clock a retry or a probe waits for its
// time however long the test takes, and goes out as soon as the clock is advanced to it.
import { afterEach, describe, expect, it } from 'vitest';
import { campaignPayload, control, fault } from '../../helpers/sandbox';
import { type Env, P, startEnv, submitCampaign } from '../../helpers/world';
import { until } from '../../helpers/wait';

const ACCOUNT = 'oldtimerltd';
const CREATE = { method: 'POST', path_prefix: `/core/api/1.0/${ACCOUNT}/campaigns` };
const MINUTE = 60_000;

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const submit = (e: Env, name: string) => submitCampaign(e, ACCOUNT, campaignPayload(name));
const item = async (e: Env, id: string) => (await e.core.handlers['outbox.list']({ profileId: P })).find((i) => i.id === id);
const posts = async (e: Env) =>
  ((await control(e.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string }[] }).requests.filter(
    (r) => r.method === 'POST' && r.path.startsWith(CREATE.path_prefix),
  ).length;

describe('the engine on a manual clock', () => {
  it('retries a refused-by-500 change only when the clock reaches its retry time', async () => {
    env = await startEnv({ clock: 'manual', tuning: { retryBackoff: { baseMs: 2 * MINUTE, maxMs: 2 * MINUTE } } });
    await fault(env.sandbox, { ...CREATE, mode: 'status_500', count: 1 });
    const queued = await submit(env, 'Retried on time');
    const waiting = await until(async () => {
      const i = await item(env!, queued.id);
      return i?.state === 'queued' && i.attempts === 1 && i.nextAttemptAt !== null ? i : undefined;
    }, 'the first attempt to fail and wait');
    // Its retry is a minute or two away on the clock: until then it waits, whatever real time passes.
    expect(waiting.nextAttemptAt! - env.sandbox.now()).toBeGreaterThanOrEqual(MINUTE);
    env.sandbox.advance(waiting.nextAttemptAt! - env.sandbox.now() - 1);
    // The retry is a timer on that clock, due at its time and not fired yet.
    expect(env.clock!.nextTimerAt()).toBe(waiting.nextAttemptAt);
    expect(await item(env, queued.id)).toMatchObject({ state: 'queued', attempts: 1 });
    expect(await posts(env)).toBe(1);
    env.sandbox.advance(1);
    await until(async () => (await item(env!, queued.id))?.state === 'sent', 'the retry at its time');
    expect(await posts(env)).toBe(2);
  });

  it('probes an unreachable service again when the clock reaches the probe time, and sends what waited', async () => {
    env = await startEnv({
      clock: 'manual',
      proxy: true,
      tuning: { probeBackoff: { baseMs: 2 * MINUTE, maxMs: 2 * MINUTE }, retryBackoff: { baseMs: 60 * MINUTE, maxMs: 60 * MINUTE } },
    });
    await env.proxy!.down();
    const queued = await submit(env, 'Sent after the probe');
    await until(
      async () => (await env!.core.handlers['profiles.list']({})).find((p) => p.id === P)?.connection === 'offline',
      'the profile to go offline',
    );
    await env.proxy!.up();
    // Back, but nobody has looked yet: the next probe is a timer on the clock, at most 2 minutes on.
    expect((await item(env, queued.id))?.state).toBe('queued');
    expect(env.clock!.nextTimerAt()).toBeLessThanOrEqual(env.sandbox.now() + 2 * MINUTE);
    env.sandbox.advance(2 * MINUTE);
    await until(async () => (await item(env!, queued.id))?.state === 'sent', 'the probe to find the service and the change to go out');
    expect((await env.core.handlers['profiles.list']({})).find((p) => p.id === P)?.connection).toBe('online');
  });
});
