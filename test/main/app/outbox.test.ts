// Drafts, the outbox and push work through the channels, against the sandbox: what is checked
// before queueing, what is checked again before sending, and what ends up on the service.
import { afterEach, describe, expect, it } from 'vitest';
import { campaignPayload, control, sandboxCampaigns, tasksOnService } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const HOUR = 3_600_000;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('drafts and the outbox', () => {
  it('a draft shows its problems, refuses to be submitted until fixed, then is sent and leaves the drafts list', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const d = await h['drafts.save']({
      kind: 'campaign',
      profileId: P,
      accountId: 'oldtimerltd',
      payload: { name: 'Half done', bid_strategy: 'FIXED', marketing_objective: 'LEADS_GENERATION' },
    });
    expect(d.problems.map((p) => p.field)).toEqual(expect.arrayContaining(['branding_text', 'cpc', 'spending_limit_model']));
    await expect(h['drafts.submit']({ id: d.id })).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringMatching(/cpc is required/),
    });
    expect(await h['outbox.list']({ profileId: P })).toHaveLength(0);
    const fixed = await h['drafts.save']({
      kind: 'campaign',
      id: d.id,
      profileId: P,
      accountId: 'oldtimerltd',
      payload: campaignPayload('Half done'),
    });
    expect(fixed.problems).toEqual([]);
    const item = await h['drafts.submit']({ id: d.id });
    expect(item).toMatchObject({
      kind: 'create_campaign',
      state: 'queued',
      summary: 'Create campaign "Half done"',
      accountId: 'oldtimerltd',
    });
    expect((await settled(env, item.id)).state).toBe('sent');
    expect((await sandboxCampaigns(env.sandbox, 'oldtimerltd')).filter((c) => c.name === 'Half done')).toHaveLength(1);
    expect(await h['drafts.list']({ profileId: P, accountId: 'oldtimerltd' })).toEqual([]);
    const activity = await h['activity.list']({ profileId: P, limit: 20 });
    // The Activity line names the id the service gave it, as the Outbox history does.
    const onService = (await sandboxCampaigns(env.sandbox, 'oldtimerltd')).find((c) => c.name === 'Half done')!;
    expect(activity.map((a) => a.message)).toEqual(
      // Its id from the answer, or found by look-up when the answer had no body (write_answer).
      expect.arrayContaining([expect.stringMatching(new RegExp(`^Create campaign "Half done" was sent: campaign ${onService.id}\\b`))]),
    );
    expect((await settled(env, item.id)).posted).toEqual({ kind: 'campaign', ids: [String(onService.id)] });
  });

  it('drains each account in order and reports changes as events', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const names = ['First', 'Second', 'Third', 'Fourth'];
    const ids: string[] = [];
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    for (const n of names) {
      const d = await h['drafts.save']({
        kind: 'campaign',
        profileId: P,
        accountId: 'suntrailtravel',
        payload: campaignPayload(`${n} in line`),
      });
      ids.push((await h['drafts.submit']({ id: d.id })).id);
    }
    expect((await h['accounts.list']({ profileId: P })).find((a) => a.accountId === 'suntrailtravel')?.queued).toBe(4);
    await h['profiles.setWorkOffline']({ profileId: P, offline: false });
    for (const id of ids) expect((await settled(env, id)).state).toBe('sent');
    const order = (await sandboxCampaigns(env.sandbox, 'suntrailtravel')).filter((c) => c.name.endsWith('in line')).map((c) => c.name);
    expect(order).toEqual(names.map((n) => `${n} in line`));
    expect(env.events.filter((e) => e.event === 'outbox.changed').length).toBeGreaterThanOrEqual(8);
  });

  it('a failed item can be discarded; a sent one cannot be retried', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const d = await h['drafts.save']({
      kind: 'campaign',
      profileId: P,
      accountId: 'oldtimerltd',
      payload: campaignPayload('Display?', { campaign_item_type: 'HAS_NO_ITEMS_DISPLAY' }),
    });
    const item = await h['drafts.submit']({ id: d.id });
    const failed = await settled(env, item.id);
    expect(failed).toMatchObject({ state: 'failed', lastError: { code: 'REFUSED' } });
    // The draft stays listed so that it can be fixed and submitted again.
    expect((await h['drafts.list']({ profileId: P, accountId: 'oldtimerltd' })).map((x) => x.id)).toEqual([d.id]);
    await h['outbox.discard']({ id: item.id });
    expect(await h['outbox.list']({ profileId: P })).toHaveLength(0);
    const ok = await h['drafts.submit']({
      id: (await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: 'oldtimerltd', payload: campaignPayload('Fine') })).id,
    });
    await settled(env, ok.id);
    await expect(h['outbox.retry']({ id: ok.id })).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('push work', () => {
  it('sends an immediate push and refreshes the task list from the service', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const event = {
      title: 'Hello from the desk',
      url: 'https://news.example.com/hello',
      performer: 'me@example.com',
      target: { include: { apps: ['1001'] } },
    };
    const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'immediate', event } });
    const item = await h['drafts.submit']({ id: d.id });
    expect(item.kind).toBe('send_push');
    expect((await settled(env, item.id)).state).toBe('sent');
    const cached = await h['tasks.list']({ profileId: P, appId: '1001' });
    expect(cached.filter((t) => t.title === 'Hello from the desk')).toHaveLength(1);
    expect((await tasksOnService(env.sandbox)).filter((t) => t.title === 'Hello from the desk')).toHaveLength(1);
  });

  it('updates and cancels a future scheduled task, and sets a service worker path', async () => {
    env = await startEnv({ tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    await until(async () => (await h['tasks.list']({ profileId: P, appId: '1002' })).length > 0, 'tasks to be cached');
    const pending = (await h['tasks.list']({ profileId: P, appId: '1002', taskType: 'scheduled' })).find(
      (t) => t.taskStatus === 'pending',
    )!;
    const upd = await h['tasks.update']({
      profileId: P,
      accountId: 'northbikes',
      taskId: pending.taskId,
      patch: { title: 'Winter tyres, retested' },
    });
    expect(upd.kind).toBe('update_task');
    expect((await settled(env, upd.id)).state).toBe('sent');
    expect((await tasksOnService(env.sandbox)).find((t) => String(t.taskId) === pending.taskId)?.title).toBe('Winter tyres, retested');
    const cancel = await h['tasks.cancel']({ profileId: P, accountId: 'northbikes', taskId: pending.taskId });
    expect((await settled(env, cancel.id)).state).toBe('sent');
    expect((await tasksOnService(env.sandbox)).find((t) => String(t.taskId) === pending.taskId)?.taskStatus).toBe('cancelled');
    // A cancelled task can no longer be changed: refused before anything is queued.
    await expect(h['tasks.cancel']({ profileId: P, accountId: 'northbikes', taskId: pending.taskId })).rejects.toMatchObject({
      code: 'conflict',
    });
    const sw = await h['apps.setSwPath']({
      profileId: P,
      accountId: 'northbikes',
      appId: '1002',
      serviceWorkerPath: '/push/sw-2.js',
      performer: 'me@example.com',
    });
    expect((await settled(env, sw.id)).state).toBe('sent');
    const apps = (await control(env.sandbox, 'GET', '/_sandbox/apps')) as { apps: { app_id: string; sw_path: string }[] };
    expect(apps.apps.find((a) => a.app_id === '1002')?.sw_path).toBe('/push/sw-2.js');
    expect((await h['apps.list']({ profileId: P })).find((a) => a.appId === '1002')?.swPath).toBe('/push/sw-2.js');
  });

  it('a scheduled push whose time passed while queued is blocked with a fix, never sent, and can be restored from its draft', async () => {
    env = await startEnv({ clock: 'manual' });
    const h = env.core.handlers;
    const at = env.sandbox.now() + HOUR;
    const event = {
      title: 'Too late',
      url: 'https://news.example.com/late',
      performer: 'me@example.com',
      target: { include: { apps: ['1001'] } },
      executionTime: at,
    };
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'scheduled', event } });
    const item = await h['drafts.submit']({ id: d.id });
    env.sandbox.advance(2 * HOUR);
    await h['profiles.setWorkOffline']({ profileId: P, offline: false });
    const blocked = await settled(env, item.id);
    expect(blocked).toMatchObject({ state: 'blocked', kind: 'schedule_push', fix: 'Pick a new time and submit again' });
    expect(blocked.lastError?.message).toMatch(/scheduled time has passed/);
    expect((await tasksOnService(env.sandbox)).filter((t) => t.title === 'Too late')).toHaveLength(0);
    // The draft is kept with its content: pick a new time and submit again.
    const [draft] = await h['drafts.list']({ profileId: P, accountId: 'acmeshoes' });
    expect(draft.kind === 'push' ? draft.payload.event?.title : undefined).toBe('Too late');
    const later = env.sandbox.now() + HOUR;
    await h['drafts.save']({
      kind: 'push',
      id: draft.id,
      profileId: P,
      accountId: 'acmeshoes',
      payload: { mode: 'scheduled', event: { ...event, executionTime: later } },
    });
    const again = await h['drafts.submit']({ id: draft.id });
    expect((await settled(env, again.id)).state).toBe('sent');
    // The blocked item was replaced by the new one.
    expect((await h['outbox.list']({ profileId: P })).map((i) => i.id)).toEqual([again.id]);
    expect((await tasksOnService(env.sandbox)).filter((t) => t.title === 'Too late').map((t) => t.executionTime)).toEqual([later]);
  });
});

