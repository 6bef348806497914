// Faults injected by the sandbox on the wire: lost answers, 500s, slow answers and refusals. Each
// test proves what ends up on the service, counted there, not what the desk believes.
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { campaignPayload, control, fault, sandboxCampaigns } from '../../helpers/sandbox';
import { type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';
import { graceFor } from '../../helpers/variants';

const P = 'sandbox-demo';
// Created before 2026-10-04: not rate limited, so only the faults shape what happens.
const ACCOUNT = 'oldtimerltd';
const CREATE = { method: 'POST', path_prefix: `/core/api/1.0/${ACCOUNT}/campaigns` };

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function submit(e: Env, name: string, overrides: Record<string, unknown> = {}, account = ACCOUNT): Promise<OutboxItem> {
  const d = await e.core.handlers['drafts.save']({
    kind: 'campaign',
    profileId: P,
    accountId: account,
    payload: campaignPayload(name, overrides),
  });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

async function settled(e: Env, id: string): Promise<OutboxItem> {
  return until(async () => {
    const item = (await e.core.handlers['outbox.list']({ profileId: P })).find((i) => i.id === id);
    return item && ['sent', 'failed', 'blocked'].includes(item.state) ? item : undefined;
  }, `outbox item ${id} to settle`);
}

const named = async (e: Env, name: string) => (await sandboxCampaigns(e.sandbox, ACCOUNT)).filter((c) => c.name === name);

async function posts(e: Env): Promise<{ outcome: string }[]> {
  const r = (await control(e.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string; outcome: string }[] };
  // A write the late_apply_ms variant applied after its connection dropped has its own entry.
  return r.requests.filter((x) => x.method === 'POST' && x.path.startsWith(CREATE.path_prefix) && x.outcome !== 'late_applied');
}

describe('outbox drain under faults', () => {
  it('a create whose answer is lost after it was applied ends as one campaign, found by looking, not by resending', async () => {
    // A service that applies a lost write late (late_apply_ms) is given the time to do so.
    env = await startEnv({ tuning: { uncertainGraceMs: graceFor() } });
    await fault(env.sandbox, { ...CREATE, mode: 'close_after', count: 1 });
    const item = await submit(env, 'Lost answer boots');
    const done = await settled(env, item.id);
    expect(done.state).toBe('sent');
    expect(await named(env, 'Lost answer boots')).toHaveLength(1);
    expect((await posts(env)).map((p) => p.outcome)).toEqual(['fault_close_after']);
    // The campaign the service made is in the cache, under its real id.
    const [onService] = await named(env, 'Lost answer boots');
    const q = await env.core.handlers['campaigns.query']({
      profileId: P,
      accountId: ACCOUNT,
      text: 'Lost answer boots',
      offset: 0,
      limit: 10,
    });
    expect(q.rows.map((r) => r.id)).toEqual([String(onService.id)]);
  });

  it('a create dropped before it was applied is looked for, found absent, and sent exactly once more', async () => {
    env = await startEnv();
    await fault(env.sandbox, { ...CREATE, mode: 'close_before', count: 1 });
    const item = await submit(env, 'Dropped boots');
    expect((await settled(env, item.id)).state).toBe('sent');
    expect(await named(env, 'Dropped boots')).toHaveLength(1);
    expect((await posts(env)).map((p) => p.outcome)).toEqual(['fault_close_before', 'ok']);
  });

  it('an identical campaign that existed before the send is not taken for the lost one', async () => {
    env = await startEnv({ tuning: { refreshOnStart: true } });
    // The same content, created (and cached) before: it is in the item's baseline.
    const first = await submit(env, 'Twin boots');
    expect((await settled(env, first.id)).state).toBe('sent');
    await fault(env.sandbox, { ...CREATE, mode: 'close_before', count: 1 });
    const second = await submit(env, 'Twin boots');
    expect((await settled(env, second.id)).state).toBe('sent');
    // Two edits, two campaigns: the second was resent because nothing new was found.
    expect(await named(env, 'Twin boots')).toHaveLength(2);
  });

  it('500s are retried with backoff until the create goes through, once', async () => {
    env = await startEnv();
    await fault(env.sandbox, { ...CREATE, mode: 'status_500', count: 2 });
    const item = await submit(env, 'Flaky server boots');
    const done = await settled(env, item.id);
    expect(done.state).toBe('sent');
    expect(done.attempts).toBe(3);
    expect((await posts(env)).map((p) => p.outcome)).toEqual(['fault_500', 'fault_500', 'ok']);
    expect(await named(env, 'Flaky server boots')).toHaveLength(1);
  });

  it('gives up after the attempt cap for 5xx, as failed with a retry, and Retry sends it', async () => {
    env = await startEnv({ tuning: { maxServerAttempts: 2 } });
    await fault(env.sandbox, { ...CREATE, mode: 'status_500', count: 2 });
    const item = await submit(env, 'Hopeless server boots');
    const failed = await settled(env, item.id);
    expect(failed.state).toBe('failed');
    expect(failed.lastError?.code).toBe('SERVER');
    expect(failed.fix).toMatch(/Retry/);
    expect(await named(env, 'Hopeless server boots')).toHaveLength(0);
    await env.core.handlers['outbox.retry']({ id: item.id });
    expect((await settled(env, item.id)).state).toBe('sent');
    expect(await named(env, 'Hopeless server boots')).toHaveLength(1);
  });

  it('a timeout (the answer slower than the client waits) is retried without a duplicate', async () => {
    // The sandbox applies the slow request after its delay; the grace period lets it land first.
    env = await startEnv({ tuning: { requestTimeoutMs: 300, uncertainGraceMs: 1_500 } });
    await fault(env.sandbox, { ...CREATE, mode: 'delay', delay_ms: 900, count: 1 });
    const item = await submit(env, 'Slow server boots');
    const done = await settled(env, item.id);
    expect(done.state).toBe('sent');
    // Count only once the slow request has landed (its delay is real time), and once the core has
    // closed: closing lets every request it sent finish, so no later POST can still be on its way.
    await until(async () => (await posts(env!)).length >= 1, 'the slow request to land');
    await env.core.close();
    expect(await named(env, 'Slow server boots')).toHaveLength(1);
    expect(await posts(env)).toHaveLength(1);
  });

  it('a timeout on a request the server never applied is sent again', async () => {
    env = await startEnv({ tuning: { requestTimeoutMs: 300, uncertainGraceMs: 100 } });
    // close_before after a delay: the client gives up first, and the server applies nothing.
    await fault(env.sandbox, { ...CREATE, mode: 'delay', delay_ms: 600, count: 1 });
    await fault(env.sandbox, { ...CREATE, mode: 'close_before', count: 1 });
    const item = await submit(env, 'Never applied boots');
    expect((await settled(env, item.id)).state).toBe('sent');
    expect(await named(env, 'Never applied boots')).toHaveLength(1);
  });

  it('a 400 stops only that item: later items of the same account are sent in order', async () => {
    env = await startEnv();
    const a = await submit(env, 'Before the bad one');
    // oldtimerltd is not enabled for display campaigns: the desk cannot know, the service refuses.
    const bad = await submit(env, 'Display without the feature', {
      campaign_item_type: 'HAS_NO_ITEMS_DISPLAY',
      branding_text: undefined,
      spending_limit: undefined,
      spending_limit_model: undefined,
    });
    const c = await submit(env, 'After the bad one');
    const [sa, sbad, sc] = [await settled(env, a.id), await settled(env, bad.id), await settled(env, c.id)];
    expect([sa.state, sbad.state, sc.state]).toEqual(['sent', 'failed', 'sent']);
    expect(sbad.lastError?.message).toMatch(/not enabled for display/);
    const order = (await sandboxCampaigns(env.sandbox, ACCOUNT)).filter((x) => x.name.includes('the bad one')).map((x) => x.name);
    expect(order).toEqual(['Before the bad one', 'After the bad one']);
  });

  it("one account's faults do not stall another account", async () => {
    env = await startEnv();
    await fault(env.sandbox, { ...CREATE, mode: 'status_500', count: 1000 });
    const stuck = await submit(env, 'Stuck boots');
    const other = await submit(env, 'Free travel', { branding_text: 'Sun Trail' }, 'suntrailtravel');
    expect((await settled(env, other.id)).state).toBe('sent');
    const s = (await env.core.handlers['outbox.list']({ profileId: P })).find((i) => i.id === stuck.id);
    expect(['queued', 'sending', 'uncertain']).toContain(s?.state);
  });

  it('Retry sends a waiting item now, whatever its backoff', async () => {
    env = await startEnv({ tuning: { retryBackoff: { baseMs: 60_000, maxMs: 60_000 } } });
    await fault(env.sandbox, { ...CREATE, mode: 'status_500', count: 1 });
    const item = await submit(env, 'Impatient boots');
    const waiting = await until(async () => {
      const i = (await env!.core.handlers['outbox.list']({ profileId: P })).find((x) => x.id === item.id);
      return i?.state === 'queued' && i.attempts === 1 ? i : undefined;
    }, 'the item to wait for its retry');
    expect(waiting.nextAttemptAt).toBeGreaterThan(Date.now() + 20_000);
    await env.core.handlers['outbox.retry']({ id: item.id });
    expect((await settled(env, item.id)).state).toBe('sent');
    expect(await named(env, 'Impatient boots')).toHaveLength(1);
  });
});
