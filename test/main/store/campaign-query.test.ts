import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SORTABLE_CAMPAIGN_FIELDS, type Campaign, type SortableCampaignField } from '../../../src/shared/domain/campaign';
import { idSortKey } from '../../../src/main/store/campaign-columns';
import {
  buildCampaignQuery,
  nextTerm,
  parseCampaignQuery,
  TEXT_MATCH_TABLE_SQL,
  type CampaignQuery,
} from '../../../src/main/store/campaign-query';
import { CAMPAIGN_INDEXES, cacheFileOf } from '../../../src/main/store/cache-file';
import { syntheticCampaigns } from '../../fixtures/campaigns';
import { ACME, GLOBEX, openTestStore, seed, type TestStore } from './helpers';

// A data set with the awkward cases: nulls in every nullable sortable column, names that differ
// only by case, non-ASCII text, ids that are not numbers and ids of different lengths.
function dataSet(): Campaign[] {
  const base = syntheticCampaigns(240, { seed: 3, firstId: 100, advertiserNames: true });
  const odd: Campaign[] = [
    { id: '9', name: 'apple', status: 'APPROVED', spent: 1 },
    { id: '10', name: 'Apple', status: 'APPROVED', spent: 1 },
    { id: '11', name: 'APPLE', status: null, spent: null, cpc: null, branding_text: null },
    { id: 'ext-7', name: 'Überraschung Café', status: 'ARCHIVED_BY_SERVICE', branding_text: 'ÄÖÜ brand' },
    { id: 'ext-10', name: 'zeta', advertiser_id: 'ZED', bid_strategy: 'SOMETHING_NEW' },
    { id: '123456789012', name: 'Big id', start_date: '2026-01-01T00:00:00Z' },
  ];
  return [...base, ...odd];
}

const NOCASE_FIELDS = new Set(['name', 'branding_text', 'advertiser_id', 'advertiser_name']);

