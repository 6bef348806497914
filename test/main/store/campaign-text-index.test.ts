// The text index (cache-file.ts, campaign_text) answers the search box exactly as reading every
// row did: the same campaigns, totals and order for rare words (looked up in the index), common
// ones (the sort index walked, rows tested), short words beside long ones, status filters and
// later pages, whether the total comes with the page or is counted apart (campaigns.count); it follows every write of the cache, and after a bulk load (which empties it) it
// is built again while searches keep answering by reading the rows.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFileOf, hasTextIndex } from '../../../src/main/store/cache-file';
import { createWindowQuery, parseCampaignQuery, type CampaignQuery } from '../../../src/main/store/campaign-query';
import type { Campaign } from '../../../src/shared/domain/campaign';
import { syntheticCampaigns } from '../../fixtures/campaigns';
import { until } from '../../helpers/wait';
import { ACME, GLOBEX, openTestStore, seed, type TestStore, indexesBuilt } from './helpers';

// 15,000 campaigns: '400' is in every id (more than the 10,000 that make a word common), a brand
// in about a tenth, a five-digit number in a few.
const data: Campaign[] = [
  ...syntheticCampaigns(15_000, { seed: 7 }),
  { id: 'ext-1', name: 'Überraschung Café', branding_text: 'ÄÖÜ brand', status: 'PAUSED' },
  { id: 'ext-2', name: 'quote "this" one', branding_text: null, status: 'APPROVED' },
  // Letters no other campaign holds (q, z, j, 𝄞: one beyond U+FFFF), some at the very end of the searched text.
  { id: 'ext-3', name: 'Xmas market', branding_text: 'Quiz', status: 'PAUSED' },
  { id: 'ext-4', name: 'Clef 𝄞', branding_text: null, status: 'APPROVED' },
  { id: 'ext-5', name: 'Jazz 𝄞x', branding_text: 'Fizz', status: 'REJECTED' },
];

/** The search box's meaning, written plainly: every word in the id, name or branding. */
function matches(c: Campaign, text: string): boolean {
  const words = text
    .trim()
    .toLowerCase()
    .split(/[\s,;]+/)
    .filter((w) => w !== '');
  return words.every((w) => [c.id, c.name, c.branding_text ?? ''].some((f) => f.toLowerCase().includes(w)));
}

let t: TestStore;
beforeAll(async () => {
  t = openTestStore();
  seed(t.store);
  const r = t.store.campaigns.beginRefresh(ACME);
  for (let i = 0; i < data.length; i += 5000) await r.applyPage(data.slice(i, i + 5000));
  await r.finish();
  // Another account holds the same words: its campaigns never show in ACME's lists.
  const other = t.store.campaigns.beginRefresh(GLOBEX);
  await other.applyPage(syntheticCampaigns(300, { seed: 7, firstId: 4_000_000 }).map((c) => ({ ...c, id: `g${c.id}` })));
  await other.finish();
  await indexesBuilt(t);
}, 120_000);
afterAll(() => t.cleanup());

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Counts the rows the window tests with instr() on `db`: an application function of the same name
 * replaces SQLite's own on that connection.
 */
function countInstr(db: Database.Database): { calls: number } {
  const counted = { calls: 0 };
  db.function('instr', { deterministic: true }, (text: unknown, word: unknown) => {
    counted.calls++;
    return String(text).indexOf(String(word)) + 1;
  });
  return counted;
}

/** Counts the statements run on `db` from now on that ask the text index for matches (MATCH). */
function askedOfIndex(db: Database.Database): () => number {
  let runs = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!sql.includes('MATCH')) return statement;
    for (const method of ['run', 'get', 'all', 'iterate'] as const) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        runs++;
        return original(...args);
      };
    }
    return statement;
  }) as typeof db.prepare;
  return () => runs;
}

