// What the core needs of the secret store (src/main/secrets): written as a structural type so the
// core depends on the behaviour, not on how the keychain module is built.
export type SecretName = 'client_secret' | 'refresh_token';

export interface SecretPort {
  readonly kind: 'keychain' | 'memory';
  /** Set when secrets are kept in memory only: says why and what to do. */
  readonly warning?: string | null;
  get(profileId: string, name: SecretName): Promise<string | null | undefined>;
  set(profileId: string, name: SecretName, value: string): Promise<void>;
  delete(profileId: string, name?: SecretName): Promise<unknown>;
}
