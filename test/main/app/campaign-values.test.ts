// Enum values the service uses but the spec does not show (DECISIONS client 7): the account's
// cached campaigns tell the editor which values exist (campaigns.values), a draft carrying one is
// accepted and queued, and whatever the service then says about it reaches the person in its words.
import { afterEach, describe, expect, it } from 'vitest';
import { testFixtures } from '../../helpers/sandbox';
import { addConnection, type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

function fixturesWithOtherValues() {
  const f = testFixtures();
  f.campaigns = [
    ...(f.campaigns ?? []),
    {
      account_id: 'acmeshoes',
      id: 4200001,
      name: 'Brand push',
      branding_text: 'Acme',
      status: 'APPROVED',
      created_at: '2026-11-20T08:00:00Z',
      bid_strategy: 'TARGET_CPA',
      cpc: null,
      spending_limit: 40,
      spending_limit_model: 'DAILY',
      marketing_objective: 'BRAND_AWARENESS',
      campaign_item_type: 'HAS_DISPLAY_ITEMS',
      spent: 3,
    },
    {
      account_id: 'acmeshoes',
      id: 4200002,
      name: 'Brand again',
      branding_text: 'Acme',
      status: 'APPROVED',
      created_at: '2026-11-20T09:00:00Z',
      bid_strategy: 'FIXED',
      cpc: 0.2,
      spending_limit: 40,
      spending_limit_model: 'DAILY',
      marketing_objective: 'BRAND_AWARENESS',
      spent: 1,
    },
    {
      account_id: 'acmeshoes',
      id: 4200003,
      name: 'Archived by policy',
      branding_text: 'Acme',
      status: 'ARCHIVED_BY_POLICY',
      created_at: '2026-11-20T10:00:00Z',
      bid_strategy: 'FIXED',
      cpc: 0.2,
      spending_limit: 40,
      spending_limit_model: 'MONTHLY',
      marketing_objective: 'LEADS_GENERATION',
      spent: 2,
    },
  ];
  return f;
}

describe('values the service uses', () => {
  it('lists each value seen in the account cache once, in order, and none of another account', async () => {
    env = await startEnv({ fixtures: fixturesWithOtherValues(), demo: false });
    const h = env.core.handlers;
    const p = await addConnection(env);
    await h['accounts.add']({ profileId: p.id, accountId: 'acmeshoes' });
    await h['accounts.add']({ profileId: p.id, accountId: 'oldtimerltd' });
    await h['sync.refresh']({ profileId: p.id, accountId: 'acmeshoes' });
    await until(
      async () =>
        (await h['campaigns.query']({ profileId: p.id, accountId: 'acmeshoes', text: 'brand', offset: 0, limit: 10 })).total === 2,
      'the cache',
    );
    const seen = await h['campaigns.values']({ profileId: p.id, accountId: 'acmeshoes' });
    expect(seen.marketing_objective).toContain('BRAND_AWARENESS');
    expect(seen.marketing_objective.filter((v) => v === 'BRAND_AWARENESS')).toHaveLength(1);
    expect(seen.spending_limit_model).toContain('DAILY');
    expect(seen.bid_strategy).toContain('TARGET_CPA');
    expect(seen.campaign_item_type).toContain('HAS_DISPLAY_ITEMS');
    for (const values of Object.values(seen)) expect(values).toEqual([...values].sort());
    const other = await h['campaigns.values']({ profileId: p.id, accountId: 'oldtimerltd' });
    expect(Object.values(other).flat()).not.toContain('BRAND_AWARENESS');
    await expect(h['campaigns.values']({ profileId: p.id, accountId: 'strangers' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('filters by a status the app does not know, and by a known one in the case the service writes it', async () => {
    // The service writes every enum value in lower case ("approved"), and uses a status the
    // interface does not show: the filter offers it, and picking "Approved" still finds campaigns.
    env = await startEnv({ fixtures: fixturesWithOtherValues(), demo: false, variants: { enum_case: 'lower' } });
    const h = env.core.handlers;
    const p = await addConnection(env);
    const ref = { profileId: p.id, accountId: 'acmeshoes' };
    await h['accounts.add'](ref);
    await h['sync.refresh'](ref);
    const listed = await until(async () => {
      const q = await h['campaigns.query']({ ...ref, offset: 0, limit: 1000 });
      return q.rows.some((r) => r.id === '4200003') ? q.rows : undefined;
    }, 'the cache');
    const approved = listed.filter((r) => r.status === 'approved');
    expect(approved.length).toBeGreaterThan(1);
    // As the Campaigns tab asks, with the interface's spelling (or a view saved before).
    const byKnown = await h['campaigns.query']({ ...ref, statuses: ['APPROVED'], offset: 0, limit: 1000 });
    expect(byKnown.total).toBe(approved.length);
    expect(byKnown.rows.map((r) => r.status)).toEqual(approved.map(() => 'approved'));
    // The new status is offered as the service wrote it, and finds its campaign.
    const seen = await h['campaigns.values'](ref);
    expect(seen.status).toContain('archived_by_policy');
    const byNew = await h['campaigns.query']({ ...ref, statuses: ['archived_by_policy'], offset: 0, limit: 10 });
    expect(byNew.rows.map((r) => r.id)).toEqual(['4200003']);
  });

  it("accepts a draft with such values and queues it; the service's refusal reaches the person in its words", async () => {
    env = await startEnv({ fixtures: fixturesWithOtherValues(), demo: false });
    const h = env.core.handlers;
    const p = await addConnection(env);
    await h['accounts.add']({ profileId: p.id, accountId: 'acmeshoes' });
    const payload = {
      name: 'Awareness',
      branding_text: 'Acme',
      bid_strategy: 'FIXED',
      cpc: 0.3,
      spending_limit_model: 'DAILY',
      marketing_objective: 'BRAND_AWARENESS',
    };
    const d = await h['drafts.save']({ kind: 'campaign', profileId: p.id, accountId: 'acmeshoes', payload });
    expect(d.problems).toEqual([]);
    const item = await h['drafts.submit']({ id: d.id });
    // Our sandbox knows only the spec's values, so it refuses: the person reads why, as it said it.
    const failed = await until(
      async () => (await h['outbox.list']({})).find((i) => i.id === item.id && i.state === 'failed'),
      'the refusal',
    );
    expect(failed.lastError?.message).toContain('marketing_objective must be one of LEADS_GENERATION, DRIVE_WEBSITE_TRAFFIC');
  });
});
