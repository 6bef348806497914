// Push on a connection the person added (not the demo): its applications and their tasks are
// fetched without anyone asking, a failed fetch is said where the apps would be (and not retried
// at every look), and a task edit sends what a strict service requires.
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { control, fault, loginAs, tasksOnService, testFixtures } from '../../helpers/sandbox';
import { freePort } from '../../helpers/free-port';
import { addConnection, type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** auth-apps requests the service saw. */
async function authAppsReads(e: Env): Promise<number> {
  const log = (await control(e.sandbox, 'GET', '/_sandbox/requests')) as { requests: { method: string; path: string }[] };
  return log.requests.filter((r) => r.method === 'GET' && r.path === '/epsilon/push/auth-apps').length;
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    (v) => ({ ok: v }),
    (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
  );

describe('applications of a connection the person added', () => {
  it('are fetched with their tasks once it is added and signed in, before any screen asks', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const h = env.core.handlers;
    const p = await addConnection(env);
    const appsChanged = () =>
      env!.events.some(
        (x) =>
          x.event === 'data.changed' &&
          (x.payload as { profileId: string; what: string }).profileId === p.id &&
          (x.payload as { what: string }).what === 'apps',
      );
    await until(appsChanged, 'the applications to be fetched');
    // The tasks come too: the Tasks tab opens on a list, without a Refresh click.
    await until(async () => (await h['tasks.list']({ profileId: p.id, appId: '1001' })).length > 0, 'the tasks of 1001 to be cached');
    const reads = await authAppsReads(env);
    const apps = (await h['apps.list']({ profileId: p.id })).map((a) => a.appId);
    expect(apps).toEqual(expect.arrayContaining(['1001', '1002']));
    expect(apps).not.toContain('1003');
    expect((await h['tasks.list']({ profileId: p.id, appId: '1001' })).map((t) => t.title)).toContain('Morning briefing: five stories');
    // Reading them again is a cache read.
    expect(await authAppsReads(env)).toBe(reads);
  });

  it("a failed fetch is the list's error, not retried at every look; signing in again fetches them", async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const h = env.core.handlers;
    await fault(env.sandbox, { method: 'GET', path_prefix: '/epsilon/push/auth-apps', mode: 'status_500', count: 1 });
    const p = await addConnection(env);
    await until(
      async () =>
        (await h['activity.list']({ profileId: p.id, limit: 20 })).some((a) =>
          /Fetching the applications of this connection failed/.test(a.message),
        ),
      'the failure to be logged',
    );
    const reads = await authAppsReads(env);
    const first = await outcome(h['apps.list']({ profileId: p.id }));
    expect(first).toMatchObject({
      code: 'server',
      message: expect.stringMatching(/^The applications of this connection could not be fetched: /),
    });
    // The Push tab opened again (or the composer re-read its apps): the same reason, no new request.
    expect(await outcome(h['apps.list']({ profileId: p.id }))).toEqual(first);
    expect(await authAppsReads(env)).toBe(reads);

    await h['profiles.signIn']({ profileId: p.id });
    await until(async () => {
      const again = await outcome(h['apps.list']({ profileId: p.id }));
      return 'ok' in again && (again.ok as unknown[]).length > 0;
    }, 'the applications after signing in again');
    await until(async () => (await h['tasks.list']({ profileId: p.id, appId: '1001' })).length > 0, 'their tasks');
  });

  it('a browser connection says to sign in where its apps would be, asks nothing until then, and fetches them at sign-in', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const fixtures = testFixtures();
    fixtures.clients[0].redirect_uris = [redirectUri];
    env = await startEnv({ fixtures, demo: false });
    await env.core.close();
    const h = (await env.restart({ openExternal: loginAs('manager@example.com', 'demo') })).handlers;
    const p = await addConnection(env, { name: 'Browser', url: env.sandbox.url, flow: 'authorization_code', redirectUri });
    for (let look = 0; look < 3; look++) {
      expect(await outcome(h['apps.list']({ profileId: p.id }))).toMatchObject({
        code: 'unauthorized',
        message: expect.stringMatching(/Sign in to this connection/),
      });
    }
    expect(await authAppsReads(env)).toBe(0);
    await h['profiles.signIn']({ profileId: p.id });
    await until(async () => (await h['tasks.list']({ profileId: p.id, appId: '1001' })).length > 0, 'the tasks after the browser sign-in');
    expect((await h['apps.list']({ profileId: p.id })).map((a) => a.appId)).toEqual(expect.arrayContaining(['1001', '1002']));
  });

  it('a manual refresh fetches the applications again', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    const h = env.core.handlers;
    const p = await addConnection(env);
    await h['accounts.add']({ profileId: p.id, accountId: 'acmeshoes' });
    await until(async () => (await h['tasks.list']({ profileId: p.id, appId: '1001' })).length > 0, 'the first fetch');
    const reads = await authAppsReads(env);
    await h['sync.refresh']({ profileId: p.id, accountId: 'acmeshoes' });
    await until(async () => (await authAppsReads(env!)) > reads, 'the applications to be asked for again');
  });
});

describe('editing a scheduled task', () => {
  it('sends the whole record, so a service that requires performer on update takes a title change, and leaves the images as they were', async () => {
    env = await startEnv({ clock: 'manual', variants: { update_requires_performer: true } });
    const h = env.core.handlers;
    const P = 'sandbox-demo';
    const at = env.sandbox.now() + 3_600_000;
    const event = {
      title: 'Weekend reading',
      url: 'https://news.example.com/weekend',
      performer: 'editor@example.com',
      thumbnailUrl: 'https://img.example.com/weekend.png',
      icon: 'https://img.example.com/icon.png',
      itemDescription: 'Five long reads',
      target: { include: { apps: ['1001'] } },
      executionTime: at,
    };
    const settled = (id: string) =>
      until(async () => {
        const item = (await h['outbox.list']({ profileId: P })).find((i) => i.id === id);
        return item && ['sent', 'failed', 'blocked'].includes(item.state) ? item : undefined;
      }, `outbox item ${id} to settle`);
    const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'scheduled', event } });
    expect((await settled((await h['drafts.submit']({ id: d.id })).id)).state).toBe('sent');
    const cached = await until(
      async () => (await h['tasks.list']({ profileId: P, appId: '1001' })).find((t) => t.title === 'Weekend reading'),
      'the scheduled task in the cache',
    );
    const before = (await tasksOnService(env.sandbox)).find((t) => String(t.taskId) === cached.taskId)!;
    expect(before.thumbnailUrl).toMatch(/^http.*\?src=/);

    // The person changes the title only.
    const upd: OutboxItem = await h['tasks.update']({
      profileId: P,
      accountId: 'acmeshoes',
      taskId: cached.taskId,
      patch: { title: 'Weekend reading, updated' },
    });
    const done = await settled(upd.id);
    expect(done.lastError).toBeNull();
    expect(done.state).toBe('sent');
    const after = (await tasksOnService(env.sandbox)).find((t) => String(t.taskId) === cached.taskId)!;
    expect(after).toMatchObject({ title: 'Weekend reading, updated', performer: 'editor@example.com', taskStatus: 'pending' });
    // The images were not sent back: the service did not wrap its CDN address in another.
    expect(after.thumbnailUrl).toBe(before.thumbnailUrl);
    expect(after.iconUrl).toBe(before.iconUrl);
  });
});
