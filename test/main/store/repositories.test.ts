import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REDACTED } from '../../../src/main/store/activity-repo';
import { syntheticCampaigns } from '../../fixtures/campaigns';
import { ACME, GLOBEX, PROFILE, openTestStore, seed, type TestStore } from './helpers';

let t: TestStore;
beforeEach(() => {
  t = openTestStore();
});
afterEach(() => t.cleanup());

describe('profiles', () => {
  it('stores endpoints without trailing slashes and reads them back', () => {
    const p = t.store.profiles.create({ ...PROFILE, baseUrl: 'https://api.example.test/v/' });
    expect(p).toMatchObject({ id: 'p1', baseUrl: 'https://api.example.test/v', flow: 'client_credentials', redirectUri: null });
    expect(t.store.profiles.list().map((x) => x.id)).toEqual(['p1']);
  });

  it('refuses an address carrying a user name or password (a secret must never reach the file)', () => {
    expect(() => t.store.profiles.create({ ...PROFILE, authUrl: 'https://client:hunter2@auth.example.test' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.not.stringContaining('hunter2') }),
    );
    expect(() => t.store.profiles.create({ ...PROFILE, baseUrl: 'https://api.example.test/?token=abc' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('needs a redirect address for the authorization code flow', () => {
    expect(() => t.store.profiles.create({ ...PROFILE, flow: 'authorization_code' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    const p = t.store.profiles.create({ ...PROFILE, flow: 'authorization_code', redirectUri: 'http://127.0.0.1:8765/cb' });
    expect(p.redirectUri).toBe('http://127.0.0.1:8765/cb');
    t.clock.advance(1000);
    expect(t.store.profiles.update('p1', { name: 'Renamed' })).toMatchObject({ name: 'Renamed', updatedAt: p.updatedAt + 1000 });
  });

  it('removing a profile removes its accounts, caches, drafts, outbox and log', async () => {
    seed(t.store);
    const r = t.store.campaigns.beginRefresh(ACME);
    await r.applyPage([{ id: '1', name: 'x' }]);
    await r.finish();
    t.store.drafts.save({ profileId: 'p1', kind: 'push', payload: {} });
    t.store.activity.log({ profileId: 'p1', kind: 'sync', message: 'done' });
    expect(t.store.profiles.remove('p1')).toBe(true);
    expect(t.store.accounts.list('p1')).toEqual([]);
    expect(t.store.drafts.list('p1')).toEqual([]);
    expect(t.store.activity.list({ profileId: 'p1' })).toEqual([]);
    expect(t.store.integrityCheck()).toEqual(['ok']);
  });
});

describe('accounts', () => {
  beforeEach(() => seed(t.store));

  it('adds accounts by alphabetic id, once per profile', () => {
    expect(() => t.store.accounts.add({ ...ACME, type: 'ADVERTISER' })).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => t.store.accounts.add({ profileId: 'p1', accountId: 'abc123', type: 'ADVERTISER' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    t.store.accounts.add({ profileId: 'p1', accountId: 'netone', type: 'NETWORK', verifiedAt: 5 });
    expect(t.store.accounts.list('p1').map((a) => a.accountId)).toEqual(['acmeads', 'globexads', 'netone']);
  });

  it('records online state and the last error per account, and the work-offline choice per profile', async () => {
    t.store.accounts.setOnlineState(ACME, 'offline', { code: 'NETWORK', message: 'ECONNREFUSED' });
    expect(t.store.accounts.get(ACME)).toMatchObject({ onlineState: 'offline', lastError: { code: 'NETWORK', message: 'ECONNREFUSED' } });
    t.store.accounts.setOnlineState(ACME, 'online');
    expect(t.store.accounts.get(ACME)?.lastError).toBeNull();

    expect(t.store.profiles.get('p1')?.workOffline).toBe(false);
    t.store.profiles.setWorkOffline('p1', true);
    // A profile keeps the choice with or without accounts, across a restart.
    for (const a of t.store.accounts.list('p1')) t.store.accounts.remove(a, { discardPending: true });
    await t.reopen();
    expect(t.store.profiles.get('p1')?.workOffline).toBe(true);
    expect(() => t.store.profiles.setWorkOffline('nobody', true)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it("counts each account's cached campaigns off the main thread, and again once the cache changed", async () => {
    const cache = async (ref: typeof ACME, n: number, firstId: number) => {
      const r = t.store.campaigns.beginRefresh(ref);
      await r.applyPage(syntheticCampaigns(n, { firstId }));
      await r.finish();
    };
    await cache(ACME, 30, 1);
    let campaignsOf = await t.store.campaigns.countsByAccount();
    expect([campaignsOf(ACME), campaignsOf(GLOBEX)]).toEqual([30, 0]);
    await cache(GLOBEX, 7, 100);
    await cache(ACME, 12, 1);
    campaignsOf = await t.store.campaigns.countsByAccount();
    expect([campaignsOf(ACME), campaignsOf(GLOBEX)]).toEqual([12, 7]);
    expect(campaignsOf(ACME)).toBe(t.store.campaigns.count(ACME));
  });

  it('refuses to remove an account with changes not yet sent unless told to discard them', () => {
    t.store.outbox.enqueue({ ...ACME, kind: 'cancel_task', payload: { appId: '1', taskId: '2' } });
    expect(() => t.store.accounts.remove(ACME)).toThrow(expect.objectContaining({ code: 'HAS_PENDING_CHANGES' }));
    expect(t.store.accounts.remove(ACME, { discardPending: true })).toBe(true);
    expect(t.store.outbox.list()).toEqual([]);
  });
});

describe('apps and tasks', () => {
  beforeEach(() => seed(t.store));
  const task = (taskId: number, tagId: number, extra: Record<string, unknown> = {}) => ({
    taskId,
    tagId,
    taskType: 'scheduled',
    taskStatus: 'pending',
    executionTime: 1_800_000_000_000 + taskId,
    title: `t${taskId}`,
    ...extra,
  });

  it('replaces the app list from auth-apps and keeps the service-worker path it set', () => {
    t.store.apps.replaceAll('p1', { '1001': 'News', '1002': 'Shop' });
    t.store.apps.setSwPath('p1', '1001', '/push/sw.js');
    expect(t.store.apps.replaceAll('p1', { '1001': 'News Daily', '1003': 'Games' })).toEqual({ added: 1, removed: 1, updated: 1 });
    expect(t.store.apps.list('p1').map((a) => [a.appId, a.publisher, a.swPath])).toEqual([
      ['1003', 'Games', null],
      ['1001', 'News Daily', '/push/sw.js'],
    ]);
  });

  it('replaces the tasks of one app, keeps unknown fields, and drops tasks of removed apps', () => {
    t.store.apps.replaceAll('p1', { '1001': 'News', '1002': 'Shop' });
    t.store.tasks.replaceForApp('p1', '1001', [task(1, 1001), task(2, 1001)]);
    t.store.tasks.replaceForApp('p1', '1002', [task(3, 1002)]);
    expect(t.store.tasks.replaceForApp('p1', '1001', [task(2, 1001, { taskStatus: 'cancelled', newField: { a: 1 } })])).toEqual({
      inserted: 0,
      updated: 1,
      removed: 1,
    });
    expect(t.store.tasks.list('p1', '1001')).toEqual([
      { ...task(2, 1001, { taskStatus: 'cancelled', newField: { a: 1 } }), taskId: '2', tagId: '1001' },
    ]);
    t.store.apps.replaceAll('p1', { '1001': 'News' });
    expect(t.store.tasks.list('p1').map((x) => x.taskId)).toEqual(['2']);
    expect(() => t.store.tasks.replaceForApp('p1', '1001', [task(9, 1002)])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('activity log', () => {
  it('is newest first and never stores credential-looking values', () => {
    seed(t.store);
    t.store.activity.log({ profileId: 'p1', kind: 'auth', message: 'signed in' });
    t.clock.advance(10);
    const e = t.store.activity.log({
      profileId: 'p1',
      accountId: 'acmeads',
      kind: 'http',
      message: 'GET failed with header Authorization: Bearer abc.def.ghi',
      details: { status: 401, client_secret: 's3cr3t', nested: { refresh_token: 'rt-1', ok: 'yes' } },
    });
    expect(e.message).not.toContain('abc.def.ghi');
    expect(e.details).toEqual({ status: 401, client_secret: REDACTED, nested: { refresh_token: REDACTED, ok: 'yes' } });
    expect(t.store.activity.list({ profileId: 'p1' }).map((x) => x.kind)).toEqual(['http', 'auth']);
    expect(t.store.activity.list({ accountId: 'acmeads' })).toHaveLength(1);
  });

  it('combines its filters: the account, and only what is older than a moment ("load older")', () => {
    seed(t.store);
    const first = t.store.activity.log({ profileId: 'p1', accountId: 'acmeads', kind: 'http', message: 'first' });
    t.clock.advance(10);
    t.store.activity.log({ profileId: 'p1', kind: 'auth', message: 'signed in' });
    t.clock.advance(10);
    const third = t.store.activity.log({ profileId: 'p1', accountId: 'acmeads', kind: 'http', message: 'third' });
    expect(t.store.activity.list().map((x) => x.message)).toEqual(['third', 'signed in', 'first']);
    expect(t.store.activity.list({ profileId: 'p1', accountId: 'acmeads', before: third.at }).map((x) => x.message)).toEqual(['first']);
    expect(t.store.activity.list({ profileId: 'p1', before: first.at })).toEqual([]);
    expect(t.store.activity.list({ profileId: 'p2' })).toEqual([]);
  });
});

describe('settings', () => {
  it('read their default until set, keep what was set across a reopen, and refuse a malformed value', async () => {
    expect(t.store.settings.get('demo')).toEqual({ dismissed: false, removedAccounts: [] });
    t.store.settings.set('demo', { dismissed: false, removedAccounts: ['northnet'] });
    t.store.settings.set('demo', { dismissed: true, removedAccounts: ['northnet'] });
    expect((await t.reopen()).settings.get('demo')).toEqual({ dismissed: true, removedAccounts: ['northnet'] });
    expect(() => t.store.settings.set('demo', { dismissed: 'yes' } as never)).toThrow();
    expect(t.store.settings.get('demo').dismissed).toBe(true);
  });

  it('read a value a newer app wrote in another shape as the default, so the app still starts', async () => {
    t.store.close();
    const db = new Database(t.file);
    db.prepare("INSERT INTO settings (key, value) VALUES ('demo', ?)").run(JSON.stringify({ dismissed: 'sometimes' }));
    db.close();
    expect((await t.reopen()).settings.get('demo')).toEqual({ dismissed: false, removedAccounts: [] });
  });
});
