// Client secrets and refresh tokens live in the OS keychain only (keytar: Secret Service on Linux,
// Keychain on macOS, Credential Vault on Windows). Nothing else in the app touches the keychain.
//
// Layout: service = the app's name, account = the profile id, and the item's value is a small
// JSON object holding that profile's named secrets ({"client_secret": ..., "refresh_token": ...}).
// One item per profile (as the issue asks: account = profile id) means one keychain prompt per
// profile on macOS and one entry per profile in a keyring viewer; the read-modify-write of two
// names in one item is serialised per profile below.
//
// Where no keychain answers (a Linux session without a Secret Service, a locked keyring), the
// secrets are kept in memory for this session only, and `warning` says so plainly. Never on disk.
import { z } from 'zod';
import { profileIdSchema } from '../../shared/domain/profile';

export const SECRET_NAMES = ['client_secret', 'refresh_token'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export interface SecretStore {
  readonly kind: 'keychain' | 'memory';
  /** Set when secrets will not outlive this session: shown to the person as it is. */
  readonly warning?: string;
  get(profileId: string, name: SecretName): Promise<string | null>;
  /**
   * Whether the secret is stored, without its value. The keychain store answers from what it
   * last read or wrote (each read fills it, set and delete update it), so listing the connections
   * does not ask the system keychain once per connection per call.
   */
  has(profileId: string, name: SecretName): Promise<boolean>;
  set(profileId: string, name: SecretName, value: string): Promise<void>;
  /** Deletes one secret, or every secret of the profile when `name` is omitted. */
  delete(profileId: string, name?: SecretName): Promise<void>;
}

/** The part of keytar this module uses. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface SecretStoreOptions {
  service: string;
  /** Defaults to the keytar module; a test may pass another implementation or a loader. */
  keytar?: KeytarLike | (() => Promise<KeytarLike>);
  /** How long the start-up probe may wait for the keychain (an unlock prompt may be open). */
  probeTimeoutMs?: number;
}

export type SecretStoreErrorCode = 'INVALID_INPUT' | 'KEYCHAIN_FAILED' | 'UNREADABLE';

