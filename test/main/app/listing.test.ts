// Refreshing an account's cache from a service that makes other legal choices than our sandbox's
// defaults: a page size capped below what was asked (its metadata telling the truth), and a
// service whose listing does not add up to its own total. The cache must end complete, or the
// refresh must say it is not, never "done" with campaigns missing.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../../src/shared/ipc/contract';
import type { Fixtures } from '../../../src/sandbox/index';
import { control, sandboxCampaigns, testFixtures } from '../../helpers/sandbox';
import { EMPTY_RUN } from '../../../src/main/service/campaigns-api';
import { addConnection, type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Accounts old enough not to be rate limited (spec 8.1), with `count` campaigns each, oldest first. */
function bigFixtures(accounts: Record<string, number>): Fixtures {
  const f = testFixtures();
  let id = 6_000_001;
  for (const [accountId, count] of Object.entries(accounts)) {
    f.accounts.push({ account_id: accountId, name: accountId, type: 'ADVERTISER', created_at: '2025-01-01T00:00:00Z', features: [] });
    f.clients[0].accounts.push(accountId);
    for (let i = 0; i < count; i++) {
      // No daily_cap: the service leaves the field out when there is no cap.
      f.campaigns!.push({
        account_id: accountId,
        id: id++,
        name: `${accountId} campaign ${i + 1}`,
        branding_text: accountId,
        status: 'APPROVED',
        created_at: new Date(Date.parse('2025-02-01T00:00:00Z') + i * 3_600_000).toISOString(),
        bid_strategy: 'FIXED',
        cpc: 0.25,
        spending_limit: 1000,
        spending_limit_model: 'MONTHLY',
        marketing_objective: 'LEADS_GENERATION',
        spent: i,
      });
    }
  }
  return f;
}

const progressOf = (e: Env, accountId: string) =>
  e.events
    .filter((x) => x.event === 'sync.progress' && (x.payload as SyncProgress).accountId === accountId)
    .map((x) => x.payload as SyncProgress);

const ended = (e: Env, accountId: string) =>
  until(() => progressOf(e, accountId).find((p) => p.state !== 'running'), `the refresh of ${accountId} to end`, 60_000);

/** List requests the service saw for an account. */
async function listReads(e: Env, accountId: string): Promise<number> {
  const log = (await control(e.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string }[] };
  return log.requests.filter((r) => r.method === 'GET' && r.path.startsWith(`/core/api/1.0/${accountId}/campaigns`)).length;
}

/** Every campaign id the cache holds for the account, read in pages of the cache's own limit. */
async function cachedIds(e: Env, profileId: string, accountId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const q = await e.core.handlers['campaigns.query']({
      profileId,
      accountId,
      sort: { field: 'id', direction: 'asc' },
      offset,
      limit: 1000,
    });
    ids.push(...q.rows.map((r) => r.id));
    if (offset + 1000 >= q.total) return ids;
  }
}

describe('a service that serves fewer rows per page than asked', () => {
  for (const { accountId, count, cap } of [
    { accountId: 'bigshop', count: 2500, cap: 100 },
    { accountId: 'oddshop', count: 316, cap: 7 },
  ]) {
    it(`caches all ${count} campaigns of an account when pages are capped at ${cap}, and is done only then, in as many reads as pages needed`, async () => {
      env = await startEnv({ fixtures: bigFixtures({ [accountId]: count }), demo: false, variants: { page_size_cap: cap } });
      const p = await addConnection(env);
      // Adding the account checks it with one small list request, then refreshes it (pages of 1000 asked).
      await env.core.handlers['accounts.add']({ profileId: p.id, accountId });
      const last = await ended(env, accountId);
      expect(last).toMatchObject({ state: 'done', message: null });

      const onService = (await sandboxCampaigns(env.sandbox, accountId)).map((c) => String(c.id)).sort();
      expect(onService).toHaveLength(count);
      // Every campaign, the oldest included (a walk in pages of the asked size skips them).
      expect((await cachedIds(env, p.id, accountId)).sort()).toEqual(onService);

      const pages = Math.ceil(count / cap);
      expect(await listReads(env, accountId)).toBe(1 + pages);
      // Progress counted the pages the walk really took, from the first answer on.
      const running = progressOf(env, accountId).filter((x) => x.state === 'running' && x.pagesDone > 0);
      expect(running.map((x) => x.pagesDone)).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
      expect(running.every((x) => x.pagesTotal === pages)).toBe(true);
      expect(last).toMatchObject({ pagesDone: pages, pagesTotal: pages });

      // A campaign without daily_cap is kept, its cap shown as none.
      const [row] = (await env.core.handlers['campaigns.query']({ profileId: p.id, accountId, offset: 0, limit: 1 })).rows;
      expect(row.daily_cap).toBeNull();
      const account = (await env.core.handlers['accounts.list']({ profileId: p.id })).find((a) => a.accountId === accountId);
      expect(account?.lastSyncedAt).not.toBeNull();
    }, 300_000);
  }
});

