// A listing is not a snapshot (DECISIONS client 15, issue #25 failure 3): against a service whose
// pages are short before the last, whose listing changes while it is read, whose default order
// moves, which fails a request now and then, or which cuts or delays a large answer, a refresh
// ends with the cache equal to what the service holds, and a failed read never marks the
// connection offline.
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile, SyncProgress } from '../../../src/shared/ipc/contract';
import type { Fixtures, Variants } from '../../../src/sandbox/index';
import type { SyncTuning } from '../../../src/main/app/create-core';
import { testFixtures } from '../../helpers/sandbox';
import { control, startEnv, until, type Env } from '../app/env';
import { listReads, playVariants } from './support';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

export const SHOP = 'walkshop';

/**
 * walkshop (old enough not to be rate limited) with `count` campaigns; `hidden(i)` ones are
 * TERMINATED, which a listing never shows (filtered after paging under short_pages).
 */
export function walkFixtures(count: number, hidden: (i: number) => boolean = () => false): Fixtures {
  const f = testFixtures();
  f.accounts.push({ account_id: SHOP, name: 'Walk Shop', type: 'ADVERTISER', created_at: '2025-01-01T00:00:00Z', features: [] });
  f.clients[0].accounts.push(SHOP);
  for (let i = 0; i < count; i++) {
    f.campaigns!.push({
      account_id: SHOP,
      id: 5_000_001 + i,
      name: `Walk ${i}`,
      status: hidden(i) ? 'TERMINATED' : 'APPROVED',
      created_at: '2026-01-01T00:00:00Z',
      bid_strategy: 'FIXED',
      cpc: 0.2,
      spent: (i * 37) % 101,
    });
  }
  return f;
}

const addProfile = (e: Env): Promise<Profile> =>
  e.core.handlers['profiles.create']({ name: 'Walk', baseUrl: e.serviceUrl, authUrl: e.serviceUrl, pushUrl: e.serviceUrl, clientId: 'demo-client', clientSecret: 'demo-secret', flow: 'client_credentials', redirectUri: null });

const progressOf = (e: Env) => e.events.filter((x) => x.event === 'sync.progress' && (x.payload as SyncProgress).accountId === SHOP).map((x) => x.payload as SyncProgress);

/** The end of the refresh after the `after`-th progress report; with a manual clock, time is moved on meanwhile. */
async function ended(e: Env, after = 0): Promise<SyncProgress> {
  return until(
    async () => {
      if (e.clock) e.sandbox.advance(500);
      return progressOf(e)
        .slice(after)
        .find((p) => p.state !== 'running');
    },
    'the refresh to end',
    60_000,
  );
}

/** What the service holds for the account: every campaign it would list (none is older than 30 days unless APPROVED). */
export async function serviceIds(e: Env): Promise<string[]> {
  const r = (await control(e.sandbox, 'GET', `/_sandbox/state/campaigns?account=${SHOP}`)) as { campaigns: { id: number; status: string }[] };
  return r.campaigns.filter((c) => c.status !== 'TERMINATED').map((c) => String(c.id)).sort();
}

export async function cachedIds(e: Env, profileId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const q = await e.core.handlers['campaigns.query']({ profileId, accountId: SHOP, sort: { field: 'id', direction: 'asc' }, offset, limit: 1000 });
    ids.push(...q.rows.map((r) => r.id));
    if (offset + 1000 >= q.total) return ids.sort();
  }
}

const connectionOf = async (e: Env, id: string) => (await e.core.handlers['profiles.list']({})).find((p) => p.id === id)!.connection;

/**
 * The account added on the default service (its check and first refresh), then `variants` played
 * on top of the run's and a refresh asked for: how that refresh ended.
 */
