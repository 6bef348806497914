// The quick filter right after a first load reads the rows' search text from memory
// (search-text-chunks.ts): it must find exactly the rows SQL's instr() finds.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SearchTextChunks } from '../../../src/main/store/search-text-chunks';

function sqlMatches(texts: readonly unknown[], needle: string): number[] {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE t (row INTEGER PRIMARY KEY, search TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    db.transaction(() => texts.forEach((s, row) => insert.run(row, typeof s === 'string' ? s : null)))();
    return db.prepare('SELECT row FROM t WHERE instr(search, ?) > 0 ORDER BY row').pluck().all(needle) as number[];
  } finally {
    db.close();
  }
}

function memoryMatches(chunks: SearchTextChunks, needle: string): number[] {
  const rows: number[] = [];
  expect(chunks.match(needle, (row) => rows.push(row))).toBe(true);
  return rows;
}

describe('search text of a first load held in memory', () => {
  // Over 2,000 rows: several chunks, and rows whose text ends one chunk and begins the next.
  const texts: unknown[] = Array.from({ length: 2500 }, (_, i) =>
    i % 97 === 0 ? null : `${4_000_000 + i}\u0001spring sale ${i % 13}\u0001${i % 5 === 0 ? 'acme spring' : 'globex'}`,
  );
  texts[1023] = 'ends with spri';
  texts[1024] = 'ng, begins the next chunk';
  texts[700] = 'ends with spri';
  texts[701] = 'ng inside one chunk';
  texts[1500] = '😀 émoji';
  const chunks = new SearchTextChunks();
  for (const t of texts) chunks.add(t);

  it('finds the rows instr() finds, each once, never across two rows', () => {
    for (const needle of ['spring', 'acme spring', '4001', 'sale 12', '\u0001globex', 'spring', 'spri', 'ng, begins', '😀', 'é', 'no such text']) {
      expect(memoryMatches(chunks, needle), needle).toEqual(sqlMatches(texts, needle));
    }
    // A row with the needle twice is still one row.
    expect(memoryMatches(chunks, 'spring').filter((r) => r === 5)).toEqual([5]);
    // The end of one row and the start of the next are not one text.
    expect(memoryMatches(chunks, 'spring, begins')).toEqual([]);
    expect(memoryMatches(chunks, 'spring inside')).toEqual([]);
  });

  it('declines a needle holding its row separator, so the caller asks SQL', () => {
    expect(chunks.match('a\u0000b', () => {})).toBe(false);
  });
});
