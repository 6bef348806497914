// The rate-limit view's picture (ratelimit.view) against the real sandbox: before any answer with
// rate-limit headers the drain time of an account's queue is unknown (null) and no budget is shown;
// once its changes have gone out, the create budget is learned from the headers, its windows count
// them, and nothing is queued.
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { campaignPayload, startEnv, until, type Env } from './env';

const P = 'sandbox-demo';
/** A demo advertiser created after rate limits began (spec 8.1): its answers carry the headers. */
const LIMITED = 'acmeshoes';
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function submit(e: Env, name: string): Promise<OutboxItem> {
  const d = await e.core.handlers['drafts.save']({ kind: 'campaign', profileId: P, accountId: LIMITED, payload: campaignPayload(name) });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

const limitsOf = async (e: Env) => (await e.core.handlers['ratelimit.view']({ profileId: P })).accounts.find((a) => a.accountId === LIMITED);

describe('ratelimit.view', () => {
  it('says "unknown" for a queue before the service has answered with limits, then the learned windows once it has', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    if (!(await h['accounts.list']({ profileId: P })).some((a) => a.accountId === LIMITED)) await h['accounts.add']({ profileId: P, accountId: LIMITED });
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