async function check(text: string, extra: Omit<CampaignQuery, 'profileId' | 'accountId' | 'text'> = {}): Promise<void> {
  const statuses = extra.statuses;
  const expected = data.filter((c) => matches(c, text) && (!statuses || statuses.includes(String(c.status))));
  const all: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await t.store.campaigns.readWindow({ ...ACME, ...extra, text, limit: 1000, offset });
    expect(page.total, `${text} total`).toBe(expected.length);
    all.push(...page.rows.map((c) => c.id));
    if (page.rows.length < 1000) break;
  }
  expect([...all].sort(byId), text).toEqual(expected.map((c) => c.id).sort(byId));
  // Asked apart (what the grid does for a new search): the total counted on its own reader, and
  // the pages without it (the first and a later one) hold the same rows.
  expect(await t.store.campaigns.countWindow({ ...ACME, ...extra, text }), `${text} count`).toBe(expected.length);
  for (const offset of [0, 1000]) {
    const rows = (await t.store.campaigns.readRows({ ...ACME, ...extra, text, limit: 1000, offset })).rows.map((c) => c.id);
    expect(rows, `${text} rows from ${offset}`).toEqual(all.slice(offset, offset + 1000));
  }
  // In the sort's order: the sync path (the main thread's connection) reads the same pages.
  expect(all.slice(0, 1000), `${text} order`).toEqual(
    t.store.campaigns.query({ ...ACME, ...extra, text, limit: 1000 }).rows.map((c) => c.id),
  );
}

