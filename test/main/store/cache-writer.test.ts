// The campaign cache's writer: a real worker thread on a real SQLite file. What a person relies on:
// requests are done in the order they were sent (a removal sent after rows removes them), a bad
// request fails alone and says why, closing waits for what was sent, and a writer that cannot
// start says so on every request instead of losing writes silently.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareCacheFile } from '../../../src/main/store/cache-file';
import { startCacheWriter, type CacheWriter } from '../../../src/main/store/cache-writer/cache-writer';
import { campaignRowValues } from '../../../src/main/store/campaign-columns';
import { syntheticCampaigns } from '../../fixtures/campaigns';

const dirs: string[] = [];
const writers: CacheWriter[] = [];
afterEach(async () => {
  for (const w of writers.splice(0)) await w.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function cacheFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'desk-cache-writer-'));
  dirs.push(dir);
  const file = join(dir, 'desk.campaigns.sqlite');
  prepareCacheFile(file, null);
  return file;
}

function start(file: string, warnings: string[] = []): CacheWriter {
  const w = startCacheWriter(file, (m) => warnings.push(m));
  writers.push(w);
  return w;
}

const rowsOf = (accountKey: number, n: number, firstId = 1) =>
  syntheticCampaigns(n, { firstId }).map((c) => campaignRowValues(accountKey, c));

function countIn(file: string, accountKey: number): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM campaigns WHERE account_key = ?').pluck().get(accountKey) as number;
  } finally {
    db.close();
  }
}

describe('the cache writer', () => {
  it('commits rows sent in many small requests, and a removal sent after them removes them', async () => {
    const file = cacheFile();
    const w = start(file);
    await w.ready;
    const sent = Array.from({ length: 20 }, (_, i) => w.send({ type: 'write', rows: rowsOf(1, 50, i * 50 + 1), fresh: [1] }));
    const forgotten = w.send({ type: 'forget', accountKey: 1 });
    const written = await Promise.all(sent);
    expect(written.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(await forgotten).toBe(1000);
    expect(countIn(file, 1)).toBe(0);
  });

  it('writes only what changed when rows are sent again, and answers how many were written', async () => {
    const file = cacheFile();
    const w = start(file);
    const rows = rowsOf(2, 100);
    expect(await w.send({ type: 'write', rows, fresh: [2] })).toBe(100);
    expect(await w.send({ type: 'write', rows, fresh: [] })).toBe(0);
    const changed = rows.map((r, i) => (i < 10 ? r.map((v, k) => (k === 1 + 1 + 19 ? ((v as number) ?? 0) + 1 : v)) : r));
    expect(await w.send({ type: 'write', rows: changed, fresh: [] })).toBe(10);
    expect(countIn(file, 2)).toBe(100);
  });

  it('fails a request whose rows the table refuses, alone, saying why; the others are kept', async () => {
    const file = cacheFile();
    const w = start(file);
    const good = w.send({ type: 'write', rows: rowsOf(3, 5), fresh: [3] });
    // A cpc (column 9) that is not a number breaks the STRICT table's rule, after three good rows
    // of the same request were written: they must go too.
    const bad = w.send({
      type: 'write',
      rows: [...rowsOf(3, 3, 800), rowsOf(3, 1, 900)[0].map((v, k) => (k === 9 ? 'lots' : v))],
      fresh: [3],
    });
    const after = w.send({ type: 'write', rows: rowsOf(3, 5, 100), fresh: [3] });
    const [g, b, a] = await Promise.allSettled([good, bad, after]);
    expect(g).toEqual({ status: 'fulfilled', value: 5 });
    expect(b).toMatchObject({
      status: 'rejected',
      reason: { code: 'CACHE_UNAVAILABLE', message: expect.stringMatching(/could not be written: .*cpc/) },
    });
    expect(a).toEqual({ status: 'fulfilled', value: 5 });
    expect(countIn(file, 3)).toBe(10);
  });

  it('a first load whose listing repeats a campaign, or meets one stored meanwhile, ends as row by row would: the later record wins', async () => {
    const file = cacheFile();
    const w = start(file);
    const listed = syntheticCampaigns(40, { firstId: 1 });
    // Stored meanwhile (a create answered while the load ran), under another name.
    expect(await w.send({ type: 'write', rows: [campaignRowValues(6, { ...listed[4], name: 'Stored before' })], fresh: [] })).toBe(1);
    // The listing moved while it was read: campaign 3 again (renamed) inside the first rows, 30 again unchanged at the end.
    const load = [...listed.slice(0, 10), { ...listed[2], name: 'Listed again' }, ...listed.slice(10), listed[29]];
    // 40 campaigns inserted, or 39 and campaign 5 brought up to date; campaign 3 rewritten once; 30 again is equal.
    expect(await w.send({ type: 'write', rows: load.map((c) => campaignRowValues(6, c)), fresh: [6] })).toBe(41);
    const db = new Database(file, { readonly: true });
    try {
      const nameOf = db.prepare('SELECT name FROM campaigns WHERE account_key = 6 AND id = ?').pluck();
      expect(nameOf.get(listed[2].id)).toBe('Listed again');
      expect(nameOf.get(listed[4].id)).toBe(listed[4].name);
      expect(countIn(file, 6)).toBe(40);
    } finally {
      db.close();
    }
  });

  it('refuses rows with a value no column holds before sending them, saying which, and goes on writing', async () => {
    const file = cacheFile();
    const w = start(file);
    const [row] = rowsOf(7, 1);
    await expect(w.send({ type: 'write', rows: [row.map((v, k) => (k === 9 ? Number.NaN : v))], fresh: [7] })).rejects.toThrow(/not NaN/);
    expect(await w.send({ type: 'write', rows: [row], fresh: [7] })).toBe(1);
    expect(countIn(file, 7)).toBe(1);
  });

  it('on close, answers every request sent before it', async () => {
    const file = cacheFile();
    const w = startCacheWriter(file, () => undefined);
    const pending = w.send({ type: 'write', rows: rowsOf(4, 2000), fresh: [4] });
    await w.close();
    await expect(pending).resolves.toBe(2000);
    expect(countIn(file, 4)).toBe(2000);
    await expect(w.send({ type: 'forget', accountKey: 4 })).rejects.toMatchObject({ code: 'CACHE_UNAVAILABLE' });
  });

  it('that cannot start says so once, and every request fails saying what to do instead of vanishing', async () => {
    const warnings: string[] = [];
    // No cache file there: the worker cannot open it.
    const w = start(join(mkdtempSync(join(tmpdir(), 'desk-cache-none-')), 'missing', 'desk.campaigns.sqlite'), warnings);
    await expect(w.ready).rejects.toMatchObject({
      code: 'CACHE_UNAVAILABLE',
      message: expect.stringMatching(/cannot be written .*Restart Campaign Desk/),
    });
    await expect(w.send({ type: 'write', rows: rowsOf(5, 1), fresh: [] })).rejects.toMatchObject({ code: 'CACHE_UNAVAILABLE' });
    expect(warnings).toHaveLength(1);
  });
});
