// Shared set-up for the store tests: a real SQLite file in a fresh temp dir and a manual clock.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type OutboxWork, type Store } from '../../../src/main/store';
import { CAMPAIGN_INDEXES, cacheFileOf, hasTextIndex } from '../../../src/main/store/cache-file';
import { until } from '../../helpers/wait';

export class ManualClock {
  constructor(public t = Date.UTC(2026, 9, 10, 12, 0, 0)) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface TestStore {
  store: Store;
  clock: ManualClock;
  dir: string;
  file: string;
  /** Closes the store (its cache writer answers what it was sent first) and opens the same file again. */
  reopen(): Promise<Store>;
  cleanup(): Promise<void>;
}

export function tempDir(prefix = 'desk-store-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function openTestStore(): TestStore {
  const dir = tempDir();
  const file = join(dir, 'desk.db');
  const clock = new ManualClock();
  const t: TestStore = {
    store: openStore({ file, clock }),
    clock,
    dir,
    file,
    async reopen() {
      await t.store.close();
      t.store = openStore({ file, clock });
      return t.store;
    },
    async cleanup() {
      await t.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

export const PROFILE = {
  id: 'p1',
  name: 'Agency',
  baseUrl: 'https://api.example.test',
  authUrl: 'https://auth.example.test',
  pushUrl: 'https://push.example.test',
  clientId: 'client-123',
  flow: 'client_credentials' as const,
};

export const ACME = { profileId: 'p1', accountId: 'acmeads' };
export const GLOBEX = { profileId: 'p1', accountId: 'globexads' };

/** A profile with two advertiser accounts. */
export function seed(store: Store): void {
  store.profiles.create(PROFILE);
  store.accounts.add({ ...ACME, type: 'ADVERTISER', name: 'Acme' });
  store.accounts.add({ ...GLOBEX, type: 'ADVERTISER', name: 'Globex' });
}

/** A campaign create for the outbox, told apart by its name (clientRef `ref-<name>`). */
export const createWork = (name: string): OutboxWork => ({
  kind: 'create_campaign',
  payload: {
    clientRef: `ref-${name}`,
    body: {
      name,
      branding_text: 'Acme',
      bid_strategy: 'MAX_CONVERSIONS',
      marketing_objective: 'LEADS_GENERATION',
      spending_limit: 100,
      spending_limit_model: 'MONTHLY',
    },
  },
});

/**
 * Waits until the cache file has every index again: the writer builds those a first load went
 * without (the sort indexes, then the text index) after that load's refresh is done.
 */
export async function indexesBuilt(t: TestStore): Promise<void> {
  const db = new Database(cacheFileOf(t.file), { readonly: true });
  try {
    const sortIndexes = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name GLOB 'campaigns_by_*'").pluck();
    await until(() => sortIndexes.get() === CAMPAIGN_INDEXES.length && hasTextIndex(db), 'the cache writer to build the indexes');
  } finally {
    db.close();
  }
}
