// outbox.waits through the real core against the sandbox over HTTP: what the Outbox says of a
// waiting change is true when it is said (working offline, offline, its turn), and sent history
// and the activity log are pruned after the retention period the Outbox names, unsent work never.
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_RETENTION_MS } from '../../../src/shared/retention';
import { campaignPayload } from '../../helpers/sandbox';
import { type Env, P, startEnv, submitCampaign } from '../../helpers/world';
import { until } from '../../helpers/wait';
import { ManualClock } from '../../../src/main/clock/clock';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const submit = (e: Env, name: string) => submitCampaign(e, 'oldtimerltd', campaignPayload(name));
const waitsOf = async (e: Env) => Object.fromEntries((await e.core.handlers['outbox.waits']({ profileId: P })).map((w) => [w.id, w]));

describe('outbox.waits', () => {
  it('says working offline, then offline while the service cannot be reached, never "next" until it can send', async () => {
    env = await startEnv({ proxy: true, tuning: { retryBackoff: { baseMs: 60_000, maxMs: 60_000 } } });
    await env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: true });
    const a = await submit(env, 'Waits one');
    const b = await submit(env, 'Waits two');
    let w = await waitsOf(env);
    expect([w[a.id]?.reason, w[b.id]?.reason]).toEqual(['working_offline', 'working_offline']);
    expect(w[b.id]?.ahead).toBe(1);
    await env.proxy!.down();
    await env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: false });
    await until(
      async () => (await env!.core.handlers['profiles.list']({})).find((p) => p.id === P)?.connection === 'offline',
      'the profile to go offline',
    );
    w = await waitsOf(env);
    expect([w[a.id]?.reason, w[b.id]?.reason]).toEqual(['offline', 'offline']);
    await env.proxy!.up();
    await until(
      async () => (await env!.core.handlers['outbox.list']({})).filter((o) => o.state === 'sent').length === 2,
      'both to be sent',
    );
    expect(await env.core.handlers['outbox.waits']({ profileId: P })).toEqual([]);
  });

  it('prunes sent items and activity older than the retention period at start-up, and keeps unsent ones', async () => {
    env = await startEnv();
    const sent = await submit(env, 'Old news');
    await until(
      async () => (await env!.core.handlers['outbox.list']({})).find((o) => o.id === sent.id)?.state === 'sent',
      'the change to be sent',
    );
    await env.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: true });
    const waiting = await submit(env, 'Still waiting');
    await env.core.close();
    const later = Date.now() + HISTORY_RETENTION_MS + 60_000;
    await env.restart({ clock: new ManualClock(later) });
    const ids = (await env.core.handlers['outbox.list']({})).map((o) => o.id);
    expect(ids).toContain(waiting.id);
    expect(ids).not.toContain(sent.id);
    const activity = await env.core.handlers['activity.list']({ profileId: P, limit: 100 });
    expect(activity.some((a) => a.message.includes('Old news'))).toBe(false);
  });
});
