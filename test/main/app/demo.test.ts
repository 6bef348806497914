// The demo connection and the cache refresh: what a new user sees at once, read from the cache.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PROFILE_ID } from '../../../src/main/app/demo';
import { DEMO_ACCOUNTS } from '../../../src/shared/demo-world';
import type { SyncProgress } from '../../../src/shared/ipc/contract';
import { demoFixtures } from '../../../src/sandbox/index';
import { call, control, fault } from '../../helpers/sandbox';
import { testVariants } from '../../helpers/variants';
import { type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const P = DEMO_PROFILE_ID;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Sets the sandbox's service variants (all of them) through its control API. */
async function putVariants(e: Env, variants: Record<string, unknown>): Promise<void> {
  const res = await call(e.sandbox, 'PUT', '/_sandbox/variants', { json: variants });
  if (res.status !== 200) throw new Error(`PUT /_sandbox/variants: ${res.status}`);
}

/**
 * What the service lists for the account (RAP), as the oracle: read through the control API, which
 * needs no token (a token of its own would end the app's under token_per_client, one per client
 * id) and draws on no read budget (the refresh under test uses the account's). A network lists its
 * members' campaigns with its own.
 */
async function listedNames(e: Env, accountId: string): Promise<string[]> {
  const owners = [accountId, ...DEMO_ACCOUNTS.filter((a) => a.networkId === accountId).map((a) => a.accountId)];
  const names: string[] = [];
  for (const owner of owners) {
    const r = (await control(e.sandbox, 'GET', `/_sandbox/state/campaigns?account=${owner}&fetch_level=RAP`)) as {
      campaigns: { name: string }[];
    };
    names.push(...r.campaigns.map((c) => c.name));
  }
  return names;
}

/** Rows per page the refresh gets when it asks for `asked`: fewer when the service caps pages. */
const servedPageSize = (asked: number) => Math.min(asked, testVariants()?.page_size_cap ?? asked);

const progressOf = (e: Env, accountId: string) =>
  e.events
    .filter((x) => x.event === 'sync.progress' && (x.payload as SyncProgress).accountId === accountId)
    .map((x) => x.payload as SyncProgress);

describe('the demo connection', () => {
  it('lists exactly the accounts the sandbox grants the demo client, with names and network membership', () => {
    const f = demoFixtures();
    const client = f.clients.find((c) => c.client_id === 'demo-client')!;
    const granted = new Set(client.accounts);
    const expected = f.accounts
      .filter((a) => granted.has(a.account_id) || (a.network_id !== undefined && granted.has(a.network_id)))
      .map((a) => ({ accountId: a.account_id, name: a.name, type: a.type, networkId: a.network_id ?? null }));
    expect([...DEMO_ACCOUNTS].sort((a, b) => a.accountId.localeCompare(b.accountId))).toEqual(
      expected.sort((a, b) => a.accountId.localeCompare(b.accountId)),
    );
  });

  it('is created with its secret in the secret store and its accounts, and shows the cached campaigns the sandbox lists', async () => {
    env = await startEnv({ tuning: { refreshOnStart: true } });
    const h = env.core.handlers;
    const [profile] = await h['profiles.list']({});
    expect(profile).toMatchObject({
      id: P,
      name: 'Sandbox demo',
      kind: 'sandbox',
      clientId: 'demo-client',
      hasSecret: true,
      baseUrl: env.sandbox.url,
    });
    expect(await env.secrets.get(P, 'client_secret')).toBe('demo-secret');
    await until(
      async () => (await h['accounts.list']({ profileId: P })).every((a) => a.lastSyncedAt !== null),
      'every demo account to sync',
    );
    const accounts = await h['accounts.list']({ profileId: P });
    expect(accounts.map((a) => a.accountId).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.accountId).sort());
    for (const accountId of ['acmeshoes', 'oldtimerltd', 'northnet', 'northbikes']) {
      const q = await h['campaigns.query']({ profileId: P, accountId, offset: 0, limit: 1000 });
      expect(q.rows.map((r) => r.name).sort(), accountId).toEqual((await listedNames(env, accountId)).sort());
      expect(q.total).toBe(q.rows.length);
      expect(q.syncedAt).not.toBeNull();
    }
    // The network's listing names each campaign's owner; members were filled from it.
    const net = await h['campaigns.query']({ profileId: P, accountId: 'northnet', offset: 0, limit: 1000 });
    expect(new Set(net.rows.map((r) => r.advertiser_name))).toEqual(new Set(['North Network', 'North Bikes', 'North Boats']));
    const apps = await h['apps.list']({ profileId: P });
    expect(apps.map((a) => a.appId)).toEqual(['1001', '1002', '1004']);
    // The tasks of an app are read when someone looks at them.
    await until(async () => (await h['tasks.list']({ profileId: P, appId: '1001' })).length > 0, 'the tasks of app 1001');
  });

  it('follows the sandbox to its new address on the next start and keeps one demo profile', async () => {
    env = await startEnv();
    await env.core.close();
    const other = 'http://127.0.0.1:9';
    const core = await env.restart({ demo: { url: other } });
    const profiles = await core.handlers['profiles.list']({});
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ baseUrl: other, authUrl: other, pushUrl: other });
  });

  it('stays removed across restarts once the person removes it, and comes back whole when asked', async () => {
    env = await startEnv();
    let h = env.core.handlers;
    expect((await h['app.info']({})).demo).toEqual({ available: true, removed: false });
    await h['profiles.remove']({ profileId: P });
    await env.core.close();
    h = (await env.restart()).handlers;
    expect(await h['profiles.list']({})).toEqual([]);
    expect(await h['accounts.list']({})).toEqual([]);
    expect(await env.secrets.get(P, 'client_secret')).toBeNull();
    expect((await h['app.info']({})).demo).toEqual({ available: true, removed: true });

    const back = await h['profiles.restoreDemo']({});
    expect(back).toMatchObject({ id: P, kind: 'sandbox', hasSecret: true, baseUrl: env.sandbox.url });
    expect((await h['accounts.list']({ profileId: P })).map((a) => a.accountId).sort()).toEqual(
      DEMO_ACCOUNTS.map((a) => a.accountId).sort(),
    );
    expect((await h['app.info']({})).demo).toEqual({ available: true, removed: false });
    // Brought back, it is refreshed at once: its campaigns show without a restart.
    await until(
      async () => (await h['accounts.list']({ profileId: P })).every((a) => a.lastSyncedAt !== null),
      'the restored demo to sync',
    );
  });

  it('keeps the demo accounts the person removed out, and the rest in, across restarts', async () => {
    env = await startEnv();
    let h = env.core.handlers;
    await h['accounts.remove']({ profileId: P, accountId: 'acmeshoes' });
    await h['accounts.remove']({ profileId: P, accountId: 'southmedia' });
    await env.core.close();
    h = (await env.restart()).handlers;
    const left = (await h['accounts.list']({ profileId: P })).map((a) => a.accountId);
    expect(left).not.toContain('acmeshoes');
    expect(left).not.toContain('southmedia');
    // A network's members stay when it goes (as the remove dialog says).
    expect(left).toContain('southcafe');
    expect(left).toHaveLength(DEMO_ACCOUNTS.length - 2);
    expect((await h['app.info']({})).demo.removed).toBe(true);
  });

  it('cannot be brought back by a copy of the app that runs without its sandbox', async () => {
    env = await startEnv({ demo: false });
    const h = env.core.handlers;
    expect((await h['app.info']({})).demo).toEqual({ available: false, removed: false });
    await expect(h['profiles.restoreDemo']({})).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/without its built-in sandbox/),
    });
  });
});