/** Messages never contain a secret value. */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
  constructor(
    readonly code: SecretStoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const nameSchema = z.enum(SECRET_NAMES);
const valueSchema = z.string().min(1, 'a secret cannot be empty').max(16_384, 'a secret is at most 16384 characters');
const itemSchema = z.record(z.string(), z.string());

function checkProfile(profileId: string): void {
  if (!profileIdSchema.safeParse(profileId).success) throw new SecretStoreError('INVALID_INPUT', 'Not a valid profile id');
}
function checkName(name: string): void {
  if (!nameSchema.safeParse(name).success) {
    throw new SecretStoreError('INVALID_INPUT', `Unknown secret name; expected one of ${SECRET_NAMES.join(', ')}`);
  }
}
function checkValue(value: unknown): asserts value is string {
  const r = valueSchema.safeParse(value);
  if (!r.success) throw new SecretStoreError('INVALID_INPUT', r.error.issues[0]?.message ?? 'Invalid secret');
}

const PROBE_ACCOUNT = '__campaign_desk_probe__';

/** A plain reason for the warning, from what keytar/libsecret said. */
export function explainKeychainFailure(raw: string): string {
  if (/autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|connect to socket|org\.freedesktop\.DBus\.Error|No such file or directory/i.test(raw)) {
    return `no D-Bus session with a Secret Service is running: ${raw}`;
  }
  if (/locked collection|is locked|unlock/i.test(raw)) return `the keyring is locked: ${raw}`;
  if (/org\.freedesktop\.secrets|ServiceUnknown|was not provided by any \.service files/i.test(raw)) {
    return `no Secret Service (such as gnome-keyring) is installed or running: ${raw}`;
  }
  return raw;
}

export function memoryWarning(reason: string): string {
  return (
    `Secrets will be kept only until you quit: no system keychain is available (${reason}). ` +
    'Unlock or install a keyring (gnome-keyring) to have them remembered.'
  );
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Removes every occurrence of the given values from a message (keytar should not echo them, but). */
function scrub(message: string, values: readonly (string | undefined)[]): string {
  let out = message;
  for (const v of values) if (v) out = out.split(v).join('[redacted]');
  return out;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${Math.round(ms / 1000)} s`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

async function loadKeytar(opt: SecretStoreOptions['keytar']): Promise<KeytarLike> {
  if (typeof opt === 'function') return opt();
  if (opt) return opt;
  const mod = (await import('keytar')) as unknown as KeytarLike & { default?: KeytarLike };
  return mod.default ?? mod;
}

/** Runs fn after every earlier call for the same key has settled (per-profile read-modify-write). */
function createSerializer(): <T>(key: string, fn: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, fn) => {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

function createMemoryStore(warning: string): SecretStore {
  const profiles = new Map<string, Map<SecretName, string>>();
  return {
    kind: 'memory',
    warning,
    async has(profileId, name) {
      checkProfile(profileId);
      checkName(name);
      return profiles.get(profileId)?.has(name) ?? false;
    },
    async get(profileId, name) {
      checkProfile(profileId);
      checkName(name);
      return profiles.get(profileId)?.get(name) ?? null;
    },
    async set(profileId, name, value) {
      checkProfile(profileId);
      checkName(name);
      checkValue(value);
      let m = profiles.get(profileId);
      if (!m) profiles.set(profileId, (m = new Map()));
      m.set(name, value);
    },
    async delete(profileId, name) {
      checkProfile(profileId);
      if (name === undefined) profiles.delete(profileId);
      else {
        checkName(name);
        profiles.get(profileId)?.delete(name);
      }
    },
  };
}

function createKeychainStore(service: string, keytar: KeytarLike): SecretStore {
  const serial = createSerializer();
  const fail = (what: string, e: unknown, values: (string | undefined)[] = []) =>
    new SecretStoreError('KEYCHAIN_FAILED', `Could not ${what} in the system keychain: ${scrub(messageOf(e), values)}`);
  /** Which secrets each profile's entry held when last read or written (names only, never values). */
  const present = new Map<string, ReadonlySet<string>>();

  async function readItem(profileId: string): Promise<Record<string, string>> {
    let text: string | null;
    try {
      text = await keytar.getPassword(service, profileId);
    } catch (e) {
      // Not known any more: the next question asks the keychain again.
      present.delete(profileId);
      throw fail('read the secrets of this profile', e);
    }
    const item = parseItem(text);
    present.set(profileId, new Set(Object.keys(item)));
    return item;
  }

  function parseItem(text: string | null): Record<string, string> {
    if (text === null) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const item = itemSchema.safeParse(parsed);
    if (!item.success) {
      throw new SecretStoreError(
        'UNREADABLE',
        'The keychain entry for this profile is not in the expected form. Sign in again (or enter the client secret again) to replace it.',
      );
    }
    return item.data;
  }

  /** The entry to change one secret of: an unreadable entry is replaced; a keychain that does not answer is reported. */
  async function readItemForChange(profileId: string): Promise<Record<string, string>> {
    try {
      return await readItem(profileId);
    } catch (e) {
      if (!(e instanceof SecretStoreError && e.code === 'UNREADABLE')) throw e;
      return {};
    }
  }

  async function writeItem(profileId: string, item: Record<string, string>, values: string[]): Promise<void> {
    try {
      if (Object.keys(item).length === 0) await keytar.deletePassword(service, profileId);
      else await keytar.setPassword(service, profileId, JSON.stringify(item));
    } catch (e) {
      present.delete(profileId);
      throw fail('save the secrets of this profile', e, values);
    }
    present.set(profileId, new Set(Object.keys(item)));
  }

  return {
    kind: 'keychain',
    async has(profileId, name) {
      checkProfile(profileId);
      checkName(name);
      return serial(profileId, async () => {
        const known = present.get(profileId);
        if (known) return known.has(name);
        try {
          return Object.hasOwn(await readItem(profileId), name);
        } catch (e) {
          // An entry that cannot be read holds no usable secret: known as such until it is replaced.
          if (!(e instanceof SecretStoreError && e.code === 'UNREADABLE')) throw e;
          present.set(profileId, new Set());
          return false;
        }
      });
    },
    async get(profileId, name) {
      checkProfile(profileId);
      checkName(name);
      return serial(profileId, async () => (await readItem(profileId))[name] ?? null);
    },
    async set(profileId, name, value) {
      checkProfile(profileId);
      checkName(name);
      checkValue(value);
      await serial(profileId, async () => {
        const item = await readItemForChange(profileId);
        item[name] = value;
        await writeItem(profileId, item, Object.values(item));
      });
    },
    async delete(profileId, name) {
      checkProfile(profileId);
      if (name !== undefined) checkName(name);
      await serial(profileId, async () => {
        if (name === undefined) {
          try {
            await keytar.deletePassword(service, profileId);
          } catch (e) {
            present.delete(profileId);
            throw fail('delete the secrets of this profile', e);
          }
          present.set(profileId, new Set());
          return;
        }
        const item = await readItemForChange(profileId);
        delete item[name];
        await writeItem(profileId, item, Object.values(item));
      });
    },
  };
}

/**
 * Opens the keychain, proving it works with a throw-away item (write, read back, delete), or
 * falls back to memory with a warning. Never rejects.
 */
export async function createSecretStore(opts: SecretStoreOptions): Promise<SecretStore> {
  const service = z.string().min(1).parse(opts.service);
  const timeout = opts.probeTimeoutMs ?? 10_000;
  let keytar: KeytarLike;
  try {
    keytar = await loadKeytar(opts.keytar);
  } catch (e) {
    return createMemoryStore(memoryWarning(`the keychain library could not be loaded: ${messageOf(e)}`));
  }
  const probe = `probe-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  try {
    await withTimeout(
      (async () => {
        await keytar.setPassword(service, PROBE_ACCOUNT, probe);
        const back = await keytar.getPassword(service, PROBE_ACCOUNT);
        await keytar.deletePassword(service, PROBE_ACCOUNT);
        if (back !== probe) throw new Error('the keychain did not return what was stored');
      })(),
      timeout,
      'the keychain',
    );
  } catch (e) {
    return createMemoryStore(memoryWarning(explainKeychainFailure(scrub(messageOf(e), [probe]))));
  }
  return createKeychainStore(service, keytar);
}
