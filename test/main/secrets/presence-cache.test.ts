// Whether a connection has its client secret is answered from what the keychain store last read
// or wrote: listing the connections again and again asks the system keychain nothing more.
import { describe, expect, it } from 'vitest';
import { createSecretStore, type KeytarLike } from '../../../src/main/secrets';

/** A keychain in memory that counts how often it is read. */
function countingKeytar() {
  const items = new Map<string, string>();
  const k = {
    reads: 0,
    failReads: false,
    async getPassword(_service: string, account: string) {
      k.reads++;
      if (k.failReads) throw new Error('The keyring is locked');
      return items.get(account) ?? null;
    },
    async setPassword(_service: string, account: string, password: string) {
      items.set(account, password);
    },
    async deletePassword(_service: string, account: string) {
      return items.delete(account);
    },
    items,
  };
  return k satisfies KeytarLike & Record<string, unknown>;
}

async function open() {
  const keytar = countingKeytar();
  const store = await createSecretStore({ service: 'presence test', keytar });
  expect(store.kind).toBe('keychain');
  keytar.reads = 0;
  return { keytar, store };
}

describe('secret presence, cached', () => {
  it('asks the keychain once per connection, then answers from what it knows', async () => {
    const { keytar, store } = await open();
    await store.set('p1', 'client_secret', 's3cret');
    const before = keytar.reads;
    for (let i = 0; i < 20; i++) {
      expect(await store.has('p1', 'client_secret')).toBe(true);
      expect(await store.has('p2', 'client_secret')).toBe(false);
    }
    // p1 was known from its write; p2 needed one read.
    expect(keytar.reads - before).toBe(1);
  });

  it('follows set and delete, of one secret or of all', async () => {
    const { store } = await open();
    expect(await store.has('p1', 'refresh_token')).toBe(false);
    await store.set('p1', 'refresh_token', 'rt');
    expect(await store.has('p1', 'refresh_token')).toBe(true);
    await store.set('p1', 'client_secret', 'cs');
    await store.delete('p1', 'refresh_token');
    expect(await store.has('p1', 'refresh_token')).toBe(false);
    expect(await store.has('p1', 'client_secret')).toBe(true);
    await store.delete('p1');
    expect(await store.has('p1', 'client_secret')).toBe(false);
  });

  it('a keychain that fails to answer is asked again next time, not remembered as empty', async () => {
    const { keytar, store } = await open();
    keytar.items.set('p1', JSON.stringify({ client_secret: 'cs' }));
    keytar.failReads = true;
    await expect(store.has('p1', 'client_secret')).rejects.toThrow(/keyring is locked/);
    keytar.failReads = false;
    expect(await store.has('p1', 'client_secret')).toBe(true);
  });

  it('an entry that cannot be read has no usable secret until it is replaced', async () => {
    const { store, keytar } = await open();
    keytar.items.set('p1', 'not json');
    expect(await store.has('p1', 'client_secret')).toBe(false);
    await store.set('p1', 'client_secret', 'new');
    expect(await store.has('p1', 'client_secret')).toBe(true);
  });
});
