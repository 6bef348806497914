// Looking for a lost create must be cheap (issue #15): on a 100,000-campaign account at Tier 4 a
// look-up spends at most 2 list reads. It reads the newest campaigns first (sort=id,desc) and
// stops at the newest campaign the cache knew before the send when it found the create there;
// finding nothing, it reads the whole listing in one request, since new ids need not be larger. It must also stay right where a
// service pages differently (page_size_cap) or ignores the sort: then it reads further, never
// concludes "absent" from a partial read. Reads are counted in the sandbox's own request log.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Fixtures, Variants } from '../../../src/sandbox/index';
import { call, campaignPayload, fault, onService, testFixtures, tokenFor } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv, submitCampaign } from '../../helpers/world';
import { until } from '../../helpers/wait';
import { rewritingProxy, type RewritingProxy } from '../../helpers/proxy';
import { graceFor, testVariants } from '../../helpers/variants';
import { creates, lastSeq, listReads } from './support';

const ACME = 'acmeshoes';
const createPath = `/core/api/1.0/${ACME}/campaigns`;

/** acmeshoes (created after 2026-10-04: rate limited, list at Tier 4) with `count` approved campaigns. */
const OTHER = { id: 'other-program', secret: 'other-program-secret' };

function accountWith(count: number, tier4Reads?: [number, number, number]): Fixtures {
  const f = testFixtures();
  f.campaigns = [];
  f.tasks = [];
  // Someone else's program, with a client id of its own: under a service that keeps one token per
  // client id (token_per_client) its token leaves the app's alone.
  f.clients.push({ client_id: OTHER.id, client_secret: OTHER.secret, accounts: [ACME], apps: [], redirect_uris: [], users: [] });
  // Tier 4 as the spec has it, or with more reads so that the first refresh of 100,000 campaigns
  // (100 pages) takes seconds, not minutes; what is counted is the look-up's reads, not the wait.
  if (tier4Reads) f.rate_limits = { tiers: { '4': { read: tier4Reads, write: [1, 8, 80] } } };
  const start = Date.parse('2026-11-03T00:00:00Z');
  for (let i = 0; i < count; i++) {
    f.campaigns.push({
      account_id: ACME,
      id: 5_000_001 + i,
      name: `Bulk ${i + 1}`,
      branding_text: 'Acme Shoes',
      status: 'APPROVED',
      created_at: new Date(start + i * 1000).toISOString(),
      bid_strategy: 'FIXED',
      cpc: 0.3,
      spending_limit: 900,
      spending_limit_model: 'MONTHLY',
      marketing_objective: 'LEADS_GENERATION',
    });
  }
  return f;
}

async function refreshed(e: Env): Promise<void> {
  const before = (await e.core.handlers['accounts.list']({ profileId: P })).find((a) => a.accountId === ACME)?.lastSyncedAt ?? null;
  await e.core.handlers['sync.refresh']({ profileId: P, accountId: ACME });
  await until(
    async () => {
      const a = (await e.core.handlers['accounts.list']({ profileId: P })).find((x) => x.accountId === ACME);
      return a && a.lastSyncedAt !== null && a.lastSyncedAt !== before;
    },
    'the account to be cached',
    120_000,
  );
}

/** Campaigns made by someone else after our last refresh: new to us, newer than what we cached. */
async function createdElsewhere(e: Env, names: string[]): Promise<void> {
  const token = await tokenFor(e.sandbox, OTHER.id, OTHER.secret);
  for (const name of names) {
    const r = await call(e.sandbox, 'POST', `${createPath}/`, { token, json: campaignPayload(name) });
    // Any success: 200, 201 Created (create_201), 202 Accepted or 204 (write_answer).
    expect(r.status >= 200 && r.status < 300, `status ${r.status}`).toBe(true);
  }
}

