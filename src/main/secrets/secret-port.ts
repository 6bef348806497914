// The secret store as the core uses it (src/main/secrets owns the keychain).
export type { SecretName, SecretStore as SecretPort } from '.';
