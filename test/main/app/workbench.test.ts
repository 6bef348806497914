// The core side of issue 16, through the real core on real SQLite against the sandbox: the saved
// window survives a restart, campaigns.records carries every field the service sent (unknown ones
// included), drafts.saveMany is all or none, drafts.submitMany queues the good ones and says
// what to fix in the rest, and the queued ones are posted.
import { afterEach, describe, expect, it } from 'vitest';
import { testFixtures } from '../../helpers/sandbox';
import { addConnection, type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function agency(e: Env) {
  const h = e.core.handlers;
  const p = await addConnection(e);
  await h['accounts.add']({ profileId: p.id, accountId: 'acmeshoes' });
  return p.id;
}

const good = (name: string) => ({
  name,
  branding_text: 'Acme',
  bid_strategy: 'FIXED',
  cpc: 0.3,
  spending_limit_model: 'MONTHLY',
  spending_limit: 100,
  marketing_objective: 'LEADS_GENERATION',
});

describe('saved window', () => {
  it('is read back after a restart as it was saved', async () => {
    env = await startEnv({ demo: false });
    const view = {
      account: { profileId: 'p1', accountId: 'acmeshoes' },
      tab: 'drafts',
      accounts: {
        'p1/acmeshoes': {
          sort: { field: 'spent', direction: 'desc' as const },
          status: 'PAUSED',
          text: 'boots',
          columns: [{ id: 'tracking_code', width: 200 }],
          detailsOpen: false,
        },
      },
    };
    expect(await env.core.handlers['views.load']({})).toEqual({ accounts: {} });
    await env.core.handlers['views.save'](view);
    const core = await env.restart();
    expect(await core.handlers['views.load']({})).toEqual(view);
  });
});

describe('campaigns.records', () => {
  it('carries every field of the cached campaign, the ones the app does not know included', async () => {
    const f = testFixtures();
    f.campaigns = [
      ...(f.campaigns ?? []),
      {
        account_id: 'acmeshoes',
        id: 4300001,
        name: 'Odd one',
        branding_text: 'Acme',
        status: 'APPROVED',
        created_at: '2026-11-20T08:00:00Z',
        bid_strategy: 'FIXED',
        cpc: 0.2,
        spending_limit: 40,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: 1,
        tracking_code: 'utm_source=x',
      },
    ];
    // A service that sends a field the interface does not list (its own legal choice).
    const withUnknownField = (path: string, body: Buffer) => {
      if (!/\/campaigns\?/.test(path)) return undefined;
      const j = JSON.parse(body.toString()) as { results?: Record<string, unknown>[] };
      if (!Array.isArray(j.results)) return undefined;
      for (const c of j.results) c.future_field = { a: 1 };
      return Buffer.from(JSON.stringify(j));
    };
    env = await startEnv({ fixtures: f, demo: false, proxy: { rewrite: withUnknownField } });
    const profileId = await agency(env);
    await env.core.handlers['sync.refresh']({ profileId, accountId: 'acmeshoes' });
    const page = await until(async () => {
      const r = await env!.core.handlers['campaigns.records']({ profileId, accountId: 'acmeshoes', text: 'odd one', offset: 0, limit: 10 });
      return r.total === 1 ? r : undefined;
    }, 'the cache');
    expect(page.rows[0].fields).toMatchObject({ tracking_code: 'utm_source=x', future_field: { a: 1 }, name: 'Odd one' });
    expect(page.rows[0].name).toBe('Odd one');
  });
});

describe('bulk drafts', () => {
  it('saves many drafts all or none, queues the good ones with one answer, and they are posted', async () => {
    env = await startEnv({ demo: false });
    const h = env.core.handlers;
    const profileId = await agency(env);
    // One draft names an account that is not there: nothing of the batch is saved.
    await expect(h['drafts.saveMany']({ profileId, accountId: 'strangers', drafts: [{ payload: good('A') }] })).rejects.toMatchObject({
      code: 'not_found',
    });
    const saved = await h['drafts.saveMany']({
      profileId,
      accountId: 'acmeshoes',
      drafts: [{ payload: good('Bulk 1') }, { payload: good('Bulk 2') }, { payload: { ...good('Bulk 3'), cpc: undefined } }],
    });
    expect(saved.map((d) => d.problems.length)).toEqual([0, 0, 1]);
    // Offline, the queued ones wait: a batch touching one of them is refused as a whole.
    await h['profiles.setWorkOffline']({ profileId, offline: true });
    const out = await h['drafts.submitMany']({ ids: saved.map((d) => d.id) });
    await expect(
      h['drafts.saveMany']({
        profileId,
        accountId: 'acmeshoes',
        drafts: [{ payload: good('Fresh') }, { id: saved[0].id, payload: good('Changed') }],
      }),
    ).rejects.toThrow();
    expect(
      (await h['drafts.list']({ profileId, accountId: 'acmeshoes' })).map((d) => (d.kind === 'campaign' ? d.payload.name : '')),
    ).not.toContain('Fresh');
    await h['profiles.setWorkOffline']({ profileId, offline: false });
    expect(out.queued.map((q) => q.id)).toEqual([saved[0].id, saved[1].id]);
    expect(out.refused).toEqual([{ id: saved[2].id, problems: [expect.objectContaining({ field: 'cpc' })] }]);
    // Queued ones stay listed (read-only, with their state) until posted; the refused one is editable.
    const left = await h['drafts.list']({ profileId, accountId: 'acmeshoes' });
    expect(left.filter((d) => d.status === 'draft').map((d) => d.id)).toEqual([saved[2].id]);
    await until(async () => (await h['outbox.list']({})).filter((i) => i.state === 'sent').length === 2, 'both posted');
    expect((await h['drafts.list']({ profileId, accountId: 'acmeshoes' })).map((d) => d.id)).toEqual([saved[2].id]);

    // A removal and its undo: the draft comes back under its own id.
    await h['drafts.deleteMany']({ ids: [saved[2].id] });
    expect(await h['drafts.list']({ profileId, accountId: 'acmeshoes' })).toEqual([]);
    const back = await h['drafts.saveMany']({
      profileId,
      accountId: 'acmeshoes',
      drafts: [{ id: saved[2].id, payload: { ...good('Bulk 3'), cpc: undefined } }],
    });
    expect(back[0].id).toBe(saved[2].id);
  });
});
