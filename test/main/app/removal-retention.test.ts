// Issue 14 items 5 and 6, through the real core on a real SQLite file against the sandbox:
// removing an account or a connection never deletes unsent work the person did not choose to
// discard (the refusal counts it by kind and carries the list), never while a change is being
// sent, and takes nothing of anything else; history is kept for the days the person sets, and
// a shorter period prunes at once what it says it will (time moved by the clock, no sleeps).
import { afterEach, describe, expect, it } from 'vitest';
import { unsentKey, type UnsentItem } from '../../../src/shared/domain/unsent';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { DAY_MS } from '../../../src/shared/retention';
import { campaignPayload, fault } from '../../helpers/sandbox';
import { addConnection, type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const BAKERY = { profileId: P, accountId: 'freshcrumbbakery' };
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** The interface's display example: refused by an account not enabled for display. */
const displayExample = (name: string) => ({
  name,
  cpc: 0.4,
  bid_strategy: 'FIXED',
  marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
  campaign_item_type: 'HAS_NO_ITEMS_DISPLAY',
});

async function itemIn(e: Env, id: string, states: OutboxItem['state'][]): Promise<OutboxItem> {
  return until(
    async () => {
      const item = (await e.core.handlers['outbox.list']({ profileId: P })).find((i) => i.id === id);
      return item && states.includes(item.state) ? item : undefined;
    },
    `outbox item ${id} to be ${states.join(' or ')}`,
  );
}

async function queue(e: Env, accountId: string, payload: Record<string, unknown>): Promise<OutboxItem> {
  const d = await e.core.handlers['drafts.save']({ kind: 'campaign', profileId: P, accountId, payload });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error('expected a refusal');
}

describe('removal accounts for every unsent change', () => {
  it('refuses to remove an account with a draft, a queued and a failed change, counting them; with the choice it goes and nothing else is lost', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const failed = await queue(env, BAKERY.accountId, displayExample('Holiday banners'));
    await itemIn(env, failed.id, ['failed']);
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const queued = await queue(env, BAKERY.accountId, campaignPayload('Cookie week'));
    await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: BAKERY.accountId, payload: campaignPayload('Sourdough spring') });
    // Another account's work, which must survive.
    const elsewhere = await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: 'acmeshoes', payload: campaignPayload('Boots') });
    const elsewhereQueued = await queue(env, 'acmeshoes', campaignPayload('Sandals'));

    const { items } = await h['unsent.list'](BAKERY);
    const byGroup = (g: UnsentItem['group']) => items.filter((i) => i.group === g).map((i) => i.summary);
    expect(byGroup('draft')).toEqual(['Campaign draft "Sourdough spring"']);
    expect(byGroup('queued')).toEqual(['Create campaign "Cookie week"']);
    expect(byGroup('failed')).toEqual(['Create campaign "Holiday banners"']);
    expect(items.find((i) => i.group === 'failed')?.words).toMatch(/This account is not enabled for display campaigns$/);
    // What would be sent, to export: the campaign's own fields.
    expect(items.find((i) => i.group === 'draft')?.payload).toMatchObject({ name: 'Sourdough spring', cpc: 0.35 });
    expect(items.find((i) => i.group === 'queued')?.payload).toMatchObject({ name: 'Cookie week', spending_limit: 1500 });

    const refused = await refusal(h['accounts.remove'](BAKERY));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toBe('1 draft, 1 queued and 1 failed changes are not sent: export them or choose to discard them.');
    expect((refused.details?.unsent as UnsentItem[]).map((i) => i.id).sort()).toEqual(items.map((i) => i.id).sort());
    // Refused means untouched.
    expect((await h['accounts.list']({ profileId: P })).some((a) => a.accountId === BAKERY.accountId)).toBe(true);
    expect((await h['unsent.list'](BAKERY)).items).toHaveLength(3);
    expect(await refusal(h['accounts.remove']({ ...BAKERY, discardUnsent: false }))).toMatchObject({ code: 'conflict' });

    await h['accounts.remove']({ ...BAKERY, discardUnsent: true });
    expect((await h['accounts.list']({ profileId: P })).some((a) => a.accountId === BAKERY.accountId)).toBe(false);
    const outbox = await h['outbox.list']({ profileId: P });
    expect(outbox.filter((o) => o.accountId === BAKERY.accountId)).toEqual([]);
    expect(outbox.find((o) => o.id === elsewhereQueued.id)?.state).toBe('queued');
    expect((await h['drafts.list']({ profileId: P, accountId: 'acmeshoes' })).map((d) => d.id)).toContain(elsewhere.id);
    expect(queued.id).not.toBe(elsewhereQueued.id);
    const log = (await h['activity.list']({ profileId: P, limit: 20 })).map((a) => a.message);
    expect(log).toContain('Account freshcrumbbakery removed; 1 draft, 1 queued and 1 failed changes are discarded, as chosen.');
  });

  it('never discards a change made after the list was shown: the removal names it and waits for a new look', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: BAKERY.accountId, payload: campaignPayload('Seen') });
    const shown = (await h['unsent.list'](BAKERY)).items.map(unsentKey);
    // Another window adds a draft while the dialog is open.
    await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: BAKERY.accountId, payload: campaignPayload('Made meanwhile') });
    const refused = await refusal(h['accounts.remove']({ ...BAKERY, discardUnsent: true, discarding: shown }));
    expect(refused).toMatchObject({
      code: 'conflict',
      message: 'Another change was made since the list was shown (Campaign draft "Made meanwhile"): look at the list again, then choose.',
    });
    expect((await h['unsent.list'](BAKERY)).items).toHaveLength(2);
    await h['accounts.remove']({ ...BAKERY, discardUnsent: true, discarding: (await h['unsent.list'](BAKERY)).items.map(unsentKey) });
    expect((await h['accounts.list']({ profileId: P })).some((a) => a.accountId === BAKERY.accountId)).toBe(false);
  });

  it('removes an account with nothing unsent as before, without asking', async () => {
    env = await startEnv();
    expect((await env.core.handlers['unsent.list'](BAKERY)).items).toEqual([]);
    await env.core.handlers['accounts.remove'](BAKERY);
    expect((await env.core.handlers['accounts.list']({ profileId: P })).some((a) => a.accountId === BAKERY.accountId)).toBe(false);
  });

  it('refuses while a change is being sent, whatever the choice, and says to wait', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    // The service takes its time to answer this create: the item stays 'sending' meanwhile.
    await fault(env.sandbox, {
      method: 'POST',
      path_prefix: `/core/api/1.0/${BAKERY.accountId}/campaigns`,
      mode: 'delay',
      delay_ms: 3000,
      count: 1,
    });
    const item = await queue(env, BAKERY.accountId, campaignPayload('Slow bread'));
    await itemIn(env, item.id, ['sending']);
    const refused = await refusal(h['accounts.remove']({ ...BAKERY, discardUnsent: true }));
    expect(refused).toMatchObject({ code: 'conflict', message: expect.stringMatching(/^A change is being sent right now: wait a moment/) });
    await itemIn(env, item.id, ['sent']);
    // Sent is history, not unsent work: the account goes without asking.
    await h['accounts.remove'](BAKERY);
    expect((await h['accounts.list']({ profileId: P })).some((a) => a.accountId === BAKERY.accountId)).toBe(false);
  });

  it('refuses to remove a connection with unsent work of any of its accounts, push drafts included; with the choice it goes, another connection untouched', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const other = await addConnection(env);
    await h['accounts.add']({ profileId: other.id, accountId: 'acmeshoes' });
    const keep = await h['drafts.save']({
      kind: 'campaign',
      profileId: other.id,
      accountId: 'acmeshoes',
      payload: campaignPayload('Keep me'),
    });

    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    await queue(env, 'acmeshoes', campaignPayload('Boots'));
    await h['drafts.save']({ kind: 'campaign', profileId: P, accountId: 'oldtimerltd', payload: campaignPayload('Clocks') });
    await h['drafts.save']({
      kind: 'push',
      profileId: P,
      accountId: 'acmeshoes',
      payload: { mode: 'immediate', event: { title: 'Winter sale' } },
    });

    const { items } = await h['unsent.list']({ profileId: P });
    expect(items.map((i) => i.summary).sort()).toEqual(['Campaign draft "Clocks"', 'Create campaign "Boots"', 'Push draft "Winter sale"']);
    const refused = await refusal(h['profiles.remove']({ profileId: P }));
    expect(refused.message).toBe('2 drafts and 1 queued change are not sent: export them or choose to discard them.');
    expect((await h['profiles.list']({})).map((p) => p.id)).toContain(P);

    await h['profiles.remove']({ profileId: P, discardUnsent: true });
    expect((await h['profiles.list']({})).map((p) => p.id)).toEqual([other.id]);
    expect(await h['outbox.list']({ profileId: P })).toEqual([]);
    expect((await h['drafts.list']({ profileId: other.id, accountId: 'acmeshoes' })).map((d) => d.id)).toEqual([keep.id]);
  });
});

