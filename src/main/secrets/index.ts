// Public surface of the secrets module.
export {
  createSecretStore,
  SECRET_NAMES,
  SecretStoreError,
  type SecretName,
  type SecretStore,
  type SecretStoreOptions,
  type SecretStoreErrorCode,
  type KeytarLike,
} from './secret-store';