describe('a lost-create look-up on a 100,000-campaign Tier-4 account', () => {
  let env: Env;
  // The account's own page size is served whole; late writes are waited for by the grace period.
  const variants: Variants = { page_size_cap: undefined };
  const grace = graceFor();
  beforeAll(async () => {
    env = await startEnv({ fixtures: accountWith(100_000, [50, 1000, 10_000]), variants, tuning: { uncertainGraceMs: grace } });
    await refreshed(env);
  }, 300_000);
  afterAll(async () => {
    await env?.close();
  });

  it('finds a create whose answer was lost with one read of the newest campaigns', async () => {
    await fault(env.sandbox, { method: 'POST', path_prefix: createPath, mode: 'close_after', count: 1 });
    const since = await lastSeq(env.sandbox);
    const item = await submitCampaign(env, ACME, campaignPayload('Needle boots'));
    expect((await settled(env, item.id, 30_000)).state).toBe('sent');
    expect(await onService(env.sandbox, ACME, 'Needle boots')).toHaveLength(1);
    const reads = await listReads(env.sandbox, ACME, since);
    expect(reads).toHaveLength(1);
    expect(reads.length).toBeLessThanOrEqual(2);
  });

  it('proves a create absent from the whole listing (two look-ups a grace period apart, two reads each), then sends it once', async () => {
    await fault(env.sandbox, { method: 'POST', path_prefix: createPath, mode: 'close_before', count: 1 });
    const since = await lastSeq(env.sandbox);
    const item = await submitCampaign(env, ACME, campaignPayload('Absent boots'));
    // Two whole listings of 100,000 campaigns take a while on a busy machine; what counts is the reads.
    expect((await settled(env, item.id, 120_000)).state).toBe('sent');
    expect(await onService(env.sandbox, ACME, 'Absent boots')).toHaveLength(1);
    expect((await creates(env.sandbox, ACME, since)).map((r) => r.outcome)).toEqual(['fault_close_before', 'ok']);
    // Per look-up the newest page, then the whole listing in one request: ids need not grow
    // (DECISIONS client 16), so only every row proves the create absent. A create answered without
    // a body (write_answer) names no campaign: one more read of the newest page finds its id.
    const bodiless = testVariants()?.write_answer !== undefined;
    expect(await listReads(env.sandbox, ACME, since)).toHaveLength(bodiless ? 5 : 4);
  }, 300_000);
});

describe('a service that pages differently', () => {
  let env: Env | undefined;
  let proxy: RewritingProxy | undefined;
  afterEach(async () => {
    await env?.close();
    await proxy?.close();
    env = undefined;
    proxy = undefined;
  });

  it('with a page size capped at 3, reads on in pages of 3 down to the newest cached campaign', async () => {
    env = await startEnv({
      fixtures: accountWith(20, [50, 1000, 10_000]),
      variants: { page_size_cap: 3 },
      tuning: { uncertainGraceMs: graceFor() },
    });
    await refreshed(env);
    // Seven campaigns new to us, then ours: eight newer than the cache's newest, in pages of 3.
    await createdElsewhere(env, ['Other 1', 'Other 2', 'Other 3', 'Other 4', 'Other 5', 'Other 6', 'Other 7']);
    await fault(env.sandbox, { method: 'POST', path_prefix: createPath, mode: 'close_after', count: 1 });
    const since = await lastSeq(env.sandbox);
    const item = await submitCampaign(env, ACME, campaignPayload('Capped boots'));
    expect((await settled(env, item.id)).state).toBe('sent');
    expect(await onService(env.sandbox, ACME, 'Capped boots')).toHaveLength(1);
    expect(await creates(env.sandbox, ACME, since)).toHaveLength(1);
    // Rows 1-3, 4-6, 7-9 (the 9th is the newest cached one): three reads.
    expect(await listReads(env.sandbox, ACME, since)).toHaveLength(3);
  });

  it('a service that ignores sort=id,desc is read whole rather than taken for "absent"', async () => {
    env = await startEnv({
      fixtures: accountWith(250, [50, 1000, 10_000]),
      variants: { page_size_cap: undefined },
      tuning: { uncertainGraceMs: graceFor() },
    });
    // This service lists oldest first whatever the sort asks: its first page holds none of the new.
    proxy = await rewritingProxy(env.sandbox.url, { query: (_path, q) => q.delete('sort') });
    await env.core.close();
    await env.restart({ demo: { url: proxy.url } });
    await refreshed(env);
    await fault(env.sandbox, { method: 'POST', path_prefix: createPath, mode: 'close_after', count: 1 });
    const since = await lastSeq(env.sandbox);
    const item = await submitCampaign(env, ACME, campaignPayload('Unsorted boots'));
    expect((await settled(env, item.id)).state).toBe('sent');
    expect(await onService(env.sandbox, ACME, 'Unsorted boots')).toHaveLength(1);
    expect(await creates(env.sandbox, ACME, since)).toHaveLength(1);
    // The newest-first page, then the whole listing (251 campaigns, one page of up to 1,000).
    expect(await listReads(env.sandbox, ACME, since)).toHaveLength(2);
  });
});
