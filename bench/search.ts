// Search as you type at scale (issue #29): N bench campaigns written straight into a cache file
// (rows first, then the sort indexes, as a first refresh's bulk load does), the text index built
// as the cache writer builds it after such a load (timed on its own), then a new search text asked
// of the window's query both ways on the same file in the same run: the old way (every row of the
// account read for the text: createWindowQuery with textIndex false; the page and its total in one
// read) and the new way, as the grid asks it: the first page (200 rows, sorted by name) without its
// total, and the total counted apart on another connection (the app's second reader), each timed
// on its own, for a text not asked before; the bar is the rows. The load average is beside
// it, since the machine is shared.
// Run: npx tsx bench/search.ts [sizes...]   (default 100000 1000000)
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchCampaign } from './bench-campaigns';
import { buildTextIndex, CAMPAIGN_INDEXES, cachePragmas, indexSql, prepareCacheFile, textRowidRange } from '../src/main/store/cache-file';
import { CAMPAIGN_KEY_COLUMNS, CAMPAIGN_WRITE_COLUMNS, campaignRowValues } from '../src/main/store/campaign-columns';
import { createWindowQuery, parseCampaignQuery } from '../src/main/store/campaign-query';
import { rowStatements, writeRows } from '../src/main/store/row-writer';
import type { Campaign } from '../src/shared/domain/campaign';

const ACCOUNT_KEY = 1;

/** Texts a person types, from common to absent (matches at 100,000 in brackets). */
export const SEARCH_TEXTS = [
  'campaign', // every campaign (100,000)
  'summer', // a quarter (25,000)
  'sale 99', // two words (4,672)
  'brand 42', // a word too short for the index beside a common one (6,039)
  '4217', // rare (31)
  '7012345', // one id (1)
  'nothing like it', // none
  // The first keystrokes of a search: words too short for the text index.
  's', // one letter every campaign holds (100,000)
  '42', // two digits, in ids, names and brands (6,039)
  'j', // one letter a few hold (RARE_CAMPAIGNS)
  'zz', // two letters a few hold, at the end of their names
  'x', // one letter none holds
  'j 1', // a letter a few hold beside a digit most do
  'sp wi', // two seasons: each a quarter hold, none both
  'spring wi', // a season and the first letters of another
  'spring winter', // two seasons, whole
  'sale 99 spring', // three words, together in fewer than 1% (sparse among the first names)
];

/** Campaigns beside the bench's own, holding letters none of those do: a word few campaigns hold. */
export const RARE_CAMPAIGNS = 12;

interface Built {
  file: string;
  rowsMs: number;
  sortIndexesMs: number;
  textIndexMs: number;
}

export function buildCache(dir: string, n: number): Built {
  const file = join(dir, 'campaigns.sqlite');
  prepareCacheFile(file, null);
  const db = new Database(file);
  cachePragmas(db, 'writer');
  db.pragma('synchronous = OFF');
  let serial = textRowidRange(ACCOUNT_KEY)[0];
  const rows = rowStatements(db, {
    table: 'campaigns',
    key: CAMPAIGN_KEY_COLUMNS,
    columns: CAMPAIGN_WRITE_COLUMNS,
    serial: { column: 'text_rowid', next: () => ++serial },
  });
  for (const [suffix] of CAMPAIGN_INDEXES) db.exec(`DROP INDEX IF EXISTS campaigns_by_${suffix}`);
  const t0 = performance.now();
  db.transaction(() => {
    let batch: unknown[][] = [];
    for (let i = 0; i < n; i++) {
      const { account_id: _account, created_at: _created, ...c } = benchCampaign('bigshop', i) as Record<string, unknown>;
      batch.push(campaignRowValues(ACCOUNT_KEY, { ...c, id: String(c.id) } as Campaign));
      if (batch.length === 10_000) {
        writeRows(rows, batch, { mostlyNew: true });
        batch = [];
      }
    }
    for (let k = 1; k <= RARE_CAMPAIGNS; k++)
      batch.push(campaignRowValues(ACCOUNT_KEY, { id: `rare-${k}`, name: `Night ${k} of jazz`, status: 'APPROVED' }));
    writeRows(rows, batch, { mostlyNew: true });
  })();
  const t1 = performance.now();
  db.transaction(() => {
    for (const [suffix, cols] of CAMPAIGN_INDEXES) db.exec(indexSql(suffix, cols));
  })();
  const t2 = performance.now();
  buildTextIndex(db);
  const t3 = performance.now();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { file, rowsMs: t1 - t0, sortIndexesMs: t2 - t1, textIndexMs: t3 - t2 };
}