describe('status channels', () => {
  it('reports rate-limit budgets per account and throttles their events', async () => {
    env = await startEnv({ tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    await until(async () => (await h['accounts.list']({ profileId: P })).every((a) => a.lastSyncedAt !== null), 'the demo refresh');
    const states = await h['ratelimit.state']({ profileId: P });
    const acme = states.find((s) => s.accountId === 'acmeshoes' && s.group === 'campaigns.list');
    expect(acme).toMatchObject({ limited: true, budget: 'read' });
    expect(acme?.windows.map((w) => w.name)).toEqual(['second', 'minute', 'hour']);
    // oldtimerltd is not limited: its answers carry no rate-limit headers.
    expect(states.find((s) => s.accountId === 'oldtimerltd')?.limited).toBe(false);
    const times = env.eventTimes.filter((_, i) => env!.events[i].event === 'ratelimit.changed');
    expect(times.length).toBeGreaterThan(0);
    // At most one event per profile every 250 ms, however many requests the refresh made.
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(240);
  });

  it('app.info tells where secrets are kept', async () => {
    env = await startEnv();
    expect(await env.core.handlers['app.info']({})).toEqual({
      version: 'test',
      transport: 'browser',
      secrets: { kind: 'memory', warning: expect.stringMatching(/only until you quit/) },
      demo: { available: true, removed: false },
    });
  });
});
