// What the app says about a connection after a restart, against the real sandbox over HTTP: not
// "Online" before the service has answered, and "Offline" (not "Online") when its host is dead.
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../../src/shared/ipc/contract';
import { freePort } from '../service/helpers';
import { startEnv, until, type Env } from './env';

const P = 'sandbox-demo';
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
    expect(env.events.slice(since).filter((e) => e.event === 'connection.changed').map((e) => (e.payload as { connection: string }).connection)).not.toContain('online');
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
    const input = { name: 'Dead host', baseUrl: dead, authUrl: dead, pushUrl: dead, clientId: 'demo-client', clientSecret: 'demo-secret', flow: 'client_credentials' as const, redirectUri: null };
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
});
