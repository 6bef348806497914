// The secret store the app uses when the caller does not pass one.
// TEMPORARY: until src/main/secrets lands, secrets are kept in memory for the session only
// (never on disk), and app.info says so.
import type { SecretName, SecretPort } from './secret-port';

export async function defaultSecretStore(): Promise<SecretPort> {
  const values = new Map<string, string>();
  const key = (profileId: string, name: SecretName) => `${profileId}\u0000${name}`;
  return {
    kind: 'memory',
    warning: 'Secrets will be kept only until you quit: the system keychain is not connected in this build.',
    get: async (profileId, name) => values.get(key(profileId, name)) ?? null,
    set: async (profileId, name, value) => {
      values.set(key(profileId, name), value);
    },
    delete: async (profileId, name) => {
      for (const n of name ? [name] : (['client_secret', 'refresh_token'] as const)) values.delete(key(profileId, n));
    },
  };
}
