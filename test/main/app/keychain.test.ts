// With a real keychain (run under scripts/with-keyring.sh, as npm test and CI do): a connection's
// client secret goes to the keychain, survives a restart of the core there, and is all the core
// needs to work again. Skipped, saying why, where no Secret Service answers; failing where one is
// required (test/helpers/keychain.ts).
import { afterAll, expect, it } from 'vitest';
import { createSecretStore } from '../../../src/main/secrets';
import { keychainSuite } from '../../helpers/keychain';
import { testFixtures } from '../../helpers/sandbox';
import { addConnection, type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';

const SERVICE = `Campaign Desk core test ${process.pid}`;
const store = await createSecretStore({ service: SERVICE, probeTimeoutMs: 5_000 });

let env: Env | undefined;
afterAll(async () => {
  await env?.close();
});

keychainSuite(store, 'the core with a real keychain', () => {
  it('stores the client secret in the keychain only and works again after a restart', async () => {
    env = await startEnv({ fixtures: testFixtures(), demo: false });
    await env.core.close();
    const core = await env.restart({ secrets: store });
    const p = await addConnection(env, { name: 'Keychain', url: env.sandbox.url });
    expect(await store.get(p.id, 'client_secret')).toBe('demo-secret');
    expect((await core.handlers['app.info']({})).secrets).toEqual({ kind: 'keychain', warning: null });
    await core.close();
    // A fresh secret store, as after an app restart: the secret comes back from the keychain.
    const again = await env.restart({ secrets: await createSecretStore({ service: SERVICE }) });
    await again.handlers['accounts.add']({ profileId: p.id, accountId: 'acmeshoes' });
    await until(
      async () => (await again.handlers['accounts.list']({ profileId: p.id }))[0]?.lastSyncedAt !== null,
      'a refresh with the stored secret',
    );
    await again.handlers['profiles.remove']({ profileId: p.id });
    expect(await store.get(p.id, 'client_secret')).toBeNull();
  });
});
