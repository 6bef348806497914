// The rate-limit view's picture (ratelimit.view) against the real sandbox: before any answer with
// rate-limit headers the drain time of an account's queue is unknown (null) and no budget is shown;
// once its changes have gone out, the create budget is learned from the headers, its windows count
// them, and nothing is queued.
import { afterEach, describe, expect, it } from 'vitest';
import { campaignPayload } from '../../helpers/sandbox';
import { type Env, P, startEnv, submitCampaign } from '../../helpers/world';
import { until } from '../../helpers/wait';

/** A demo advertiser created after rate limits began (spec 8.1): its answers carry the headers. */
const LIMITED = 'acmeshoes';
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const submit = (e: Env, name: string) => submitCampaign(e, LIMITED, campaignPayload(name));

const limitsOf = async (e: Env) =>
  (await e.core.handlers['ratelimit.view']({ profileId: P })).accounts.find((a) => a.accountId === LIMITED);

describe('ratelimit.view', () => {
  it('says "unknown" for a queue before the service has answered with limits, then the learned windows once it has', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    if (!(await h['accounts.list']({ profileId: P })).some((a) => a.accountId === LIMITED))
      await h['accounts.add']({ profileId: P, accountId: LIMITED });
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    await submit(env, 'Limits one');
    await submit(env, 'Limits two');
    const waiting = await limitsOf(env);
    expect(waiting).toMatchObject({ queued: 2, drainEstimateMs: null });
    expect(waiting?.budgets.find((b) => b.group === 'campaigns')).toBeUndefined();

    await h['profiles.setWorkOffline']({ profileId: P, offline: false });
    await until(async () => (await limitsOf(env!))?.queued === 0, 'both changes to go out', 20_000);
    const after = (await limitsOf(env))!;
    expect(after.drainEstimateMs).toBe(0);
    const create = after.budgets.find((b) => b.group === 'campaigns' && b.budget === 'write');
    expect(create?.model).toBe('learned');
    expect(create?.windows.map((w) => [w.name, w.quota])).toEqual([
      ['second', 10],
      ['minute', 60],
      ['hour', 600],
    ]);
    expect(create?.windows.find((w) => w.name === 'hour')?.used).toBe(2);
    expect(create?.windows.every((w) => !w.holding)).toBe(true);
  });
});

describe('ratelimit.view of push work', () => {
  const event = (title: string) => ({
    title,
    url: 'https://news.example.com/limits',
    performer: 'me@example.com',
    target: { include: { apps: ['1001'] } },
  });
  const sendPush = async (e: Env, title: string) => {
    const d = await e.core.handlers['drafts.save']({
      kind: 'push',
      profileId: P,
      accountId: LIMITED,
      payload: { mode: 'immediate', event: event(title) },
    });
    return e.core.handlers['drafts.submit']({ id: d.id });
  };

  it("shows the connection's push budget apart from its accounts', learned from a push API that turns out to be limited, holding the queue back", async () => {
    // Tier 6 writes: 1 a second, 1 a minute. The push API shows no limits, so only the answers tell.
    env = await startEnv({ variants: { push_tier: 6 } });
    const h = env.core.handlers;
    if (!(await h['accounts.list']({ profileId: P })).some((a) => a.accountId === LIMITED))
      await h['accounts.add']({ profileId: P, accountId: LIMITED });
    expect((await h['ratelimit.view']({ profileId: P })).push.find((b) => b.budget === 'write')).toBeUndefined();

    await sendPush(env, 'Limits push one');
    await sendPush(env, 'Limits push two');
    const view = await until(
      async () => {
        const v = await h['ratelimit.view']({ profileId: P });
        const write = v.push.find((b) => b.group === 'push' && b.budget === 'write');
        return write?.model === 'learned' && write.windows.some((w) => w.holding) ? { v, write } : undefined;
      },
      'the push write budget to be learned and to hold the second push back',
      20_000,
    );
    expect(view.write.windows.map((w) => [w.name, w.quota])).toEqual([
      ['second', 1],
      ['minute', 1],
      ['hour', 5],
    ]);
    expect(view.write.windows.find((w) => w.name === 'minute')).toMatchObject({ used: 1, holding: true });
    // Push work is not an account's budget, though it waits in the account's queue.
    expect(view.v.accounts.flatMap((a) => a.budgets).some((b) => b.group === 'push')).toBe(false);
    expect(view.v.accounts.find((a) => a.accountId === LIMITED)?.queued).toBeGreaterThanOrEqual(1);
  });

  it('says a push API that sends no limits is not rate limited', async () => {
    // Whatever else the run's service plays (the mixed variants limit push at Tier 1).
    env = await startEnv({ variants: { push_tier: undefined } });
    const item = await sendPush(env, 'Unlimited push');
    await until(
      async () => (await env!.core.handlers['outbox.list']({})).find((o) => o.id === item.id)?.state === 'sent',
      'the push to be sent',
    );
    const write = (await env.core.handlers['ratelimit.view']({ profileId: P })).push.find((b) => b.budget === 'write');
    expect(write).toMatchObject({ model: 'unlimited', windows: [], waiting: 0 });
  });
});
