// A refresh of a cached account reads only what changed (issue #29): a listed record whose bytes
// are those its cached row was made from is neither parsed nor written again, while a changed
// campaign, and one the service merely wrote differently, are read and written as before.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../src/main/app/create-core';
import { cacheFileOf } from '../../../src/main/store';
import type { Fixtures } from '../../../src/sandbox/index';
import type { Profile, SyncProgress } from '../../../src/shared/ipc/contract';
import { testFixtures } from '../../helpers/sandbox';
import { until } from '../../helpers/wait';
import { type Env, startEnv } from '../../helpers/world';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const ACCOUNT = 'digestshop';

function fixtures(count: number, firstId = 8_100_001): Fixtures {
  const f = testFixtures();
  f.accounts.push({ account_id: ACCOUNT, name: 'Digest Shop', type: 'ADVERTISER', created_at: '2026-11-19T00:00:00Z', features: [] });
  f.clients[0].accounts.push(ACCOUNT);
  for (let i = 0; i < count; i++) {
    f.campaigns!.push({
      account_id: ACCOUNT,
      id: firstId + i,
      name: `Digest ${i}`,
      status: 'APPROVED',
      created_at: '2026-11-19T01:00:00Z',
      cpc: 0.2,
      spent: i,
      bid_strategy: 'FIXED',
    });
  }
  return f;
}

type Listed = Record<string, unknown> & { id: string | number; name: string };

/**
 * Another service's bytes for the same listing, made by the test's proxy: every record written by
 * JSON.stringify (the same bytes at every read), and, from `changed` on, one campaign renamed and
 * another written with its keys in reverse order (the same campaign, other bytes).
 */
const service: {
  renamed: string;
  reordered: string;
  changed: boolean;
  /** Another listing made of the sandbox's (the listing's campaigns as the service now holds them). */
  edit?: (results: Listed[]) => Listed[];
} = { renamed: '8100005', reordered: '8100010', changed: false };
function rewrite(path: string, body: Buffer): Buffer | undefined {
  if (!path.startsWith(`/core/api/1.0/${ACCOUNT}/campaigns`)) return undefined;
  const envelope = JSON.parse(body.toString()) as { results?: Listed[]; metadata?: { total: number; count?: number } };
  if (!Array.isArray(envelope.results)) return undefined;
  if (service.edit) {
    envelope.results = service.edit(envelope.results);
    // A look-up by ids is not a listing of the account: its total is its own count.
    if (envelope.metadata) envelope.metadata = { ...envelope.metadata, total: envelope.results.length, count: envelope.results.length };
  }
  if (service.changed) {
    envelope.results = envelope.results.map((c) =>
      String(c.id) === service.renamed
        ? { ...c, name: 'Renamed at the service' }
        : String(c.id) === service.reordered
          ? (Object.fromEntries(Object.entries(c).reverse()) as Listed)
          : c,
    );
  }
  return Buffer.from(JSON.stringify(envelope));
}

async function refreshed(e: Env, n: number): Promise<SyncProgress> {
  return until(
    () => {
      const ends = e.events
        .filter((x) => x.event === 'sync.progress')
        .map((x) => x.payload as SyncProgress)
        .filter((x) => x.accountId === ACCOUNT && x.state !== 'running');
      return ends.length >= n ? ends[n - 1] : undefined;
    },
    `refresh ${n} to end`,
    30_000,
  );
}

describe('a second refresh of a cached account', () => {
  it('writes the campaign that changed and the one written differently, and leaves the rows of unchanged records alone', async () => {
    // One unpaged answer (records of a paged one are always parsed).
    env = await startEnv({ fixtures: fixtures(40), demo: false, variants: { page_size_cap: undefined }, proxy: { rewrite } });
    const h = env.core.handlers;
    const p: Profile = await h['profiles.create']({
      name: 'A',
      baseUrl: env.serviceUrl,
      authUrl: env.serviceUrl,
      pushUrl: env.serviceUrl,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      flow: 'client_credentials',
      redirectUri: null,
    });
    await h['accounts.add']({ profileId: p.id, accountId: ACCOUNT });
    expect(await refreshed(env, 1)).toMatchObject({ state: 'done' });

    // A mark on three cached rows, put there behind the app's back: a row that is written again
    // loses it. (What the service lists for the third one does not change.)
    const unchanged = '8100020';
    const cache = new Database(cacheFileOf(join(env.dataDir, DATABASE_FILE)), { timeout: 5000 });
    try {
      const marked = cache
        .prepare("UPDATE campaigns SET name = 'marked' WHERE id IN (?, ?, ?)")
        .run(service.renamed, service.reordered, unchanged).changes;
      expect(marked).toBe(3);
    } finally {
      cache.close();
    }

    service.changed = true;
    await h['sync.refresh']({ profileId: p.id, accountId: ACCOUNT });
    expect(await refreshed(env, 2)).toMatchObject({ state: 'done' });

    const rows = (await h['campaigns.query']({ profileId: p.id, accountId: ACCOUNT, offset: 0, limit: 100 })).rows;
    const nameOf = (id: string) => rows.find((r) => r.id === id)?.name;
    expect(rows).toHaveLength(40);
    // Changed at the service: updated.
    expect(nameOf(service.renamed)).toBe('Renamed at the service');
    // The same campaign in other bytes: read again, so the cache holds what the service holds,
    // whatever had happened to its row.
    expect(nameOf(service.reordered)).toBe('Digest 9');
    // The same bytes as when its row was written: not parsed, not written (the old code rewrote
    // every row it was sent that differed, and this mark with it).
    expect(nameOf(unchanged)).toBe('marked');
    // Every other row is what the service lists.
    for (const r of rows)
      if (![service.renamed, service.reordered, unchanged].includes(r.id)) expect(r.name).toBe(`Digest ${Number(r.id) - 8_100_001}`);
  }, 120_000);
});