describe('cache refresh', () => {
  it('reads the whole listing in one request when the service answers it whole', async () => {
    env = await startEnv({ variants: { page_size_cap: undefined } });
    await env.core.handlers['sync.refresh']({ profileId: P, accountId: 'suntrailtravel' });
    await until(() => progressOf(env!, 'suntrailtravel').some((p) => p.state === 'done'), 'the refresh to finish');
    const total = (await listedNames(env, 'suntrailtravel')).length;
    const running = progressOf(env, 'suntrailtravel').filter((p) => p.state === 'running' && p.pagesDone > 0);
    expect(running.map((p) => [p.pagesDone, p.pagesTotal])).toEqual([[1, 1]]);
    const q = await env.core.handlers['campaigns.query']({ profileId: P, accountId: 'suntrailtravel', offset: 0, limit: 1000 });
    expect(q.total).toBe(total);
  });

  it('goes on in pages of the size a capping service used, reporting pages done of total, and applies each page', async () => {
    // The service caps its answers (whole listing included) at 10 rows, or less under the run's variants.
    env = await startEnv({ variants: { page_size_cap: servedPageSize(10) } });
    await env.core.handlers['sync.refresh']({ profileId: P, accountId: 'suntrailtravel' });
    await until(() => progressOf(env!, 'suntrailtravel').some((p) => p.state === 'done'), 'the refresh to finish');
    const total = (await listedNames(env, 'suntrailtravel')).length;
    const pages = Math.ceil(total / servedPageSize(10));
    const reports = progressOf(env, 'suntrailtravel');
    const running = reports.filter((p) => p.state === 'running' && p.pagesDone > 0);
    expect(running.map((p) => p.pagesDone)).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    expect(running.every((p) => p.pagesTotal === pages)).toBe(true);
    expect(reports.at(-1)).toMatchObject({ state: 'done', pagesDone: pages });
    const q = await env.core.handlers['campaigns.query']({ profileId: P, accountId: 'suntrailtravel', offset: 0, limit: 1000 });
    expect(q.total).toBe(total);
  });

  it('tells the open list about the rows cached so far while a slow refresh is still running, at most once a second', async () => {
    env = await startEnv({ variants: { page_size_cap: servedPageSize(10) } });
    // Every page after the first answer (capped) is slow, as at the service's list limit.
    await fault(env.sandbox, {
      method: 'GET',
      path_prefix: '/core/api/1.0/suntrailtravel/campaigns',
      mode: 'delay',
      delay_ms: 700,
      count: 3,
    });
    const changed = () =>
      env!.events.filter(
        (x) =>
          x.event === 'data.changed' &&
          (x.payload as { accountId: string | null; what: string }).accountId === 'suntrailtravel' &&
          (x.payload as { what: string }).what === 'campaigns',
      ).length;
    await env.core.handlers['sync.refresh']({ profileId: P, accountId: 'suntrailtravel' });
    await until(() => changed() > 0, 'the first notice');
    expect(progressOf(env, 'suntrailtravel').some((p) => p.state === 'done')).toBe(false);
    // What the list reads at that notice: the first page, cached, while the rest is on its way.
    const partial = await env.core.handlers['campaigns.query']({ profileId: P, accountId: 'suntrailtravel', offset: 0, limit: 1000 });
    expect(partial.total).toBeGreaterThanOrEqual(servedPageSize(10));
    expect(partial.total).toBeLessThan((await listedNames(env, 'suntrailtravel')).length);
    await until(() => progressOf(env!, 'suntrailtravel').some((p) => p.state === 'done'), 'the refresh to finish', 20_000);
    // Pages ~0.7 s apart: one notice per page would be 3+; spaced a second apart, then the final one.
    const pages = progressOf(env, 'suntrailtravel').filter((p) => p.state === 'running' && p.pagesDone > 0).length;
    expect(changed()).toBeLessThan(pages + 1);
    expect(changed()).toBeGreaterThanOrEqual(2);
    await control(env.sandbox, 'DELETE', '/_sandbox/faults');
  });

  it("a network's refresh sends one notice for all the member lists its pages fill, not one per member", async () => {
    env = await startEnv({ variants: { page_size_cap: servedPageSize(10) } });
    await fault(env.sandbox, { method: 'GET', path_prefix: '/core/api/1.0/northnet/campaigns', mode: 'delay', delay_ms: 300, count: 10 });
    await env.core.handlers['sync.refresh']({ profileId: P, accountId: 'northnet' });
    await until(() => progressOf(env!, 'northnet').some((p) => p.state === 'done'), 'the network refresh', 20_000);
    const doneAt = env.events.findIndex(
      (x) =>
        x.event === 'sync.progress' && (x.payload as SyncProgress).accountId === 'northnet' && (x.payload as SyncProgress).state === 'done',
    );
    const lastPageAt = env.events.findLastIndex(
      (x) =>
        x.event === 'sync.progress' &&
        (x.payload as SyncProgress).accountId === 'northnet' &&
        (x.payload as SyncProgress).state === 'running',
    );
    const live = env.events
      .slice(0, lastPageAt + 1)
      .filter((x) => x.event === 'data.changed' && (x.payload as { what: string }).what === 'campaigns');
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((x) => (x.payload as { accountId: string | null }).accountId === null)).toBe(true);
    expect(doneAt).toBeGreaterThan(lastPageAt);
    // The members' lists hold their campaigns once it is done.
    const bikes = await env.core.handlers['campaigns.query']({ profileId: P, accountId: 'northbikes', offset: 0, limit: 1000 });
    expect(bikes.rows.map((r) => r.name).sort()).toEqual((await listedNames(env, 'northbikes')).sort());
    await control(env.sandbox, 'DELETE', '/_sandbox/faults');
  });

  it('can be cancelled, keeping the last synced data', async () => {
    env = await startEnv({ tuning: { pageSize: 10 } });
    const h = env.core.handlers;
    await h['sync.refresh']({ profileId: P, accountId: 'oldtimerltd' });
    await until(() => progressOf(env!, 'oldtimerltd').some((p) => p.state === 'done'), 'the first refresh');
    const before = await h['campaigns.query']({ profileId: P, accountId: 'oldtimerltd', offset: 0, limit: 1000 });
    // The second page of the next refresh is slow; cancel while it is on its way.
    await fault(env.sandbox, { method: 'GET', path_prefix: '/core/api/1.0/oldtimerltd/campaigns', mode: 'delay', delay_ms: 400, count: 5 });
    await h['sync.refresh']({ profileId: P, accountId: 'oldtimerltd' });
    // On its way: the sandbox holds one of its page requests.
    await until(
      async () =>
        ((await control(env!.sandbox, 'GET', '/_sandbox/faults')) as { faults: { remaining: number }[] }).faults[0]?.remaining === 4,
      'a page request to be held',
    );
    await h['sync.cancel']({ profileId: P, accountId: 'oldtimerltd' });
    await until(() => progressOf(env!, 'oldtimerltd').some((p) => p.state === 'cancelled'), 'the cancellation');
    const after = await h['campaigns.query']({ profileId: P, accountId: 'oldtimerltd', offset: 0, limit: 1000 });
    expect(after.rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id));
    expect(after.syncedAt).toBe(before.syncedAt);
    await control(env.sandbox, 'DELETE', '/_sandbox/faults');
  });

  it('a first load cancelled part way leaves the account as empty as it was, and the window is told', async () => {
    env = await startEnv({ tuning: { pageSize: 10 } });
    const h = env.core.handlers;
    const ref = { profileId: P, accountId: 'oldtimerltd' };
    expect((await h['campaigns.query']({ ...ref, offset: 0, limit: 1 })).total).toBe(0);
    // Pages of ten, each slow: rows land page by page while the person watches.
    const { variants } = (await control(env.sandbox, 'GET', '/_sandbox/variants')) as { variants: Record<string, unknown> };
    await putVariants(env, { ...variants, page_size_cap: 10 });
    await fault(env.sandbox, { method: 'GET', path_prefix: '/core/api/1.0/oldtimerltd/campaigns', mode: 'delay', delay_ms: 400, count: 6 });
    await h['sync.refresh'](ref);
    await until(async () => (await h['campaigns.query']({ ...ref, offset: 0, limit: 1 })).total >= 10, 'the first rows to be cached');
    const told = env.events.length;
    await h['sync.cancel'](ref);
    await until(() => progressOf(env!, 'oldtimerltd').some((p) => p.state === 'cancelled'), 'the cancellation');
    expect((await h['campaigns.query']({ ...ref, offset: 0, limit: 1 })).total).toBe(0);
    expect(env.events.slice(told).some((x) => x.event === 'data.changed' && (x.payload as { what: string }).what === 'campaigns')).toBe(
      true,
    );
    await control(env.sandbox, 'DELETE', '/_sandbox/faults');
  });

  it("a member refreshed on its own while its network refreshes does not break the network's refresh", async () => {
    env = await startEnv({ tuning: { pageSize: 10 } });
    const h = env.core.handlers;
    // The network's pages are slow, so the member's own refresh starts and ends in between.
    await fault(env.sandbox, { method: 'GET', path_prefix: '/core/api/1.0/northnet/campaigns', mode: 'delay', delay_ms: 150, count: 10 });
    await h['sync.refresh']({ profileId: P, accountId: 'northnet' });
    await until(() => progressOf(env!, 'northnet').some((p) => p.pagesDone >= 1), 'the first network page');
    await h['sync.refresh']({ profileId: P, accountId: 'northbikes' });
    await until(() => progressOf(env!, 'northnet').some((p) => p.state !== 'running'), 'the network refresh to end', 20_000);
    expect(progressOf(env, 'northnet').at(-1)?.state).toBe('done');
    await until(() => progressOf(env!, 'northbikes').some((p) => p.state === 'done'), 'the member refresh');
    const member = await h['campaigns.query']({ profileId: P, accountId: 'northbikes', offset: 0, limit: 1000 });
    expect(member.rows.map((r) => r.name).sort()).toEqual((await listedNames(env, 'northbikes')).sort());
  });
});
