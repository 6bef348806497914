// Shared by the listing tests: an account whose listing a test shapes, a refresh of it under
// service variants, and what the cache and the service hold at the end.
import { afterEach } from 'vitest';
import type { Profile, SyncProgress } from '../../../src/shared/ipc/contract';
import type { Fixtures, Variants } from '../../../src/sandbox/index';
import type { SyncTuning } from '../../../src/main/app/create-core';
import { refusingProxy, type Refusal } from '../../helpers/proxy';
import { control, playVariants, testFixtures } from '../../helpers/sandbox';
import { until } from '../../helpers/wait';
import { startEnv, type Env } from '../../helpers/world';

let env: Env | undefined;

/** Closes the file's environment after each test (call once at the top of a test file). */
export function closeEachEnv(): void {
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });
}

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

export const addProfile = (e: Env, url = e.serviceUrl): Promise<Profile> =>
  e.core.handlers['profiles.create']({
    name: 'Walk',
    baseUrl: url,
    authUrl: url,
    pushUrl: url,
    clientId: 'demo-client',
    clientSecret: 'demo-secret',
    flow: 'client_credentials',
    redirectUri: null,
  });

export const progressOf = (e: Env) =>
  e.events
    .filter((x) => x.event === 'sync.progress' && (x.payload as SyncProgress).accountId === SHOP)
    .map((x) => x.payload as SyncProgress);

/** The end of the refresh after the `after`-th progress report; with a manual clock, time is moved on meanwhile. */
export async function ended(e: Env, after = 0): Promise<SyncProgress> {
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
  const r = (await control(e.sandbox, 'GET', `/_sandbox/state/campaigns?account=${SHOP}`)) as {
    campaigns: { id: number; status: string }[];
  };
  return r.campaigns
    .filter((c) => c.status !== 'TERMINATED')
    .map((c) => String(c.id))
    .sort();
}

export async function cachedIds(e: Env, profileId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const q = await e.core.handlers['campaigns.query']({
      profileId,
      accountId: SHOP,
      sort: { field: 'id', direction: 'asc' },
      offset,
      limit: 1000,
    });
    ids.push(...q.rows.map((r) => r.id));
    if (offset + 1000 >= q.total) return ids.sort();
  }
}

export const connectionOf = async (e: Env, id: string) => (await e.core.handlers['profiles.list']({})).find((p) => p.id === id)!.connection;

/**
 * The account added on the default service (its check and first refresh), then `variants` played
 * on top of the run's and a refresh asked for: how that refresh ended.
 */
export async function refreshUnder(
  fixtures: Fixtures,
  variants: Variants,
  opts: { clock?: 'manual'; tuning?: Partial<SyncTuning>; proxy?: Refusal } = {},
): Promise<{ e: Env; p: Profile; last: SyncProgress }> {
  await env?.close();
  const e = (env = await startEnv({
    fixtures,
    demo: false,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.tuning ? { tuning: opts.tuning } : {}),
  }));
  let url = e.serviceUrl;
  // Armed once the account is added: the variants and the refusals apply to the refresh asked for.
  let armed = false;
  if (opts.proxy) {
    const refuse = opts.proxy;
    const proxy = await refusingProxy(e.sandbox.url, (u) => (armed ? refuse(u) : undefined));
    const close = e.close;
    e.close = async () => {
      await proxy.close();
      await close();
    };
    url = proxy.url;
  }
  const p = await addProfile(e, url);
  await e.core.handlers['accounts.add']({ profileId: p.id, accountId: SHOP });
  await ended(e);
  await playVariants(e.sandbox, variants);
  armed = true;
  const before = progressOf(e).length;
  await e.core.handlers['sync.refresh']({ profileId: p.id, accountId: SHOP });
  return { e, p, last: await ended(e, before) };
}