describe('retention the person sets', () => {
  it('prunes sent history after the days set: a shorter period says what goes, then prunes at once; unsent work never', async () => {
    env = await startEnv({ clock: 'manual' });
    const h = env.core.handlers;
    expect(await h['retention.get']({})).toEqual({ sentDays: 30, activityDays: 30 });
    const sent = await queue(env, 'oldtimerltd', campaignPayload('Ten days ago'));
    await itemIn(env, sent.id, ['sent']);
    env.sandbox.advance(10 * DAY_MS);
    await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    const waiting = await queue(env, 'oldtimerltd', campaignPayload('Still waiting'));
    const recent = await h['drafts.save']({
      kind: 'campaign',
      profileId: P,
      accountId: 'oldtimerltd',
      payload: campaignPayload('A draft'),
    });

    // Out of range: refused with the bounds, nothing changed.
    expect(await refusal(h['retention.set']({ sentDays: 0, activityDays: 30 }))).toMatchObject({
      code: 'validation',
      message: 'Sent history: keep it at least 1 day.',
    });
    expect(await refusal(h['retention.preview']({ sentDays: 30, activityDays: 400 }))).toMatchObject({
      message: 'Activity log: keep it at most 365 days (a year).',
    });
    expect(await refusal(h['retention.set']({ sentDays: 7.5, activityDays: 30 }))).toMatchObject({
      message: 'Sent history: write a whole number of days.',
    });
    expect(await h['retention.get']({})).toEqual({ sentDays: 30, activityDays: 30 });

    // Said before saving, and nothing goes yet.
    const preview = await h['retention.preview']({ sentDays: 7, activityDays: 30 });
    expect(preview).toEqual({ sent: 1, activity: 0 });
    expect((await h['outbox.list']({ profileId: P })).map((o) => o.id)).toContain(sent.id);

    const saved = await h['retention.set']({ sentDays: 7, activityDays: 9 });
    expect(saved.retention).toEqual({ sentDays: 7, activityDays: 9 });
    expect(saved.removed.sent).toBe(1);
    expect(saved.removed.activity).toBeGreaterThan(0);
    const ids = (await h['outbox.list']({ profileId: P })).map((o) => o.id);
    expect(ids).not.toContain(sent.id);
    expect(ids).toContain(waiting.id);
    expect((await h['drafts.list']({ profileId: P, accountId: 'oldtimerltd' })).map((d) => d.id)).toContain(recent.id);
    const log = (await h['activity.list']({ profileId: P, limit: 200 })).map((a) => a.message);
    expect(log.some((m) => m.includes('Ten days ago'))).toBe(false);

    // The setting survives a restart and the drainer's own prune uses it: a change sent now goes
    // once it is older than 7 days, not 30.
    await h['profiles.setWorkOffline']({ profileId: P, offline: false });
    await itemIn(env, waiting.id, ['sent']);
    await env.core.close();
    env.sandbox.advance(8 * DAY_MS);
    await env.restart();
    expect(await env.core.handlers['retention.get']({})).toEqual({ sentDays: 7, activityDays: 9 });
    expect((await env.core.handlers['outbox.list']({ profileId: P })).map((o) => o.id)).not.toContain(waiting.id);
  });
});