describe('a service whose listing does not add up to its total', () => {
  it('reads it once more, then ends failed with a message saying what to do, keeping what it listed and not marking it synced', async () => {
    // What a faulty service would answer: two more campaigns counted than it ever lists.
    const overcount = (path: string, body: Buffer): Buffer | undefined => {
      if (!path.startsWith('/core/api/1.0/oddshop/campaigns')) return undefined;
      const envelope = JSON.parse(body.toString()) as { metadata?: { total?: number } };
      if (typeof envelope.metadata?.total !== 'number') return undefined;
      envelope.metadata.total += 2;
      return Buffer.from(JSON.stringify(envelope));
    };
    env = await startEnv({ fixtures: bigFixtures({ oddshop: 316 }), demo: false, proxy: { rewrite: overcount } });
    const p = await addConnection(env);
    await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'oddshop' });
    const last = await ended(env, 'oddshop');
    expect(last.state).toBe('failed');
    expect(last.message).toMatch(/counts 318 campaigns in oddshop but listed 316/);
    expect(last.message).toMatch(/refresh again later/);
    // The two readings and nothing more: the walk does not go on forever after a lying total. Each
    // reads the pages that hold rows (the unpaged answer is the first), then EMPTY_RUN empty ones
    // (the second reading twice as many), the last of them past the pages the total allows.
    const size = Math.min(316, (await sandboxCap(env)) ?? 316);
    const pagesOfReading = (run: number) => Math.max(Math.ceil(316 / size) + run, Math.ceil(318 / size) + 1);
    expect(await listReads(env, 'oddshop')).toBe(1 + pagesOfReading(EMPTY_RUN) + pagesOfReading(2 * EMPTY_RUN));
    // What it did list is cached; the account is not shown as synced.
    expect(await cachedIds(env, p.id, 'oddshop')).toHaveLength(316);
    const account = (await env.core.handlers['accounts.list']({ profileId: p.id })).find((a) => a.accountId === 'oddshop');
    expect(account?.lastSyncedAt).toBeNull();
    const activity = await env.core.handlers['activity.list']({ profileId: p.id, limit: 50 });
    expect(activity.map((a) => a.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/did not add up to its total; reading it once more/)]),
    );
  }, 300_000);
});

describe('a listing that moves while it is read', () => {
  it('is read once more when the first reading misses a campaign, and ends done with every campaign', async () => {
    // The refresh's first answer loses one row on its way (as when rows shift while it is read).
    let dropped: string | null = null;
    const dropOnce = (path: string, body: Buffer): Buffer | undefined => {
      // The refresh's first request asks for the whole listing (no page_size; the add check asks for page_size=1).
      if (dropped !== null || !path.startsWith('/core/api/1.0/oddshop/campaigns') || path.includes('page_size=')) return undefined;
      const envelope = JSON.parse(body.toString()) as { results: { id: string }[] };
      dropped = envelope.results[0].id;
      envelope.results.shift();
      return Buffer.from(JSON.stringify(envelope));
    };
    env = await startEnv({ fixtures: bigFixtures({ oddshop: 316 }), demo: false, proxy: { rewrite: dropOnce } });
    const p = await addConnection(env);
    await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'oddshop' });
    expect(await ended(env, 'oddshop')).toMatchObject({ state: 'done', message: null });
    expect(dropped).not.toBeNull();
    const ids = await cachedIds(env, p.id, 'oddshop');
    expect(ids).toHaveLength(316);
    expect(ids).toContain(dropped);
    // Progress stayed truthful across both readings: pages done never went past the pages known.
    const reports = progressOf(env, 'oddshop').filter((x) => x.pagesTotal !== null);
    expect(reports.every((x) => x.pagesDone <= x.pagesTotal!)).toBe(true);
    const activity = await env.core.handlers['activity.list']({ profileId: p.id, limit: 50 });
    expect(activity.map((a) => a.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/did not add up to its total; reading it once more/)]),
    );
  }, 300_000);
});

/** The page cap the run's service variants set, if any. */
async function sandboxCap(e: Env): Promise<number | undefined> {
  const v = (await control(e.sandbox, 'GET', '/_sandbox/variants')) as { variants?: { page_size_cap?: number } };
  return v.variants?.page_size_cap;
}

/**
 * Rewrites each record of the account's listing answers (paged or not) as text: `records` gets the
 * JSON text of each record and returns the text to write instead.
 */
