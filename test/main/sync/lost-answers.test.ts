// A create whose answer was lost after the service applied it, against a service that makes other
// legal choices than ours: it fills in and normalises what a create sends (fill_on_create), it
// applies a write seconds after the connection closed (late_apply_ms), or two campaigns look like
// the lost one. Each test counts on the sandbox's own state: every edit exactly once, never a
// resend while in doubt.
import { afterEach, describe, expect, it } from 'vitest';
import { call, campaignPayload, fault, onService, tokenFor } from '../../helpers/sandbox';
import { type Env, outboxItem, settled, startEnv, submitCampaign } from '../../helpers/world';
import { until } from '../../helpers/wait';
import type { AnswerRewrite } from '../../helpers/proxy';
import { graceFor } from '../../helpers/variants';
import { creates, lastSeq, listReads } from './support';

// Enabled for display campaigns and for the NONE limit model (rate limited: the look-ups count).
const ACME = 'acmeshoes';
// Not rate limited.
const OLD = 'oldtimerltd';
const createPath = (account: string) => `/core/api/1.0/${account}/campaigns`;
const lostAnswer = (account: string) => ({ method: 'POST', path_prefix: createPath(account), mode: 'close_after', count: 1 });

/** A listing in which every grouped campaign has the group's spending limit model filled in. */
function groupModelFilledIn(path: string, body: Buffer): Buffer | undefined {
  if (!/\/campaigns\/?(\?|$)/.test(path)) return undefined;
  try {
    const page = JSON.parse(body.toString()) as { results?: Record<string, unknown>[] };
    if (!Array.isArray(page.results)) return undefined;
    for (const c of page.results) if (c.campaign_group_id) c.spending_limit_model = 'SHARED_BUDGET';
    return Buffer.from(JSON.stringify(page));
  } catch {
    return undefined;
  }
}

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('a lost create against a service that fills in and normalises what it was sent', () => {
  const cases: { what: string; account: string; payload: Record<string, unknown>; proxy?: { rewrite: AnswerRewrite } }[] = [
    {
      // Sends no spending limit model; the service fills in MONTHLY.
      what: 'a display campaign',
      account: ACME,
      payload: {
        name: 'Lost display',
        bid_strategy: 'FIXED',
        cpc: 0.5,
        marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
        campaign_item_type: 'HAS_NO_ITEMS_DISPLAY',
      },
    },
    {
      // A shared-budget group's campaign leaves the limit out, and this service lists it with the
      // group's model (the sandbox's fill_on_create leaves grouped campaigns alone: a proxy plays it).
      what: 'a campaign in a campaign group',
      account: OLD,
      payload: {
        name: 'Lost grouped',
        branding_text: 'Old Timer',
        bid_strategy: 'MAX_CONVERSIONS',
        marketing_objective: 'LEADS_GENERATION',
        campaign_group_id: 'group-7',
      },
      proxy: { rewrite: groupModelFilledIn },
    },
    {
      // Outer whitespace trimmed, money rounded to cents, the start date rewritten as UTC.
      what: 'a campaign whose name, money and start date the service normalises',
      account: OLD,
      payload: campaignPayload('  Lost normalised  ', { cpc: 0.125, spending_limit: 1499.999, start_date: '2027-03-01T10:00:00+02:00' }),
    },
  ];
  for (const c of cases) {
    it(`${c.what} ends as exactly one campaign, found by looking`, async () => {
      // However late the run's service applies a lost write, the look-ups wait for it.
      env = await startEnv({
        variants: { fill_on_create: true },
        tuning: { uncertainGraceMs: graceFor() },
        ...(c.proxy ? { proxy: c.proxy } : {}),
      });
      await fault(env.sandbox, lostAnswer(c.account));
      const item = await submitCampaign(env, c.account, c.payload);
      const done = await settled(env, item.id);
      expect(done.state).toBe('sent');
      expect(await onService(env.sandbox, c.account, String(c.payload.name))).toHaveLength(1);
      expect((await creates(env.sandbox, c.account)).map((r) => r.outcome)).toEqual(['fault_close_after']);
    });
  }

  it('the service really fills in a model the display create left out (what made the old match miss)', async () => {
    env = await startEnv({ variants: { fill_on_create: true } });
    const item = await submitCampaign(env, ACME, cases[0].payload);
    expect((await settled(env, item.id)).state).toBe('sent');
    expect((await onService(env.sandbox, ACME, 'Lost display'))[0]?.spending_limit_model).toBe('MONTHLY');
  });
});

