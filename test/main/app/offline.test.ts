// Offline and sign-in: the service becomes unreachable (a proxy in front of the sandbox stops
// listening), the person chooses to work offline, or a browser sign-in ends. Changes wait and go
// out by themselves once they can; one profile's trouble never holds up another's.
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxItem, Profile } from '../../../src/shared/ipc/contract';
import { campaignPayload, control, loginAs, sandboxCampaigns, testFixtures } from '../../helpers/sandbox';
import { freePort } from '../../helpers/free-port';
import { addConnection, type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const HOUR = 60 * 60_000;
let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function submit(e: Env, profileId: string, accountId: string, name: string): Promise<OutboxItem> {
  const d = await e.core.handlers['drafts.save']({ kind: 'campaign', profileId, accountId, payload: campaignPayload(name) });
  return e.core.handlers['drafts.submit']({ id: d.id });
}

const item = async (e: Env, id: string) => (await e.core.handlers['outbox.list']({})).find((i) => i.id === id);
const profile = async (e: Env, id: string) => (await e.core.handlers['profiles.list']({})).find((p) => p.id === id)!;
const requestCount = async (e: Env) => ((await control(e.sandbox, 'GET', '/_sandbox/requests')) as { requests: unknown[] }).requests.length;

describe('offline', () => {
  it('goes offline when the service cannot be reached, keeps the change queued, and sends it by itself once it is back', async () => {
    // A long retry backoff: only the probe's "it is back" can make the change go out in time.
    env = await startEnv({ proxy: true, tuning: { retryBackoff: { baseMs: 60_000, maxMs: 60_000 } } });
    await env.proxy!.down();
    const queued = await submit(env, P, 'oldtimerltd', 'Written on a train');
    await until(async () => (await profile(env!, P)).connection === 'offline', 'the profile to go offline');
    const waiting = await item(env, queued.id);
    expect(waiting?.state).toBe('queued');
    expect(waiting?.lastError).toEqual({
      code: 'OFFLINE',
      message: 'The service could not be reached; your change is queued and will be sent when it is back.',
    });
    expect(env.events).toContainEqual({ event: 'connection.changed', payload: { profileId: P, connection: 'offline' } });
    await env.proxy!.up();
    await until(async () => (await item(env!, queued.id))?.state === 'sent', 'the change to be sent after the probe');
    expect((await profile(env, P)).connection).toBe('online');
    expect((await sandboxCampaigns(env.sandbox, 'oldtimerltd')).filter((c) => c.name === 'Written on a train')).toHaveLength(1);
  });

  it('one unreachable profile does not hold up another', async () => {
    env = await startEnv({ proxy: true });
    const direct: Profile = await addConnection(env, { name: 'Direct', url: env.sandbox.url });
    await env.core.handlers['accounts.add']({ profileId: direct.id, accountId: 'suntrailtravel' });
    await env.proxy!.down();
    const stuck = await submit(env, P, 'oldtimerltd', 'Behind the proxy');
    const free = await submit(env, direct.id, 'suntrailtravel', 'Straight through');
    await until(async () => (await item(env!, free.id))?.state === 'sent', 'the other profile to send');
    expect((await item(env, stuck.id))?.state).toBe('queued');
    expect((await profile(env, P)).connection).toBe('offline');
    expect((await profile(env, direct.id)).connection).toBe('online');
  });

  it('working offline sends and refreshes nothing, survives a restart, and going online sends the queue', async () => {
    // "Nothing was sent" made certain: on a manual clock every retry, probe and refresh the engine
    // could schedule falls due when the clock is advanced, and closing the core lets whatever it
    // started finish. A request it would have made, however late, is in the count after that.
    env = await startEnv({ clock: 'manual' });
    const h = env.core.handlers;
    const offline = await h['profiles.setWorkOffline']({ profileId: P, offline: true });
    expect(offline.connection).toBe('working_offline');
    const before = await requestCount(env);
    const queued = await submit(env, P, 'oldtimerltd', 'Drafted offline');
    await h['sync.refresh']({ profileId: P, accountId: 'oldtimerltd' });
    await expect(h['accounts.add']({ profileId: P, accountId: 'brandnew' })).rejects.toMatchObject({ code: 'offline' });
    env.sandbox.advance(HOUR);
    await env.core.close();
    expect(await requestCount(env)).toBe(before);
    const core = await env.restart();
    expect((await profile(env, P)).connection).toBe('working_offline');
    env.sandbox.advance(HOUR);
    await core.close();
    expect(await requestCount(env)).toBe(before);
    const again = await env.restart();
    await again.handlers['profiles.setWorkOffline']({ profileId: P, offline: false });
    await until(async () => (await item(env!, queued.id))?.state === 'sent', 'the queue to go out');
  });

  it('a connection without accounts keeps working offline across a restart', async () => {
    env = await startEnv();
    const bare: Profile = await addConnection(env, { name: 'No accounts yet', url: env.sandbox.url });
    await env.core.handlers['profiles.setWorkOffline']({ profileId: bare.id, offline: true });
    await env.core.close();
    const core = await env.restart();
    expect((await profile(env, bare.id)).connection).toBe('working_offline');
    // Adding an account needs the service: refused while working offline, with a reason.
    await expect(core.handlers['accounts.add']({ profileId: bare.id, accountId: 'oldtimerltd' })).rejects.toMatchObject({
      code: 'offline',
    });
    await core.handlers['profiles.setWorkOffline']({ profileId: bare.id, offline: false });
    expect((await profile(env, bare.id)).connection).not.toBe('working_offline');
  });
});

describe('browser sign-in', () => {
  it('a second Sign in replaces one still waiting for the browser (no "port in use"), and Cancel stops one and asks again', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const fixtures = testFixtures();
    fixtures.clients[0].redirect_uris = [redirectUri];
    env = await startEnv({ fixtures, demo: false });
    await env.core.close();
    const opened: string[] = [];
    let completeInBrowser = false;
    const core = await env.restart({
      openExternal: async (url) => {
        opened.push(url);
        if (completeInBrowser) await loginAs('manager@example.com', 'demo')(url);
      },
    });
    const h = core.handlers;
    const p = await addConnection(env, { name: 'Browser', url: env.sandbox.url, flow: 'authorization_code', redirectUri });

    // The person clicks Sign in, does nothing in the browser, then cancels.
    const outcome = (call: Promise<unknown>) =>
      call.then(
        () => 'completed',
        (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
      );
    const first = outcome(h['profiles.signIn']({ profileId: p.id }));
    await until(() => opened.length === 1, 'the sign-in page to open');
    expect((await profile(env, p.id)).signIn.state).toBe('signing_in');
    const afterCancel = await h['profiles.cancelSignIn']({ profileId: p.id });
    // Said as a cancellation, not as a failure of the app.
    expect(await first).toBe('cancelled: The sign-in was cancelled.');
    expect((await profile(env, p.id)).signIn).toEqual({ state: 'sign_in_required', message: 'The sign-in was cancelled.' });
    expect(afterCancel.id).toBe(p.id);

    // Clicks Sign in, leaves it waiting, clicks Sign in again and completes that one.
    const waiting = outcome(h['profiles.signIn']({ profileId: p.id }));
    await until(() => opened.length === 2, 'the second sign-in page');
    completeInBrowser = true;
    const signedIn = await h['profiles.signIn']({ profileId: p.id });
    expect(signedIn).toMatchObject({ connection: 'online', signIn: { state: 'signed_in' } });
    expect(await waiting).toBe('cancelled: The sign-in was cancelled.');
    // The replaced one did not overwrite the state of the one that completed.
    expect((await profile(env, p.id)).signIn.state).toBe('signed_in');
    await h['accounts.add']({ profileId: p.id, accountId: 'oldtimerltd' });
  });

  it('signs in with the browser, and when the session ends changes wait (not failed) until the next sign-in', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const fixtures = testFixtures();
    fixtures.clients[0].redirect_uris = [redirectUri];
    fixtures.token_ttl_s = 600;
    env = await startEnv({ fixtures, clock: 'manual', demo: false });
    await env.core.close();
    const core = await env.restart({ openExternal: loginAs('manager@example.com', 'demo') });
    const h = core.handlers;
    const p = await addConnection(env, { name: 'Browser', url: env.sandbox.url, flow: 'authorization_code', redirectUri });
    expect(p.signIn.state).toBe('sign_in_required');
    await expect(h['accounts.add']({ profileId: p.id, accountId: 'oldtimerltd' })).rejects.toMatchObject({ code: 'unauthorized' });
    const signedIn = await h['profiles.signIn']({ profileId: p.id });
    expect(signedIn).toMatchObject({ connection: 'online', signIn: { state: 'signed_in' } });
    expect(await env.secrets.get(p.id, 'refresh_token')).toEqual(expect.any(String));
    await h['accounts.add']({ profileId: p.id, accountId: 'oldtimerltd' });
    // The access token runs out: the next change waits for a sign-in instead of failing.
    env.sandbox.advance(700_000);
    const d = await h['drafts.save']({
      kind: 'campaign',
      profileId: p.id,
      accountId: 'oldtimerltd',
      payload: campaignPayload('After the session'),
    });
    const queued = await h['drafts.submit']({ id: d.id });
    await until(async () => (await profile(env!, p.id)).signIn.state === 'sign_in_required', 'the sign-in to be asked for');
    const waiting = await item(env, queued.id);
    expect(waiting).toMatchObject({ state: 'queued', lastError: { code: 'SIGN_IN' } });
    expect((await profile(env, p.id)).connection).toBe('failing');
    await h['profiles.signIn']({ profileId: p.id });
    await until(async () => (await item(env!, queued.id))?.state === 'sent', 'the change after signing in again');
  });
});
