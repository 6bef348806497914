// Writes answered without a body: 200 empty, 204 No Content or 202 Accepted (sandbox variant
// write_answer; spec 4.1 and 4.6 do not show these answers' status, and RFC 9110 15.3 makes each a
// success). Every change is sent, none is taken for a lost answer, and a create whose answer
// names no campaign is "posted, id unknown": its id is looked up, and it is never posted again,
// even when the service's listing shows it later than the look-up's bound.
import { afterEach, describe, expect, it } from 'vitest';
import { advanceUntil, type Env, outboxItem, P, settled, startEnv } from '../../helpers/world';
import { campaignPayload, sandboxCampaigns, tasksOnService } from '../../helpers/sandbox';
import { until } from '../../helpers/wait';

const MODES = ['empty', 'no_content', 'accepted'] as const;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Activity that says a change was in doubt: none may be, the service answered 2xx. */
const doubts = async (e: Env) =>
  (await e.core.handlers['activity.list']({ profileId: P, limit: 200 })).filter((a) =>
    /answer was lost|checking the service/.test(a.message),
  );

describe.each(MODES)('write_answer %s', (mode) => {
  it('sends a create, a push, a task update and cancel and a service worker path as sent, the create with its id', async () => {
    env = await startEnv({ variants: { write_answer: mode }, tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    const d = await h['drafts.save']({
      kind: 'campaign',
      profileId: P,
      accountId: 'oldtimerltd',
      payload: campaignPayload(`Bodiless ${mode}`),
    });
    const created = await settled(env, (await h['drafts.submit']({ id: d.id })).id);
    const onService = (await sandboxCampaigns(env.sandbox, 'oldtimerltd')).filter((c) => c.name === `Bodiless ${mode}`);
    expect(onService).toHaveLength(1);
    // Found by the look-up: the id the service gave it.
    expect(created).toMatchObject({ state: 'sent', posted: { kind: 'campaign', ids: [String(onService[0].id)] } });

    const event = {
      title: `Push ${mode}`,
      url: 'https://news.example.com/hello',
      performer: 'me@example.com',
      target: { include: { apps: ['1001'] } },
    };
    const p = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'immediate', event } });
    expect((await settled(env, (await h['drafts.submit']({ id: p.id })).id)).state).toBe('sent');
    expect((await tasksOnService(env.sandbox)).filter((t) => t.title === `Push ${mode}`)).toHaveLength(1);

    await until(async () => (await h['tasks.list']({ profileId: P, appId: '1002' })).length > 0, 'tasks to be cached');
    const pending = (await h['tasks.list']({ profileId: P, appId: '1002', taskType: 'scheduled' })).find(
      (t) => t.taskStatus === 'pending',
    )!;
    const upd = await h['tasks.update']({
      profileId: P,
      accountId: 'northbikes',
      taskId: pending.taskId,
      patch: { title: `Retitled ${mode}` },
    });
    expect((await settled(env, upd.id)).state).toBe('sent');
    const cancel = await h['tasks.cancel']({ profileId: P, accountId: 'northbikes', taskId: pending.taskId });
    expect((await settled(env, cancel.id)).state).toBe('sent');
    expect((await tasksOnService(env.sandbox)).find((t) => String(t.taskId) === pending.taskId)).toMatchObject({
      title: `Retitled ${mode}`,
      taskStatus: 'cancelled',
    });
    const sw = await h['apps.setSwPath']({
      profileId: P,
      accountId: 'northbikes',
      appId: '1002',
      serviceWorkerPath: `/push/sw-${mode}.js`,
      performer: 'me@example.com',
    });
    expect((await settled(env, sw.id)).state).toBe('sent');

    expect(await doubts(env)).toEqual([]);
  });

  it("never posts a create twice when the listing shows it only after the look-up's bound", async () => {
    // The service lists a new campaign 90 s late; the client allows 60 s for a lost answer.
    env = await startEnv({ clock: 'manual', variants: { write_answer: mode, listing_lag_ms: 90_000 }, tuning: { listingLagMs: 60_000 } });
    const h = env.core.handlers;
    const name = `Listed late ${mode}`;
    const d = await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: 'oldtimerltd', payload: campaignPayload(name) });
    const item = await h['drafts.submit']({ id: d.id });
    await advanceUntil(env, async () => (await outboxItem(env!, item.id))?.state === 'sent', 'the create to be sent', 10 * 60_000, 5_000);
    // Well past every look-up and grace period: still one campaign, and the item still sent once.
    await advanceUntil(env, () => false, 'nothing', 5 * 60_000, 5_000).catch(() => undefined);
    expect((await sandboxCampaigns(env.sandbox, 'oldtimerltd')).filter((c) => c.name === name)).toHaveLength(1);
    expect(await outboxItem(env, item.id)).toMatchObject({ state: 'sent', attempts: 1 });
    expect(await doubts(env)).toEqual([]);
  });
});