describe('a service that applies a write after its connection closed', () => {
  // The service applies a lost create 10 s after the connection dropped (sandbox clock); the
  // client waits 6 s before each look-up. The first look-up (6 s) comes too early, the second
  // (12 s, a fresh grace period after the first) finds the campaign. One look-up would resend.
  const LATE = 10_000;
  const GRACE = 6_000;

  it('a single "not found" is not proof: the second look-up, a grace period later, finds the late campaign', async () => {
    env = await startEnv({ clock: 'manual', variants: { late_apply_ms: LATE }, tuning: { uncertainGraceMs: GRACE } });
    const e = env;
    await fault(e.sandbox, lostAnswer(OLD));
    const item = await submitCampaign(e, OLD, campaignPayload('Late boots'));
    await until(async () => (await outboxItem(e, item.id))?.state === 'uncertain', 'the answer to be lost');
    expect(await onService(e.sandbox, OLD, 'Late boots'), 'the sandbox plays late_apply_ms').toHaveLength(0);
    const sent = await lastSeq(e.sandbox);

    // First look-up: nothing yet.
    e.sandbox.advance(GRACE);
    await e.core.handlers['outbox.retry']({ id: item.id });
    await until(async () => /looking once more/.test((await outboxItem(e, item.id))?.lastError?.message ?? ''), 'the first look-up');
    expect((await listReads(e.sandbox, OLD, sent)).length).toBeGreaterThan(0);
    expect(await onService(e.sandbox, OLD, 'Late boots')).toHaveLength(0);
    expect((await outboxItem(e, item.id))?.state).toBe('uncertain');
    expect(await creates(e.sandbox, OLD)).toHaveLength(1);

    // The service applies it; the second look-up, a grace period after the first, finds it.
    e.sandbox.advance(GRACE);
    await e.core.handlers['outbox.retry']({ id: item.id });
    const done = await settled(e, item.id);
    expect(done.state).toBe('sent');
    expect(await onService(e.sandbox, OLD, 'Late boots')).toHaveLength(1);
    expect(await creates(e.sandbox, OLD)).toHaveLength(1);
  });

  it('absent in both look-ups (the write never happened): sent again once, after the second', async () => {
    env = await startEnv({ clock: 'manual', variants: { late_apply_ms: LATE }, tuning: { uncertainGraceMs: GRACE } });
    const e = env;
    await fault(e.sandbox, { ...lostAnswer(OLD), mode: 'close_before' });
    const item = await submitCampaign(e, OLD, campaignPayload('Never landed boots'));
    await until(async () => (await outboxItem(e, item.id))?.state === 'uncertain', 'the answer to be lost');
    const sent = await lastSeq(e.sandbox);
    e.sandbox.advance(GRACE);
    await e.core.handlers['outbox.retry']({ id: item.id });
    await until(async () => /looking once more/.test((await outboxItem(e, item.id))?.lastError?.message ?? ''), 'the first look-up');
    expect((await listReads(e.sandbox, OLD, sent)).length).toBeGreaterThan(0);
    // Not found once: still uncertain, nothing sent again yet.
    expect((await outboxItem(e, item.id))?.state).toBe('uncertain');
    expect(await creates(e.sandbox, OLD)).toHaveLength(1);
    e.sandbox.advance(GRACE);
    await e.core.handlers['outbox.retry']({ id: item.id });
    expect((await settled(e, item.id)).state).toBe('sent');
    expect(await onService(e.sandbox, OLD, 'Never landed boots')).toHaveLength(1);
    expect((await creates(e.sandbox, OLD)).map((r) => r.outcome)).toEqual(['fault_close_before', 'ok']);
  });
});