const rewriteRecords =
  (accountId: string, record: (text: string, i: number, path: string) => string) =>
  (path: string, body: Buffer): Buffer | undefined => {
    if (!path.startsWith(`/core/api/1.0/${accountId}/campaigns`)) return undefined;
    const envelope = JSON.parse(body.toString()) as { results?: unknown[]; metadata: unknown };
    if (!Array.isArray(envelope.results)) return undefined;
    const results = envelope.results.map((r, i) => record(JSON.stringify(r), i, path));
    return Buffer.from(`{"results":[${results.join(',')}],"metadata":${JSON.stringify(envelope.metadata)}}`);
  };

describe('a listing whose records are spelled as other services write them', () => {
  it('caches every campaign by its exact id whatever legal JSON spells the records', async () => {
    // The id last, a nested object with an "id" of its own, the id's digits escaped, the id as a
    // number, and a second "id" (the last counts, as in JSON.parse): each must name the campaign
    // the record is.
    // By the id, not the position: the same campaign is spelled alike in every answer (pages or not).
    const spell = (text: string): string => {
      const r = JSON.parse(text) as Record<string, unknown>;
      const id = String(r.id);
      const { id: _, ...rest } = r;
      switch (Number(id) % 5) {
        case 0:
          return JSON.stringify({ ...rest, id });
        case 1:
          return JSON.stringify({ id, ...rest, targeting: { id: `segment-${id}` } });
        case 2:
          return `{"id":"${[...id].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('')}",${JSON.stringify(rest).slice(1)}`;
        case 3:
          return `{"id":${id},${JSON.stringify(rest).slice(1)}`;
        default:
          return `{"id":"not-this-one",${JSON.stringify(rest).slice(1, -1)},"id":"${id}"}`;
      }
    };
    env = await startEnv({ fixtures: bigFixtures({ oddshop: 316 }), demo: false, proxy: { rewrite: rewriteRecords('oddshop', spell) } });
    const p = await addConnection(env);
    await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'oddshop' });
    expect(await ended(env, 'oddshop')).toMatchObject({ state: 'done', message: null });
    const expected = (await sandboxCampaigns(env.sandbox, 'oddshop')).map((c) => String(c.id));
    expect((await cachedIds(env, p.id, 'oddshop')).sort()).toEqual(expected.sort());
    // The nested object's own "id" stays what it was: a field of the campaign, kept as written.
    const records = await env.core.handlers['campaigns.records']({
      profileId: p.id,
      accountId: 'oddshop',
      sort: { field: 'id', direction: 'asc' },
      offset: 0,
      limit: 1000,
    });
    const segments = records.rows.map((r) => (r.fields.targeting as { id?: unknown } | undefined)?.id).filter((t) => t !== undefined);
    expect(segments).toHaveLength(expected.filter((id) => Number(id) % 5 === 1).length);
    expect(segments.every((t) => typeof t === 'string' && /^segment-\d+$/.test(t))).toBe(true);
  }, 300_000);

  /** A record's text with its status no longer JSON (a bare word). */
  const garbled = (text: string) => text.replace(/"status":"([A-Z_]+)"/, '"status":$1');

  it('reads pages instead when the whole listing holds a record that is not JSON, and ends done with every campaign', async () => {
    const broken = (text: string, _i: number, path: string) =>
      !path.includes('page') && text.includes('"oddshop campaign 201"') ? garbled(text) : text;
    env = await startEnv({ fixtures: bigFixtures({ oddshop: 316 }), demo: false, proxy: { rewrite: rewriteRecords('oddshop', broken) } });
    const p = await addConnection(env);
    await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'oddshop' });
    expect(await ended(env, 'oddshop')).toMatchObject({ state: 'done', message: null });
    expect(await cachedIds(env, p.id, 'oddshop')).toHaveLength(316);
    // The add's check, the unpaged answer, then pages.
    expect(await listReads(env, 'oddshop')).toBeGreaterThan(2);
  }, 300_000);

  it('fails in the answer’s own words when every answer holding a record garbles it, and the account is not shown as synced', async () => {
    const broken = (text: string) => (text.includes('"oddshop campaign 201"') ? garbled(text) : text);
    env = await startEnv({ fixtures: bigFixtures({ oddshop: 316 }), demo: false, proxy: { rewrite: rewriteRecords('oddshop', broken) } });
    const p = await addConnection(env);
    await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'oddshop' });
    const last = await ended(env, 'oddshop');
    expect(last.state).toBe('failed');
    expect(last.message).toMatch(/list the campaigns of oddshop but its answer could not be read/);
    const account = (await env.core.handlers['accounts.list']({ profileId: p.id })).find((a) => a.accountId === 'oddshop');
    expect(account?.lastSyncedAt).toBeNull();
  }, 300_000);
});
