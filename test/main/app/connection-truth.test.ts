// What the app says about a connection after a restart, against the real sandbox over HTTP: not
// "Online" before the service has answered, and "Offline" (not "Online") when its host is dead.
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fullTurn } from '../../../src/main/clock/turns';
import { CHECK_DEADLINE_MS } from '../../../src/main/connections/connections';
import type { Profile } from '../../../src/shared/ipc/contract';
import { freePort } from '../../helpers/free-port';
import { type Env, P, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const profile = async (e: Env, id: string): Promise<Profile> => (await e.core.handlers['profiles.list']({})).find((p) => p.id === id)!;

describe('connection state after a restart', () => {
  it('a dead host is offline after a restart, never shown online; it turns online when the host answers again', async () => {
    env = await startEnv({ proxy: true });
    await until(async () => (await profile(env!, P)).connection === 'online', 'the demo connection to be checked online');
    await env.core.close();
    await env.proxy!.down();
    const since = env.events.length;
    await env.restart();
    // The first picture is "not checked yet" or already the check's answer, never "online".
    expect(['unknown', 'offline']).toContain((await profile(env, P)).connection);
    await until(async () => (await profile(env!, P)).connection === 'offline', 'the start-up check to find the host dead');
    expect(
      env.events
        .slice(since)
        .filter((e) => e.event === 'connection.changed')
        .map((e) => (e.payload as { connection: string }).connection),
    ).not.toContain('online');
    await env.proxy!.up();
    await until(async () => (await profile(env!, P)).connection === 'online', 'the probe to find the host back');
  });

  it('an answering host goes from "not checked yet" to online without anything being used', async () => {
    env = await startEnv();
    await until(async () => (await profile(env!, P)).connection === 'online', 'the start-up check');
    const changes = env.events.filter((e) => e.event === 'connection.changed').map((e) => (e.payload as { connection: string }).connection);
    expect(changes.at(-1)).toBe('online');
  });
});

describe('adding a connection whose host cannot be reached', () => {
  it('is refused with the question, and saved working offline only when the person says so', async () => {
    env = await startEnv();
    const dead = `http://127.0.0.1:${await freePort()}`;
    const input = {
      name: 'Dead host',
      baseUrl: dead,
      authUrl: dead,
      pushUrl: dead,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      flow: 'client_credentials' as const,
      redirectUri: null,
    };
    await expect(env.core.handlers['profiles.create'](input)).rejects.toMatchObject({
      code: 'offline',
      message: `Could not reach ${dead}: save it anyway and work offline?`,
      details: { unreachable: dead },
    });
    expect((await env.core.handlers['profiles.list']({})).map((p) => p.name)).not.toContain('Dead host');
    const saved = await env.core.handlers['profiles.create']({ ...input, saveUnreachable: true });
    expect(saved.connection).toBe('working_offline');
    expect(await profile(env, saved.id)).toMatchObject({ name: 'Dead host', connection: 'working_offline', hasSecret: true });
  });

  it('asks after a few seconds, not the whole request timeout, when the host takes the connection and never answers', async () => {
    env = await startEnv({ clock: 'manual' });
    // A host that accepts and says nothing.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const input = {
        name: 'Silent host',
        baseUrl: url,
        authUrl: url,
        pushUrl: url,
        clientId: 'demo-client',
        clientSecret: 'demo-secret',
        flow: 'client_credentials' as const,
        redirectUri: null,
      };
      const asked = env.core.handlers['profiles.create'](input);
      asked.catch(() => undefined);
      await until(() => held.length > 0, 'the check to reach the host');
      let settled = false;
      void asked.finally(() => (settled = true)).catch(() => undefined);
      env.sandbox.advance(CHECK_DEADLINE_MS - 1);
      await fullTurn();
      expect(settled).toBe(false);
      env.sandbox.advance(1);
      await expect(asked).rejects.toMatchObject({
        code: 'offline',
        details: { unreachable: url, reason: 'It did not answer within 10 seconds.' },
      });
    } finally {
      for (const s of held) s.destroy();
      silent.close();
    }
  });
});