describe('an ambiguous match is put to the person', () => {
  const GRACE = 60_000;
  const sameContent = campaignPayload('Twin lost boots');

  /** A lost create, and before it is looked for, someone else creates the same campaign. */
  async function ambiguous(): Promise<{ env: Env; id: string; ours: number[] }> {
    const e = await startEnv({ clock: 'manual', variants: { late_apply_ms: undefined }, tuning: { uncertainGraceMs: GRACE } });
    await fault(e.sandbox, lostAnswer(OLD));
    const item = await submitCampaign(e, OLD, sameContent);
    await until(async () => (await outboxItem(e, item.id))?.state === 'uncertain', 'the answer to be lost');
    const token = await tokenFor(e.sandbox);
    const other = await call(e.sandbox, 'POST', `${createPath(OLD)}/`, { token, json: sameContent });
    expect(other.status >= 200 && other.status < 300, `status ${other.status}`).toBe(true);
    // The grace period passes on the service's clock; Retry asks the engine to look now.
    e.sandbox.advance(GRACE + 1_000);
    await e.core.handlers['outbox.retry']({ id: item.id });
    await until(async () => (await outboxItem(e, item.id))?.lastError?.code === 'AMBIGUOUS', 'the item to wait for the person');
    return { env: e, id: item.id, ours: (await onService(e.sandbox, OLD, 'Twin lost boots')).map((c) => c.id) };
  }

  it('names the candidates, sends nothing while in doubt, survives a restart, and "It is campaign N" settles it', async () => {
    const a = await ambiguous();
    env = a.env;
    const item = await outboxItem(env, a.id);
    expect(item?.state).toBe('uncertain');
    for (const id of a.ours) expect(item?.lastError?.message).toContain(String(id));
    expect(await env.core.handlers['outbox.candidates']({ id: a.id })).toEqual({ kind: 'campaign', ids: a.ours.map(String) });
    // A restart keeps the question; nothing is looked up or sent on its own meanwhile. Past the
    // lane bound (5 minutes) it waits aside, parked, still the person's question.
    await env.core.close();
    await env.restart();
    env.sandbox.advance(10 * GRACE);
    await env.core.handlers['outbox.retry']({ id: a.id });
    const e = env;
    await until(async () => (await outboxItem(e, a.id))?.lastError?.code === 'PARKED', 'the item to be parked');
    expect(await env.core.handlers['outbox.candidates']({ id: a.id })).toEqual({ kind: 'campaign', ids: a.ours.map(String) });
    await expect(env.core.handlers['outbox.confirmMatch']({ id: a.id, candidateId: '1' })).rejects.toMatchObject({ code: 'validation' });
    const done = await env.core.handlers['outbox.confirmMatch']({ id: a.id, candidateId: String(a.ours[1]) });
    expect(done.state).toBe('sent');
    expect(await onService(env.sandbox, OLD, 'Twin lost boots')).toHaveLength(2);
    expect(await creates(env.sandbox, OLD)).toHaveLength(2);
  });

  it('"It was not posted: send it" sends it again exactly once, on that choice only', async () => {
    const a = await ambiguous();
    env = a.env;
    expect(await creates(env.sandbox, OLD)).toHaveLength(2);
    await env.core.handlers['outbox.sendAgain']({ id: a.id });
    expect((await settled(env, a.id)).state).toBe('sent');
    expect(await onService(env.sandbox, OLD, 'Twin lost boots')).toHaveLength(3);
    expect((await creates(env.sandbox, OLD)).map((r) => r.outcome)).toEqual(['fault_close_after', 'ok', 'ok']);
    // Only an ambiguous item can be answered.
    await expect(env.core.handlers['outbox.sendAgain']({ id: a.id })).rejects.toMatchObject({ code: 'conflict' });
  });
});