describe('search through the text index', () => {
  it('is built and kept by the cache writer', () => {
    const db = new Database(cacheFileOf(t.file), { readonly: true });
    try {
      expect(hasTextIndex(db)).toBe(true);
      // Every cached row of both accounts is in it, under its account's range of rowids.
      expect(db.prepare('SELECT count(*) FROM campaign_text_content').pluck().get()).toBe(data.length + 300);
    } finally {
      db.close();
    }
  });

  for (const text of [
    '400',
    '4000',
    '4001',
    'acme',
    'acme 4001',
    'ÜBERRASCHUNG',
    'äöü',
    'café',
    'cafe',
    '"this"',
    '12345',
    'zzzz',
    'acme 1',
    '40 ac',
    // Too short for the text index: the first page is looked for in the sort's first rows.
    '4',
    'c',
    '1 c',
    'é',
    'zq',
    // Held by a few campaigns (the index names them), at the text's end too, or by none.
    'x',
    'xm',
    'z',
    'iz',
    'zz',
    'q',
    '𝄞',
    '𝄞x',
    'f 𝄞',
    'j z',
    'x 4',
    '𝄞 4',
    'q m',
    'ş',
    'qx',
    // A word many rows hold beside short ones few hold with it.
    '400 q',
    '400 x',
    '400 a z',
  ]) {
    it(`finds "${text}" exactly as reading every row does`, async () => {
      await check(text);
    });
  }

  it('combines a common word with a status filter and another sort', async () => {
    await check('400', { statuses: ['PAUSED'], sort: { field: 'spent', direction: 'desc' } });
    await check('acme', { statuses: ['APPROVED', 'REJECTED'], sort: { field: 'start_date', direction: 'asc' } });
  });

  it("finds the first page of a common short word in the sort's first rows, and of a rarer one among every match", async () => {
    const db = new Database(cacheFileOf(t.file), { readonly: true });
    try {
      const window = createWindowQuery(db);
      const scratch = db.prepare('SELECT count(*) FROM temp.campaign_text_match').pluck();
      const first = (text: string) => {
        const parsed = parseCampaignQuery({ ...ACME, text, limit: 200 });
        const ids = window.rows(1, parsed).rows.map((c) => c.id);
        expect(ids, text).toEqual(t.store.campaigns.query({ ...ACME, text, limit: 200 }).rows.map((c) => c.id));
        return ids;
      };
      // Held by nearly every campaign: the page is full within its first rows, and the account's
      // rows are not all read into the scratch table.
      expect(first('4')).toHaveLength(200);
      expect(scratch.get()).toBe(0);
      // Held by 1% of them (three short words): the first 10,000 rows (50 pages) hold fewer than a
      // page, and not all of them, so the look goes on (or the index is asked), and the page holds
      // every match, not only those found among those rows.
      const sparse = data.filter((c) => matches(c, '88 k y')).length;
      expect(sparse).toBeGreaterThan(150);
      expect(sparse).toBeLessThan(200);
      expect(first('88 k y')).toHaveLength(sparse);
    } finally {
      db.close();
    }
  });

  it('finds a letter few campaigns hold through the index, without reading every row', async () => {
    const db = new Database(cacheFileOf(t.file), { readonly: true });
    try {
      const instr = countInstr(db);
      const window = createWindowQuery(db);
      const first = (text: string) => window.rows(1, parseCampaignQuery({ ...ACME, text, limit: 200 })).rows.map((c) => c.id);
      for (const [text, ids] of [
        ['q', ['ext-2', 'ext-3']],
        ['z', ['ext-3', 'ext-5']],
        ['𝄞', ['ext-4', 'ext-5']],
        ['ş', []],
      ] as const) {
        instr.calls = 0;
        expect(first(text).sort(byId), text).toEqual(ids);
        // The sort's first 10,000 rows were looked through for a first page (peekFirstPage), and
        // no more: reading every row would have tested all of them.
        expect(instr.calls, text).toBeLessThanOrEqual(10_000);
        instr.calls = 0;
        expect(window.count(1, parseCampaignQuery({ ...ACME, text })), text).toBe(ids.length);
        expect(instr.calls, `${text} counted`).toBe(0);
      }
      // A rare letter beside one held by more rows than the index is quicker for ("4", in every
      // id): the rare one's matches are looked up, the other tested on them. The first 10,000 rows
      // were looked through for both words (at most two tests a row); reading every row after them
      // would have tested 15,000 more.
      instr.calls = 0;
      expect(first('𝄞 4')).toEqual(['ext-4']);
      expect(instr.calls).toBeLessThanOrEqual(2 * 10_000 + 2);
      // A word 10,000 rows hold ("400": the grid walks the sort for it, testing rows) beside a
      // letter few hold: the sort's first rows are looked through for a page (1,000 for a page of
      // 20), then the index is asked. Walking on through the sort found no page and tested every
      // row of the account, each for one word or both (~25,000 tests).
      for (const text of ['400 q', '400 z', '400 𝄞']) {
        instr.calls = 0;
        const twenty = { ...ACME, text, limit: 20 };
        expect(
          window.rows(1, parseCampaignQuery(twenty)).rows.map((c) => c.id),
          text,
        ).toEqual(t.store.campaigns.query(twenty).rows.map((c) => c.id));
        expect(instr.calls, text).toBeLessThanOrEqual(2 * 1_000);
      }
      // Words few campaigns hold together are asked of the index once: the matches its capped
      // count found are the ones the page and the count read (asked twice, an intersection of words
      // many campaigns hold was most of a search's time).
      for (const text of ['12345', 'zzzz']) {
        const asked = askedOfIndex(db);
        const few = { ...ACME, text, limit: 20 };
        expect(
          window.rows(1, parseCampaignQuery(few)).rows.map((c) => c.id),
          text,
        ).toEqual(t.store.campaigns.query(few).rows.map((c) => c.id));
        expect(window.count(1, parseCampaignQuery(few)), text).toBe(data.filter((c) => matches(c, text)).length);
        expect(asked(), text).toBe(1);
      }
      // A letter most campaigns hold is still found in the sort's first rows.
      instr.calls = 0;
      expect(first('a')).toHaveLength(200);
      expect(instr.calls).toBeLessThan(1_000);
    } finally {
      db.close();
    }
  });

  it('finds short words that many campaigns hold each and few together through the index, without reading every row', () => {
    const db = new Database(cacheFileOf(t.file), { readonly: true });
    try {
      const instr = countInstr(db);
      // 100 rows count as many here (20,000 in the app, more than this cache holds): each of these
      // words is in more rows than that, and all three in fewer than a page's worth.
      const window = createWindowQuery(db, { shortWordRows: 100 });
      const text = '88 k y';
      const expected = data.filter((c) => matches(c, text)).map((c) => c.id);
      for (const word of text.split(' ')) expect(data.filter((c) => matches(c, word)).length, word).toBeGreaterThan(100);
      const parsed = parseCampaignQuery({ ...ACME, text, limit: 200 });
      expect(window.rows(1, parsed).rows.map((c) => c.id)).toEqual(
        t.store.campaigns.query({ ...ACME, text, limit: 200 }).rows.map((c) => c.id),
      );
      // The sort's first 10,000 rows were looked through for a first page (each tested for up to
      // three words), and no more: reading every row would have tested 5,000 more.
      expect(instr.calls).toBeLessThanOrEqual(3 * 10_000);
      instr.calls = 0;
      expect(window.count(1, parseCampaignQuery({ ...ACME, text }))).toBe(expected.length);
      expect(instr.calls).toBe(0);
      // Words many rows hold together are still counted by reading the rows, exactly.
      for (const common of ['4 e', 'e r']) {
        const n = data.filter((c) => matches(c, common)).length;
        expect(n, common).toBeGreaterThan(10_000);
        expect(window.count(1, parseCampaignQuery({ ...ACME, text: common })), common).toBe(n);
      }
    } finally {
      db.close();
    }
  });

  it('finds longer words many campaigns hold each by a trigram of each, and tests those rows for the words', () => {
    const db = new Database(cacheFileOf(t.file), { readonly: true });
    try {
      // 1,000 matches count as many here (10,000 in the app): each word of these texts is in more
      // rows than that, and in fewer together. "leads" is named by "lea", which "clearance" holds
      // too, "spring" by "spr", which "sprint" would: the rows the trigrams find are tested.
      const window = createWindowQuery(db, { commonMatches: 1_000 });
      for (const text of ['leads wonka', 'clearance leads', 'spring winter', 'summer café 4']) {
        const expected = data.filter((c) => matches(c, text)).map((c) => c.id);
        for (const word of text.split(' ').filter((w) => w.length >= 3))
          expect(data.filter((c) => matches(c, word)).length, word).toBeGreaterThan(1_000);
        expect(expected.length, text).toBeLessThan(1_000);
        const page = window.page(1, parseCampaignQuery({ ...ACME, text, limit: 1000 }));
        expect(page.total, text).toBe(expected.length);
        expect(page.rows.map((c) => c.id).sort(byId), text).toEqual([...expected].sort(byId));
        expect(window.count(1, parseCampaignQuery({ ...ACME, text })), text).toBe(expected.length);
        const first = window.rows(1, parseCampaignQuery({ ...ACME, text, limit: 20 })).rows.map((c) => c.id);
        expect(first, text).toEqual(t.store.campaigns.query({ ...ACME, text, limit: 20 }).rows.map((c) => c.id));
      }
    } finally {
      db.close();
    }
  });

  it('follows writes: a new campaign, a renamed one and a removed one', async () => {
    expect((await t.store.campaigns.readWindow({ ...ACME, text: 'marmalade' })).total).toBe(0);
    // A letter no campaign held: asked before the write, the index's terms for it were none.
    expect((await t.store.campaigns.readWindow({ ...ACME, text: 'ŵ' })).total).toBe(0);
    await t.store.campaigns.upsert(ACME, { id: '999001', name: 'Marmalade week', status: 'APPROVED' });
    await t.store.campaigns.upsert(ACME, { id: '999002', name: 'Ŵales week', status: 'APPROVED' });
    expect((await t.store.campaigns.readWindow({ ...ACME, text: 'marmalade' })).rows.map((c) => c.id)).toEqual(['999001']);
    expect((await t.store.campaigns.readRows({ ...ACME, text: 'ŵ', limit: 200, offset: 0 })).rows.map((c) => c.id)).toEqual(['999002']);
    expect(await t.store.campaigns.countWindow({ ...ACME, text: 'ŵ' })).toBe(1);
    await t.store.campaigns.upsert(ACME, { id: '999001', name: 'Jam week', status: 'APPROVED' });
    expect((await t.store.campaigns.readWindow({ ...ACME, text: 'marmalade' })).total).toBe(0);
    expect((await t.store.campaigns.readWindow({ ...ACME, text: 'jam week' })).rows.map((c) => c.id)).toEqual(['999001']);
    // A refresh that no longer lists it removes it.
    const r = t.store.campaigns.beginRefresh(ACME);
    for (let i = 0; i < data.length; i += 5000) await r.applyPage(data.slice(i, i + 5000));
    await r.finish();
    expect((await t.store.campaigns.readWindow({ ...ACME, text: 'jam week' })).total).toBe(0);
  }, 60_000);
});

describe('text index and a bulk load', () => {
  it('answers searches while the index is rebuilt after a first load, and the same after', async () => {
    const big = syntheticCampaigns(25_000, { seed: 11, firstId: 5_000_000 });
    const ref = { profileId: 'p1', accountId: 'initechads' };
    t.store.accounts.add({ ...ref, type: 'ADVERTISER', name: 'Initech' });
    const r = t.store.campaigns.beginRefresh(ref);
    for (let i = 0; i < big.length; i += 5000) await r.applyPage(big.slice(i, i + 5000));
    await r.finish();
    const expected = big.filter((c) => matches(c, 'wonka')).length;
    expect(expected).toBeGreaterThan(0);
    // Right after (the index may still be building): the rows are read.
    expect((await t.store.campaigns.readWindow({ ...ref, text: 'wonka' })).total).toBe(expected);
    const db = new Database(cacheFileOf(t.file), { readonly: true });
    try {
      await until(() => hasTextIndex(db), 'the text index built after the load');
    } finally {
      db.close();
    }
    expect((await t.store.campaigns.readWindow({ ...ref, text: 'wonka' })).total).toBe(expected);
    // ACME's rows are in the rebuilt index too.
    await check('acme');
  }, 120_000);
});
