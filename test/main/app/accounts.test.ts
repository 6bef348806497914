// Profiles and accounts: several connections, each with its own credentials, and accounts added
// by id, verified with one list call, typed as advertiser or network from what the service lists.
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/main/app/dispatch';

import { control, testFixtures } from '../../helpers/sandbox';
import { addConnection, type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('profiles and accounts', () => {
  it('adds accounts by id after checking them with the service, detecting a network', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const h = env.core.handlers;
    const p = await addConnection(env);
    expect(p).toMatchObject({ kind: 'service', hasSecret: true, flow: 'client_credentials' });
    const adv = await h['accounts.add']({ profileId: p.id, accountId: 'acmeshoes', name: 'Acme' });
    expect(adv).toMatchObject({ accountId: 'acmeshoes', name: 'Acme', type: 'ADVERTISER', networkId: null });
    const net = await h['accounts.add']({ profileId: p.id, accountId: 'northnet' });
    expect(net.type).toBe('NETWORK');
    // The verification is one small list call: page 1 of size 1, at interactive priority.
    const log = (await control(env.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string }[] };
    expect(log.requests.filter((r) => r.method === 'GET' && r.path.includes('/northnet/')).length).toBeGreaterThanOrEqual(1);
    // The network's refresh adds its members, held by the network.
    await until(
      async () => (await h['accounts.list']({ profileId: p.id })).some((a) => a.accountId === 'northbikes'),
      'the members to appear',
    );
    const members = (await h['accounts.list']({ profileId: p.id })).filter((a) => a.networkId === 'northnet');
    expect(members.map((m) => [m.accountId, m.name]).sort()).toEqual([
      ['northbikes', 'North Bikes'],
      ['northboats', 'North Boats'],
    ]);
    await until(
      async () => (await h['campaigns.query']({ profileId: p.id, accountId: 'northbikes', offset: 0, limit: 10 })).total === 1,
      'member cache',
    );
  });

  it('refuses an account the credentials cannot reach, saying so', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const p = await addConnection(env);
    await expect(env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'strangers' })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/cannot reach account strangers/),
    });
    expect(await env.core.handlers['accounts.list']({ profileId: p.id })).toHaveLength(0);
  });

  it('keeps profiles apart: each its own credentials, accounts, caches and outbox', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const h = env.core.handlers;
    const a = await addConnection(env, { name: 'Agency A' });
    const b = await addConnection(env, { name: 'Agency B', clientId: 'other-client', clientSecret: 'other-secret' });
    await h['accounts.add']({ profileId: a.id, accountId: 'acmeshoes' });
    await h['accounts.add']({ profileId: b.id, accountId: 'strangers' });
    await expect(h['accounts.add']({ profileId: b.id, accountId: 'acmeshoes' })).rejects.toMatchObject({ code: 'forbidden' });
    await until(
      async () => (await h['campaigns.query']({ profileId: b.id, accountId: 'strangers', offset: 0, limit: 10 })).total === 1,
      'B cache',
    );
    expect((await h['accounts.list']({ profileId: a.id })).map((x) => x.accountId)).toEqual(['acmeshoes']);
    await expect(h['campaigns.query']({ profileId: a.id, accountId: 'strangers', offset: 0, limit: 10 })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect([await env.secrets.get(a.id, 'client_secret'), await env.secrets.get(b.id, 'client_secret')]).toEqual([
      'demo-secret',
      'other-secret',
    ]);
    await h['profiles.remove']({ profileId: b.id });
    expect(await env.secrets.get(b.id, 'client_secret')).toBeNull();
    expect(await env.secrets.get(a.id, 'client_secret')).toBe('demo-secret');
    expect((await h['profiles.list']({})).map((x) => x.name)).toEqual(['Agency A']);
  });

  it('refuses to add a connection whose client secret the service refuses, saving nothing', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    await expect(addConnection(env, { name: 'Typo', clientSecret: 'not-the-secret' })).rejects.toMatchObject({
      code: 'unauthorized',
      message: expect.stringMatching(
        /^The service refused this client id and secret, so the connection was not added: .*invalid_client.*Check both and try again\.$/,
      ),
      details: { field: 'clientSecret' },
    });
    expect(await env.core.handlers['profiles.list']({})).toEqual([]);
  });

  it('campaigns.query reads the cache only: sorted, filtered and paged without a request', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const h = env.core.handlers;
    const p = await addConnection(env);
    await h['accounts.add']({ profileId: p.id, accountId: 'acmeshoes' });
    await until(async () => (await h['accounts.list']({ profileId: p.id }))[0]?.lastSyncedAt !== null, 'the first refresh');
    const before = ((await control(env.sandbox, 'GET', '/_sandbox/requests')) as { requests: unknown[] }).requests.length;
    const bySpent = await h['campaigns.query']({
      profileId: p.id,
      accountId: 'acmeshoes',
      sort: { field: 'spent', direction: 'desc' },
      offset: 0,
      limit: 2,
    });
    expect(bySpent.rows.map((r) => r.spent)).toEqual([1234.56, 99.5]);
    const paused = await h['campaigns.query']({ profileId: p.id, accountId: 'acmeshoes', statuses: ['PAUSED'], offset: 0, limit: 10 });
    // RAP lists recent campaigns, paused ones included; an old paused one is not listed at all.
    expect(paused.rows.map((r) => r.name)).toEqual(['Beta recent paused']);
    const text = await h['campaigns.query']({ profileId: p.id, accountId: 'acmeshoes', text: 'WINTER', offset: 0, limit: 10 });
    expect(text.rows.map((r) => r.id)).toEqual(['4100001']);
    // A field without a sortable column is refused at the contract, as a window's call would be.
    const unsortable = await dispatch(h, 'campaigns.query', {
      profileId: p.id,
      accountId: 'acmeshoes',
      sort: { field: 'targeting', direction: 'asc' },
    });
    expect(unsortable).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('cannot be sorted') } });
    const after = ((await control(env.sandbox, 'GET', '/_sandbox/requests')) as { requests: unknown[] }).requests.length;
    expect(after).toBe(before);
  });
});
