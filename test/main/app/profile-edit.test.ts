// Editing a connection in place against the sandbox: a wrong secret is refused by the service
// before anything is saved; a lost secret asks for the secret and, once entered, the queued work
// goes out; name and addresses change without touching drafts, cache or queue; plain http:// is
// refused for anything but this computer, with the reason.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CLIENT_SECRET } from '../../../src/shared/demo-world';
import { campaignPayload } from '../../helpers/sandbox';
import { type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const profile = async (e: Env) => (await e.core.handlers['profiles.list']({})).find((p) => p.id === P)!;
async function queueOffline(e: Env, name: string) {
  await e.core.handlers['profiles.setWorkOffline']({ profileId: P, offline: true });
  const d = await e.core.handlers['drafts.save']({
    kind: 'campaign',
    profileId: P,
    accountId: 'oldtimerltd',
    payload: campaignPayload(name),
  });
  const item = await e.core.handlers['drafts.submit']({ id: d.id });
  const draft = await e.core.handlers['drafts.save']({
    kind: 'campaign',
    profileId: P,
    accountId: 'oldtimerltd',
    payload: campaignPayload(`${name} (draft)`),
  });
  return { item, draft };
}

describe('profiles.update', () => {
  it("refuses a wrong secret with the service's words and keeps the right one, the drafts and the queue", async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const { item, draft } = await queueOffline(env, 'Kept through an edit');
    await expect(h['profiles.update']({ profileId: P, clientSecret: 'not-the-secret' })).rejects.toMatchObject({
      code: 'unauthorized',
      message: expect.stringMatching(/^The service refused this client id and secret, so nothing was changed: /),
    });
    expect(await env.secrets.get(P, 'client_secret')).toBe(DEMO_CLIENT_SECRET);
    // A rename and the right secret: saved in place.
    const renamed = await h['profiles.update']({ profileId: P, name: 'Sandbox (renamed)', clientSecret: DEMO_CLIENT_SECRET });
    expect(renamed).toMatchObject({ id: P, name: 'Sandbox (renamed)', hasSecret: true });
    expect((await h['drafts.list']({ profileId: P, accountId: 'oldtimerltd' })).map((d) => d.id)).toContain(draft.id);
    expect((await h['outbox.list']({})).find((o) => o.id === item.id)?.state).toBe('queued');
    expect((await h['accounts.list']({ profileId: P })).length).toBeGreaterThan(0);
    await h['profiles.setWorkOffline']({ profileId: P, offline: false });
    await until(async () => (await h['outbox.list']({})).find((o) => o.id === item.id)?.state === 'sent', 'the kept change to be sent');
  });

  it('asks for a lost secret, and sends the waiting change once it is entered', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    const { item } = await queueOffline(env, 'Waits for its secret');
    await env.secrets.delete(P, 'client_secret');
    await h['profiles.update']({ profileId: P, name: 'Sandbox demo' }); // a fresh client, no secret
    await h['profiles.setWorkOffline']({ profileId: P, offline: false });
    await until(async () => (await profile(env!)).connection === 'failing', 'the connection to ask for sign-in');
    expect((await profile(env)).hasSecret).toBe(false);
    expect((await h['outbox.list']({})).find((o) => o.id === item.id)?.state).toBe('queued');
    expect((await profile(env)).signIn.message).toMatch(
      /The client secret of .* is missing from the system keychain\. Enter it again \("Enter secret"\)/,
    );
    expect((await profile(env)).signIn.needsSecret).toBe(true);
    const movedAuth = `http://localhost:${new URL(env.serviceUrl).port}`;
    await expect(h['profiles.update']({ profileId: P, authUrl: movedAuth })).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringMatching(/enter the client secret again/),
    });
    await h['profiles.update']({ profileId: P, clientSecret: DEMO_CLIENT_SECRET });
    await until(
      async () => (await h['outbox.list']({})).find((o) => o.id === item.id)?.state === 'sent',
      'the change to be sent once the secret is back',
    );
  });

  it('refuses plain http:// to another computer with the reason, allows it for loopback', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    await expect(h['profiles.update']({ profileId: P, pushUrl: 'http://push.example.com' })).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringMatching(
        /^The push address uses plain http:\/\/, which would send the client secret and tokens unencrypted to push\.example\.com/,
      ),
    });
    await expect(
      h['profiles.create']({
        name: 'Clear text',
        baseUrl: 'http://api.example.com',
        authUrl: 'https://a.example.com',
        pushUrl: 'https://p.example.com',
        clientId: 'c',
        clientSecret: 's',
        flow: 'client_credentials',
        redirectUri: null,
      }),
    ).rejects.toMatchObject({ code: 'validation' });
    expect((await h['profiles.list']({})).map((p) => p.name)).not.toContain('Clear text');
    const local = new URL(env.serviceUrl);
    const moved = `http://localhost:${local.port}`;
    expect(await h['profiles.update']({ profileId: P, pushUrl: moved })).toMatchObject({ pushUrl: moved });
  });

  it('never sends the stored secret to a sign-in or API address on another server: the secret must be typed again', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    // A server of someone else's, counting what reaches it.
    const seen: string[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"x","token_type":"bearer","expires_in":3600}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const elsewhere = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    try {
      for (const field of ['authUrl', 'baseUrl'] as const) {
        await expect(h['profiles.update']({ profileId: P, [field]: elsewhere })).rejects.toMatchObject({
          code: 'validation',
          details: { field: 'clientSecret' },
          message: expect.stringMatching(/enter the client secret again to send it there/),
        });
      }
      expect(seen).toEqual([]);
      expect((await profile(env)).authUrl).toBe(env.serviceUrl);
      // The same server under another path is the same origin: no re-entry needed.
      expect(await h['profiles.update']({ profileId: P, authUrl: `${env.serviceUrl}/` })).toMatchObject({ id: P });
    } finally {
      await new Promise<void>((resolve) => collector.close(() => resolve()));
    }
    expect(seen.join('\n')).not.toContain(DEMO_CLIENT_SECRET);
  });
});