/** SQLite's order: NULL first, NOCASE folds ASCII only, ties by the id key. */
function referenceSort(rows: Campaign[], field: SortableCampaignField, direction: 'asc' | 'desc'): string[] {
  const fold = (s: string) => s.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
  const cmpValue = (a: unknown, b: unknown, nocase: boolean): number => {
    if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
    if (b === null || b === undefined) return 1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    const x = nocase ? fold(String(a)) : String(a);
    const y = nocase ? fold(String(b)) : String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const cmpId = (a: Campaign, b: Campaign) => idSortKey(a.id) - idSortKey(b.id) || cmpValue(a.id, b.id, false);
  const sorted = [...rows].sort((a, b) => {
    if (field === 'id') return cmpId(a, b);
    const r = a as Record<string, unknown>;
    const s = b as Record<string, unknown>;
    return cmpValue(r[field], s[field], NOCASE_FIELDS.has(field)) || cmpId(a, b);
  });
  if (direction === 'desc') sorted.reverse();
  return sorted.map((c) => c.id);
}

/** The search box's meaning, written plainly: every word in some field, or one of the listed ids. */
function matchesText(c: Campaign, text: string): boolean {
  const tokens = text
    .trim()
    .toLowerCase()
    .split(/[\s,;]+/)
    .filter((w) => w !== '');
  if (tokens.length > 1 && tokens.every((w) => /^\d+$/.test(w))) return tokens.includes(c.id);
  return tokens.every((w) => [c.id, c.name, c.branding_text ?? ''].some((f) => f.toLowerCase().includes(w)));
}

let t: TestStore;
const data = dataSet();

beforeAll(async () => {
  t = openTestStore();
  seed(t.store);
  const r = t.store.campaigns.beginRefresh(ACME);
  await r.applyPage(data.slice(0, 100));
  await r.applyPage(data.slice(100));
  await r.finish();
  // Another account's campaigns must never leak into ACME's lists.
  const other = t.store.campaigns.beginRefresh(GLOBEX);
  await other.applyPage(syntheticCampaigns(50, { seed: 99, firstId: 100 }));
  await other.finish();
});
afterAll(() => t.cleanup());

const q = (x: Omit<CampaignQuery, 'profileId' | 'accountId'>) => t.store.campaigns.query({ ...ACME, limit: 1000, ...x });

describe('campaign query', () => {
  for (const field of SORTABLE_CAMPAIGN_FIELDS) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`sorts by ${field} ${direction} exactly like SQLite's documented order (nulls first ascending)`, () => {
        const page = q({ sort: { field, direction } });
        expect(page.total).toBe(data.length);
        expect(page.rows.map((c) => c.id)).toEqual(referenceSort(data, field, direction));
      });
    }
  }

  it('returns whole campaigns as received, unknown fields included', () => {
    const row = q({ text: 'ext-7' }).rows[0];
    expect(row).toEqual(data.find((c) => c.id === 'ext-7'));
    const withExtras = q({ sort: { field: 'id', direction: 'asc' }, limit: 1, offset: 10 }).rows[0];
    expect(withExtras).toHaveProperty('targeting');
    expect(withExtras).toEqual(data.find((c) => c.id === withExtras.id));
  });

  it('filters by a set of statuses and counts only those', () => {
    const page = q({ statuses: ['PAUSED', 'ARCHIVED_BY_SERVICE'], sort: { field: 'spent', direction: 'desc' } });
    const expected = referenceSort(
      data.filter((c) => c.status === 'PAUSED' || c.status === 'ARCHIVED_BY_SERVICE'),
      'spent',
      'desc',
    );
    expect(page.total).toBe(expected.length);
    expect(page.rows.map((c) => c.id)).toEqual(expected);
  });

  it('filters by text in id, name or branding, case-insensitively, including non-ASCII letters', () => {
    for (const text of ['apple', 'ÜBERRASCHUNG', 'äöü', ' spring ', '12345678', 'ext-', 'no such thing']) {
      const page = q({ text, sort: { field: 'name', direction: 'asc' } });
      const expected = referenceSort(
        data.filter((c) => matchesText(c, text)),
        'name',
        'asc',
      );
      expect(page.total, text).toBe(expected.length);
      expect(
        page.rows.map((c) => c.id),
        text,
      ).toEqual(expected);
    }
  });

  it('finds campaigns holding every word of a multi-word search, in any order and field', () => {
    const c = data.find((x) => x.branding_text && x.name.includes(' '))!;
    const first = c.name.split(' ')[0];
    const brand = c.branding_text!.split(' ')[0];
    for (const text of [`${brand} ${first}`, `${first.toUpperCase()}   ${brand}`]) {
      const expected = referenceSort(
        data.filter((x) => matchesText(x, text)),
        'name',
        'asc',
      );
      expect(expected, text).toContain(c.id);
      const page = q({ text, sort: { field: 'name', direction: 'asc' } });
      expect(
        page.rows.map((x) => x.id),
        text,
      ).toEqual(expected);
    }
  });

  it('finds exactly the campaigns of a pasted list of ids (commas, spaces or one per line)', () => {
    const numeric = data
      .filter((x) => /^\d+$/.test(x.id))
      .slice(0, 3)
      .map((x) => x.id);
    expect(numeric.length).toBe(3);
    for (const text of [numeric.join(', '), numeric.join('\n'), `${numeric.join(' ')} 999999999999`]) {
      const page = q({ text, sort: { field: 'id', direction: 'asc' } });
      expect(page.total, text).toBe(3);
      expect(new Set(page.rows.map((x) => x.id)), text).toEqual(new Set(numeric));
    }
  });

  it('does not match across two fields (name end + branding start)', () => {
    const c = data.find((x) => x.branding_text)!;
    const across = `${c.name.slice(-2)}${c.branding_text!.slice(0, 2)}`.toLowerCase();
    const expected = data.filter((x) => matchesText(x, across)).length;
    expect(q({ text: across }).total).toBe(expected);
  });

  it('combines text and status filters', () => {
    const page = q({ text: 'a', statuses: ['APPROVED'], sort: { field: 'start_date', direction: 'asc' } });
    const expected = referenceSort(
      data.filter((c) => c.status === 'APPROVED' && matchesText(c, 'a')),
      'start_date',
      'asc',
    );
    expect(page.total).toBe(expected.length);
    expect(page.rows.map((c) => c.id)).toEqual(expected);
  });

  it('pages with limit and offset: consecutive pages join up to the full list, without repeats', () => {
    for (const sort of [
      { field: 'cpc', direction: 'asc' },
      { field: 'status', direction: 'desc' },
    ] as const) {
      const all: string[] = [];
      for (let offset = 0; offset < data.length + 7; offset += 7) {
        const page = q({ sort, limit: 7, offset });
        expect(page.total).toBe(data.length);
        all.push(...page.rows.map((c) => c.id));
      }
      expect(all).toEqual(referenceSort(data, sort.field, sort.direction));
    }
  });

  it('keeps a text-filtered page current after the data changes (no stale match list)', async () => {
    expect(q({ text: 'brand-new-name' }).total).toBe(0);
    // Written by the cache writer (another connection): the reader sees the commit.
    await t.store.campaigns.upsert(ACME, { id: '999999', name: 'Brand-New-Name', status: 'APPROVED' });
    expect(q({ text: 'brand-new-name' }).rows.map((c) => c.id)).toEqual(['999999']);
  });

  it('refuses an unknown sort field or a page larger than 1000', () => {
    expect(() => q({ sort: { field: 'targeting' as SortableCampaignField, direction: 'asc' } })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => q({ limit: 1001 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('campaign query plans', () => {
  const shapes: Omit<CampaignQuery, 'profileId' | 'accountId' | 'sort'>[] = [
    {},
    { statuses: ['PAUSED'] },
    { statuses: ['PAUSED', 'APPROVED'] },
    { text: 'spring' },
    { text: 'spring', statuses: ['APPROVED'] },
    // Words too short for the text index: their first page is looked for in the sort's first rows.
    { text: 'sp' },
    { text: 'a 1', statuses: ['APPROVED'] },
  ];

  // The columns the campaign grid sorts by (src/renderer/features/campaigns/campaign-columns.tsx).
  const GRID_SORTS = [
    'name',
    'advertiser_name',
    'status',
    'spent',
    'cpc',
    'daily_cap',
    'spending_limit',
    'bid_strategy',
    'start_date',
    'id',
  ] as const;

  function plan(db: Database.Database, sql: string, params: unknown[]): string {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
  }

  it('walk an index in order for every sort the grid offers and every filter: no full scan, no temp b-tree for sorting', () => {
    const db = new Database(cacheFileOf(t.file), { readonly: true });
    // The campaigns table has its indexes from the start: right after ACME's (key 1) first load.
    const indexes = db
      .prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'campaigns' AND sql IS NOT NULL")
      .pluck();
    expect(indexes.get()).toBe(CAMPAIGN_INDEXES.length);
    db.exec(TEXT_MATCH_TABLE_SQL);
    try {
      for (const field of GRID_SORTS) {
        for (const direction of ['asc', 'desc'] as const) {
          for (const shape of shapes) {
            const built = buildCampaignQuery(1, parseCampaignQuery({ ...ACME, ...shape, sort: { field, direction } }));
            const page = plan(db, built.pageSql, built.pageParams);
            const label = `${field} ${direction} ${JSON.stringify(shape)}: ${page}`;
            expect(page, label).not.toMatch(/TEMP B-TREE/);
            // The account's range of an index (account_key leads each one) is walked in index
            // order (no temp b-tree), so it stops once the page is found.
            if (field === 'id') expect(page, label).toMatch(/^SEARCH campaigns USING PRIMARY KEY \(account_key=\?\)/);
            else
              expect(page, label).toMatch(new RegExp(`^SEARCH campaigns USING COVERING INDEX campaigns_by_${field} \\(account_key=\\?\\)`));
            const count = plan(db, built.countSql, built.countParams);
            // Counting reads the account's range of a narrow index (or the matches), never a whole table.
            expect(count, `count ${label}`).not.toMatch(/SCAN (campaigns|c)( \||$)/);
            if (built.peek) {
              // The first rows of the sort, read in index order as the words are tested (a
              // co-routine, not a table made first): the look stops once the page is full.
              const { params, words } = built.peek;
              const peek = plan(db, built.peek.sql, [...params, 10_000, ...words, 200]);
              expect(peek, `peek ${label}`).not.toMatch(/TEMP B-TREE|MATERIALIZE/);
              expect(peek, `peek ${label}`).toMatch(
                /^CO-ROUTINE \S+ \| SEARCH campaigns USING (INDEX campaigns_by_\w+|PRIMARY KEY) \(account_key=\?\)/,
              );
              expect(plan(db, built.peek.sizeSql, [...params, 10_000]), `peek size ${label}`).toMatch(
                /SEARCH campaigns USING [^|]*\(account_key=\?\)/,
              );
            }
            if (built.matchSql) {
              // The text is matched in the account's range of the table, not across every account's rows.
              expect(plan(db, built.matchSql, built.matchParams)).toContain('SEARCH campaigns USING PRIMARY KEY (account_key=?)');
            }
          }
        }
      }
    } finally {
      db.close();
    }
  });
});

describe('the text index term after another (nextTerm)', () => {
  it('is the next string of the same length in UTF-8 byte order, skipping surrogates, and none after U+10FFFF', () => {
    const utf8 = (s: string) => Buffer.from(s, 'utf8');
    for (const [term, next] of [
      ['spr', 'sps'],
      ['1\u0001\u0001', '1\u0001\u0002'],
      ['a\u{D7FF}', 'a\u{E000}'],
      ['𝄞x𝄞', '𝄞x\u{1D11F}'],
      ['ab\u{FFFF}', 'ab\u{10000}'],
    ] as const) {
      expect(nextTerm(term), term).toBe(next);
      expect(Buffer.compare(utf8(term), utf8(next)), term).toBe(-1);
      // Nothing of that length lies between: the term with its last code point one lower is the term.
      expect([...next].length).toBe([...term].length);
    }
    expect(nextTerm('s\u{10FFFF}')).toBeNull();
  });
});