export interface SearchTiming {
  text: string;
  total: number;
  /** The old way: the page and its total, every row of the account read for the text. */
  oldMs: number;
  /** The new way's first page without its total (what the grid shows first). */
  rowsMs: number;
  /** The new way's total, counted on a connection of its own (the app's second reader). */
  totalMs: number;
  load: number;
}

/**
 * Each text once per way and round, on connections of their own (the old way's; the new way's
 * pages and its counts apart, as the app's two readers); the best of `rounds` (every round's text
 * is new to its connection: asked once).
 */
function timeSearches(file: string, rounds: number): SearchTiming[] {
  const out = new Map<string, SearchTiming>();
  const open = (textIndex: boolean, role: 'reader' | 'counter') => {
    const db = new Database(file, { readonly: true });
    cachePragmas(db, role);
    return { db, query: createWindowQuery(db, { textIndex }) };
  };
  const parsed = (text: string) => parseCampaignQuery({ profileId: 'bench', accountId: 'bigshop', text, limit: 200, offset: 0 });
  const timed = <T>(fn: () => T): { ms: number; value: T } => {
    const start = performance.now();
    const value = fn();
    return { ms: performance.now() - start, value };
  };
  for (let r = 0; r < rounds; r++) {
    const old = open(false, 'reader');
    const pages = open(true, 'reader');
    const counts = open(true, 'counter');
    // The connections' page caches warmed alike: a first page without a text, and its total.
    for (const c of [old, pages, counts]) c.query.page(ACCOUNT_KEY, parsed(''));
    for (const text of SEARCH_TEXTS) {
      const before = timed(() => old.query.page(ACCOUNT_KEY, parsed(text)));
      const rows = timed(() => pages.query.rows(ACCOUNT_KEY, parsed(text)));
      const total = timed(() => counts.query.count(ACCOUNT_KEY, parsed(text)));
      if (before.value.total !== total.value) throw new Error(`"${text}": ${before.value.total} the old way, ${total.value} counted`);
      const firstRows = before.value.rows.map((c) => c.id).join();
      if (rows.value.rows.map((c) => c.id).join() !== firstRows) throw new Error(`"${text}": the first page differs between the ways`);
      const prev = out.get(text);
      out.set(text, {
        text,
        total: total.value,
        oldMs: Math.min(prev?.oldMs ?? Infinity, before.ms),
        rowsMs: Math.min(prev?.rowsMs ?? Infinity, rows.ms),
        totalMs: Math.min(prev?.totalMs ?? Infinity, total.ms),
        load: Math.max(prev?.load ?? 0, loadavg()[0]),
      });
    }
    for (const c of [old, pages, counts]) c.db.close();
  }
  return [...out.values()];
}

export function searchMarkdown(n: number, built: Built, timings: SearchTiming[]): string {
  const lines = [
    `At ${n.toLocaleString('en-US')} campaigns: rows ${(built.rowsMs / 1000).toFixed(1)} s, sort indexes ${(built.sortIndexesMs / 1000).toFixed(1)} s, text index ${(built.textIndexMs / 1000).toFixed(1)} s.`,
    '',
    '| text | matches | old: page and total, rows read | new: first page (rows) | new: total (apart) | load (1 min) |',
    '|---|---:|---:|---:|---:|---:|',
    ...timings.map(
      (t) =>
        `| "${t.text}" | ${t.total.toLocaleString('en-US')} | ${t.oldMs.toFixed(0)} ms | ${t.rowsMs.toFixed(0)} ms | ${t.totalMs.toFixed(0)} ms | ${t.load.toFixed(1)} |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  for (const n of sizes.length > 0 ? sizes : [100_000, 1_000_000]) {
    const dir = mkdtempSync(join(tmpdir(), 'desk-search-'));
    try {
      const built = buildCache(dir, n);
      console.log(searchMarkdown(n, built, timeSearches(built.file, 3)));
      console.log('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (process.argv[1]?.endsWith('search.ts')) void main();