async function refreshUnder(
  fixtures: Fixtures,
  variants: Variants,
  opts: { clock?: 'manual'; tuning?: Partial<SyncTuning> } = {},
): Promise<{ e: Env; p: Profile; last: SyncProgress }> {
  const e = (env = await startEnv({ fixtures, demo: false, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.tuning ? { tuning: opts.tuning } : {}) }));
  const p = await addProfile(e);
  await e.core.handlers['accounts.add']({ profileId: p.id, accountId: SHOP });
  await ended(e);
  await playVariants(e.sandbox, variants);
  const before = progressOf(e).length;
  await e.core.handlers['sync.refresh']({ profileId: p.id, accountId: SHOP });
  return { e, p, last: await ended(e, before) };
}

describe('a refresh of a listing that is not a snapshot', () => {
  it('reads past short and empty pages (rows filtered after paging) and caches every campaign, not the first page', async () => {
    // 65% of the rows the service pages over are filtered out afterwards, in runs.
    const hidden = (i: number) => i % 20 < 13;
    const { e, p, last } = await refreshUnder(walkFixtures(900, hidden), { short_pages: true, page_size_cap: 50 });
    expect(last).toMatchObject({ state: 'done', message: null });
    const onService = await serviceIds(e);
    expect(onService).toHaveLength(315);
    expect(await cachedIds(e, p.id)).toEqual(onService);
  }, 90_000);

  it('ends with the service\'s set when campaigns are created and deleted between two page reads', async () => {
    const { e, p, last } = await refreshUnder(walkFixtures(300), { churn: 0.2, page_size_cap: 40, seed: 11 });
    expect(last).toMatchObject({ state: 'done', message: null });
    // The service did change while it was read.
    expect(await serviceIds(e)).not.toEqual(Array.from({ length: 300 }, (_, i) => String(5_000_001 + i)));
    expect(await cachedIds(e, p.id)).toEqual(await serviceIds(e));
  }, 90_000);

  it('is done under a default order that moves (by spend), asking for the id order', async () => {
    const { e, p, last } = await refreshUnder(walkFixtures(300), { moving_order: true, page_size_cap: 40, seed: 5 });
    expect(last).toMatchObject({ state: 'done', message: null });
    expect(await cachedIds(e, p.id)).toEqual(await serviceIds(e));
  }, 90_000);

  it('reads a failed page again after its Retry-After (seconds, a date, or a backoff) and ends done, online', async () => {
    const { e, p, last } = await refreshUnder(walkFixtures(300), { transient_5xx: 0.3, page_size_cap: 40, seed: 2 }, { clock: 'manual' });
    expect(last).toMatchObject({ state: 'done', message: null });
    expect((await listReads(e.sandbox, SHOP, 0)).filter((r) => r.status === 502 || r.status === 503).length).toBeGreaterThan(2);
    expect(await cachedIds(e, p.id)).toEqual(await serviceIds(e));
    expect(await connectionOf(e, p.id)).toBe('online');
  }, 90_000);

  it('falls back to pages when the unpaged answer is cut mid-body, and keeps the connection online', async () => {
    const { e, p, last } = await refreshUnder(walkFixtures(600), { cut_body: 200, page_size_cap: undefined });
    expect(last).toMatchObject({ state: 'done', message: null });
    expect(await cachedIds(e, p.id)).toEqual(await serviceIds(e));
    expect(await connectionOf(e, p.id)).toBe('online');
  }, 90_000);

  it('falls back to pages when the unpaged answer is slow to start, and keeps the connection online', async () => {
    // The unpaged answer would start after 8 s, beyond the request timeout (5 s in these tests).
    const { e, p, last } = await refreshUnder(walkFixtures(300), { slow_start: 8_000, page_size_cap: undefined }, { tuning: { listingStartMs: 300, pageSize: 100 } });
    expect(last).toMatchObject({ state: 'done', message: null });
    expect(await cachedIds(e, p.id)).toEqual(await serviceIds(e));
    expect(await connectionOf(e, p.id)).toBe('online');
  }, 90_000);
});