describe('a second refresh of an account that changed', () => {
  afterEach(() => {
    service.edit = undefined;
  });

  /** Caches the account, marks every cached row behind the app's back, changes the listing, refreshes again. */
  async function secondRefresh(e: Env, edit: (results: Listed[]) => Listed[]) {
    const h = e.core.handlers;
    const p: Profile = await h['profiles.create']({
      name: 'A',
      baseUrl: e.serviceUrl,
      authUrl: e.serviceUrl,
      pushUrl: e.serviceUrl,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      flow: 'client_credentials',
      redirectUri: null,
    });
    await h['accounts.add']({ profileId: p.id, accountId: ACCOUNT });
    expect(await refreshed(e, 1)).toMatchObject({ state: 'done' });
    // A row written again loses its mark.
    const cache = new Database(cacheFileOf(join(e.dataDir, DATABASE_FILE)), { timeout: 5000 });
    try {
      cache.prepare("UPDATE campaigns SET name = 'marked'").run();
    } finally {
      cache.close();
    }
    service.edit = edit;
    await h['sync.refresh']({ profileId: p.id, accountId: ACCOUNT });
    expect(await refreshed(e, 2)).toMatchObject({ state: 'done' });
    const rows: { id: string; name: string }[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await h['campaigns.query']({
        profileId: p.id,
        accountId: ACCOUNT,
        sort: { field: 'id', direction: 'asc' },
        offset,
        limit: 1000,
      });
      rows.push(...page.rows);
      if (page.rows.length < 1000) return rows;
    }
  }

  // More campaigns than the walk reads at a time (2000), and runs of deletions (one of 900 rows:
  // the walk holds at least 1000 rows ahead, so the row after it is found at once).
  const COUNT = 6000;
  const FIRST = 9_997_001;
  const gone = (id: number) => (id >= FIRST + 100 && id < FIRST + 150) || (id >= FIRST + 2500 && id < FIRST + 3400);
  const renamed = new Set([FIRST + 10, FIRST + 2000, FIRST + 5999].map(String));
  const added = [FIRST - 5, FIRST + 3000, FIRST + 7000].map((n) => ({ id: n, name: `Added ${n}` }));
  const edit = (results: Listed[]): Listed[] => [
    ...results.filter((c) => !gone(Number(c.id))).map((c) => (renamed.has(String(c.id)) ? { ...c, name: `Renamed ${c.id}` } : c)),
    ...added.map((a) => ({ ...results[0], ...a })),
  ];
  const byId = (a: Listed, b: Listed) => Number(a.id) - Number(b.id);
  const expected = (n: number) => {
    const id = FIRST + n;
    return gone(id) ? [] : [{ id: String(id), name: renamed.has(String(id)) ? `Renamed ${id}` : 'marked' }];
  };

  it('writes only the campaigns that changed or came, and removes those that left (a listing in id order)', async () => {
    env = await startEnv({ fixtures: fixtures(COUNT, FIRST), demo: false, variants: { page_size_cap: undefined }, proxy: { rewrite } });
    const rows = await secondRefresh(env, (results) => edit(results).sort(byId));
    const want = [
      ...Array.from({ length: COUNT }, (_, n) => expected(n)).flat(),
      ...added.map((a) => ({ id: String(a.id), name: a.name })),
    ].sort((a, b) => Number(a.id) - Number(b.id));
    // Every unchanged campaign keeps its mark: it was neither parsed nor written.
    expect(rows.map((r) => ({ id: r.id, name: r.name }))).toEqual(want);
  }, 120_000);

  it('a service that orders ids as text ("10000000" before "9997001") is found out: the same rows, the unchanged ones all but a few left alone', async () => {
    env = await startEnv({ fixtures: fixtures(COUNT, FIRST), demo: false, variants: { page_size_cap: undefined }, proxy: { rewrite } });
    const rows = await secondRefresh(env, (results) =>
      edit(results).sort((a, b) => (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0)),
    );
    const want = [
      ...Array.from({ length: COUNT }, (_, n) => expected(n)).flat(),
      ...added.map((a) => ({ id: String(a.id), name: a.name })),
    ].sort((a, b) => Number(a.id) - Number(b.id));
    expect(rows.map((r) => r.id)).toEqual(want.map((w) => w.id));
    // Changed and added rows are what the service lists; an unchanged one read before the walk
    // saw the order (parsed, compared, written) holds the service's name, the others their mark.
    const rewritten = rows.filter((r, i) => r.name !== want[i].name);
    for (const r of rewritten) expect(r.name).toMatch(/^Digest /);
    expect(rewritten.length).toBeLessThan(1000);
  }, 120_000);
});
