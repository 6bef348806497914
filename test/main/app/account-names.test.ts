// Accounts added by id show the name the service gives them. The interface names an account only
// in a network's listing (advertiser_name), so these run against the sandbox with a network and
// its members, on real SQLite: a member added before its network, a network named by its own
// campaign, a member added again after the network was listed, a second connection to the same
// service, a name the person typed, and an account nothing names.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../../src/shared/ipc/contract';
import { testFixtures } from '../../helpers/sandbox';
import { addConnection, type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const refreshed = (e: Env, accountId: string) =>
  until(
    () =>
      e.events.some(
        (x) =>
          x.event === 'sync.progress' &&
          (x.payload as SyncProgress).accountId === accountId &&
          (x.payload as SyncProgress).state !== 'running',
      ),
    `the refresh of ${accountId} to end`,
    30_000,
  );

/** The name the window shows (its id when nothing names it). */
async function nameOf(e: Env, profileId: string, accountId: string): Promise<string | undefined> {
  const all = await e.core.handlers['accounts.list']({ profileId });
  return all.find((a) => a.accountId === accountId)?.name;
}

describe('account names from the service', () => {
  it('names a member added before its network, and the network by its own campaign, once the network is listed', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const p = await addConnection(env);
    const member = await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'northbikes' });
    // Nothing names an advertiser's own listing: its id shows until a network lists it.
    expect(member.name).toBe('northbikes');
    await refreshed(env, 'northbikes');

    await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'northnet' });
    await refreshed(env, 'northnet');
    await until(async () => (await nameOf(env!, p.id, 'northbikes')) === 'North Bikes', 'the member to be named');
    expect(await nameOf(env, p.id, 'northnet')).toBe('North Network');
    // A member the network's listing brought in is named as before.
    expect(await nameOf(env, p.id, 'northboats')).toBe('North Boats');
    expect(env.events.some((x) => x.event === 'data.changed' && (x.payload as { what: string }).what === 'accounts')).toBe(true);
  });

  it('names a member added again by id at once from the network listing already cached, and on a second connection to the same service', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const p = await addConnection(env);
    await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'northnet' });
    await refreshed(env, 'northnet');
    await until(async () => (await nameOf(env!, p.id, 'northboats')) !== undefined, 'the member to be listed');
    await env.core.handlers['accounts.remove']({ profileId: p.id, accountId: 'northboats' });

    const again = await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'northboats' });
    expect(again.name).toBe('North Boats');

    const second = await addConnection(env, { name: 'Agency, second login' });
    await until(async () => (await nameOf(env!, p.id, 'northnet')) === 'North Network', 'the network to be named');
    const there = await env.core.handlers['accounts.add']({ profileId: second.id, accountId: 'northnet' });
    expect(there.name).toBe('North Network');
  });

  it('names an account still shown by id when a plain refresh of it ends, from a second connection that named it since', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const first = await addConnection(env);
    await env.core.handlers['accounts.add']({ profileId: first.id, accountId: 'northbikes' });
    await refreshed(env, 'northbikes');
    expect(await nameOf(env, first.id, 'northbikes')).toBe('northbikes');
    // A second login lists the network, which names the member there.
    const second = await addConnection(env, { name: 'Agency, second login' });
    await env.core.handlers['accounts.add']({ profileId: second.id, accountId: 'northnet' });
    await until(
      async () => (await nameOf(env!, second.id, 'northbikes')) === 'North Bikes',
      'the member to be named on the second connection',
    );
    expect(await nameOf(env, first.id, 'northbikes')).toBe('northbikes');
    // A plain refresh on the first connection, not an add, names it there too.
    const done = () =>
      env!.events.filter(
        (x) =>
          x.event === 'sync.progress' && (x.payload as SyncProgress).profileId === first.id && (x.payload as SyncProgress).state === 'done',
      ).length;
    const before = done();
    await env.core.handlers['sync.refresh']({ profileId: first.id, accountId: 'northbikes' });
    await until(() => done() > before, 'the refresh to end');
    await until(async () => (await nameOf(env!, first.id, 'northbikes')) === 'North Bikes', 'the account to be named after its refresh');
  });

  it('keeps the name the person typed, and leaves an account nothing names showing its id', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const p = await addConnection(env);
    const typed = await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'northnet', name: '  Our north  ' });
    expect(typed.name).toBe('Our north');
    const plain = await env.core.handlers['accounts.add']({ profileId: p.id, accountId: 'oldtimerltd' });
    await refreshed(env, 'northnet');
    await refreshed(env, 'oldtimerltd');
    expect(await nameOf(env, p.id, 'northnet')).toBe('Our north');
    expect(plain.name).toBe('oldtimerltd');
    expect(await nameOf(env, p.id, 'oldtimerltd')).toBe('oldtimerltd');
  });
});
