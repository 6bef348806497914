// Learned account capabilities (DECISIONS client 13, issue 14) through the real core on real
// SQLite against the sandbox: a refusal for a capability is remembered for that account with the
// service's words and shown before the next queueing; a create that used one and was posted marks
// it enabled; what the person says replaces what was learned; all of it survives a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { capabilityWarnings } from '../../../src/shared/domain/capabilities';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { sandboxCampaigns } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** The interface's own display example (spec 4.1 rule 6): no branding text, no spending limit. */
const displayExample = (name: string) => ({
  name,
  cpc: 0.4,
  bid_strategy: 'FIXED',
  marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
  campaign_item_type: 'HAS_NO_ITEMS_DISPLAY',
});

async function queue(e: Env, accountId: string, payload: Record<string, unknown>): Promise<OutboxItem> {
  const h = e.core.handlers;
  const d = await h['drafts.save']({ kind: 'campaign', profileId: P, accountId, payload });
  expect(d.problems).toEqual([]);
  return settled(e, (await h['drafts.submit']({ id: d.id })).id);
}

const activityText = async (e: Env) => (await e.core.handlers['activity.list']({ profileId: P, limit: 50 })).map((a) => a.message);

describe('account capabilities', () => {
  it('a refusal for display is remembered for that account with the service words and warned about on the next queueing', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const bakery = { profileId: P, accountId: 'freshcrumbbakery' };
    expect(await h['accounts.capabilities'](bakery)).toEqual({ accountName: 'Fresh Crumb Bakery', capabilities: [] });

    // Nothing is known: the display example is ready to queue on an account not enabled for it.
    const first = await queue(env, 'freshcrumbbakery', displayExample('Holiday banners'));
    expect(first.state).toBe('failed');
    const known = await until(async () => {
      const k = await h['accounts.capabilities'](bakery);
      return k.capabilities.length > 0 ? k : undefined;
    }, 'the refusal to be learned');
    expect(known.capabilities).toEqual([
      {
        capability: 'display',
        state: 'refused',
        source: 'learned',
        message: 'This account is not enabled for display campaigns',
        at: expect.any(Number),
      },
    ]);
    // Only that account learned it.
    expect((await h['accounts.capabilities']({ profileId: P, accountId: 'acmeshoes' })).capabilities).toEqual([]);

    // The editor's warning, from what the channel gives it.
    const [warning] = capabilityWarnings(displayExample('Again'), known.capabilities, known.accountName, env.sandbox.now());
    expect(warning.message).toMatch(
      /^Fresh Crumb Bakery refused display campaigns on [A-Z][a-z]{2} \d{1,2}: This account is not enabled for display campaigns\. Queue anyway, or change the campaign type\.$/,
    );
    // A native draft of the same account is not warned about.
    expect(
      capabilityWarnings({ name: 'Native', campaign_item_type: 'HAS_NO_ITEMS' }, known.capabilities, known.accountName, env.sandbox.now()),
    ).toEqual([]);

    // Warned, not blocked: the person may still queue it, and the log says it was queued knowingly.
    const d = await h['drafts.save']({
      kind: 'campaign',
      profileId: P,
      accountId: 'freshcrumbbakery',
      payload: displayExample('Queued anyway'),
    });
    expect(d.problems).toEqual([]);
    await h['drafts.submit']({ id: d.id });
    expect(await activityText(env)).toContainEqual(
      expect.stringMatching(
        /^Fresh Crumb Bakery refused display campaigns on .*: This account is not enabled for display campaigns\. Queued anyway\.$/,
      ),
    );
  });

  it('a posted display example with no spending limit, and a campaign without a limit, mark the account enabled for them', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const acme = { profileId: P, accountId: 'acmeshoes' };
    expect((await queue(env, 'acmeshoes', displayExample('Winter boots banners'))).state).toBe('sent');
    expect((await sandboxCampaigns(env.sandbox, 'acmeshoes')).filter((c) => c.name === 'Winter boots banners')).toHaveLength(1);
    const noLimit = {
      name: 'Boots, no limit',
      branding_text: 'Acme',
      bid_strategy: 'FIXED',
      cpc: 0.3,
      marketing_objective: 'LEADS_GENERATION',
      spending_limit_model: 'NONE',
      daily_cap: 50,
    };
    expect((await queue(env, 'acmeshoes', noLimit)).state).toBe('sent');
    const known = await until(async () => {
      const k = await h['accounts.capabilities'](acme);
      return k.capabilities.length === 2 ? k : undefined;
    }, 'both to be learned');
    expect(known.capabilities).toEqual([
      { capability: 'display', state: 'enabled', source: 'learned', message: null, at: expect.any(Number) },
      { capability: 'no_spending_limit', state: 'enabled', source: 'learned', message: null, at: expect.any(Number) },
    ]);
    expect(await activityText(env)).toContainEqual('Acme Shoes is enabled for display campaigns: the service posted one.');
  });

  it('what the person says replaces a stale learned refusal, and both survive a restart', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const old = { profileId: P, accountId: 'oldtimerltd' };
    const noLimit = {
      name: 'Clocks, no limit',
      branding_text: 'Old Timer',
      bid_strategy: 'MAX_CONVERSIONS',
      marketing_objective: 'LEADS_GENERATION',
      spending_limit_model: 'NONE',
      daily_cap: 20,
    };
    expect((await queue(env, 'oldtimerltd', noLimit)).state).toBe('failed');
    await until(
      async () => (await h['accounts.capabilities'](old)).capabilities.some((c) => c.state === 'refused'),
      'the refusal to be learned',
    );

    // The person knows better (the account was enabled since): the refusal no longer warns.
    const said = await h['accounts.setCapability']({ ...old, capability: 'no_spending_limit', state: 'enabled' });
    expect(said.capabilities).toEqual([
      { capability: 'no_spending_limit', state: 'enabled', source: 'person', message: null, at: expect.any(Number) },
    ]);
    expect(capabilityWarnings(noLimit, said.capabilities, said.accountName, env.sandbox.now())).toEqual([]);
    // And says display is not enabled, which warns though the service never refused it.
    const after = await h['accounts.setCapability']({ ...old, capability: 'display', state: 'refused' });
    expect(
      capabilityWarnings({ campaign_item_type: 'HAS_NO_ITEMS_DISPLAY' }, after.capabilities, after.accountName, env.sandbox.now())[0]
        .message,
    ).toMatch(/^You said Old Timer Ltd is not enabled for display campaigns \(.+\)\. Queue anyway, or change the campaign type\.$/);

    await env.core.close();
    const core = await env.restart();
    expect((await core.handlers['accounts.capabilities'](old)).capabilities).toEqual(after.capabilities);
    // Unknown again when the person says they do not know.
    const forgotten = await core.handlers['accounts.setCapability']({ ...old, capability: 'display', state: 'unknown' });
    expect(forgotten.capabilities.map((c) => c.capability)).toEqual(['no_spending_limit']);
    await expect(core.handlers['accounts.capabilities']({ profileId: P, accountId: 'nosuchaccount' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
