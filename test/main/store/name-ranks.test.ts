// The names of a first load are ranked on a worker thread while the load writes (name-ranks.ts).
// Their ranks must be those SQLite's index on the name column gives: NOCASE folds ASCII letters
// only, text compares by code point, equal names share a rank.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createNameRanker } from '../../../src/main/store/name-ranks';
import { mulberry32 } from '../../../bench/campaign-data';

/** Ranks as SQLite gives them (0 for NULL), by row number. */
function sqliteRanks(names: readonly (string | null)[], collation: 'NOCASE' | 'BINARY'): number[] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE TABLE t (row INTEGER PRIMARY KEY, name TEXT COLLATE ${collation})`);
    const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
    db.transaction(() => names.forEach((n, row) => insert.run(row, n)))();
    const ranks = new Array<number>(names.length).fill(0);
    for (const r of db.prepare('SELECT row, DENSE_RANK() OVER (ORDER BY name) AS rank FROM t WHERE name IS NOT NULL').all() as {
      row: number;
      rank: number;
    }[])
      ranks[r.row] = r.rank;
    return ranks;
  } finally {
    db.close();
  }
}

function names(count: number, seed: number, awkward: readonly string[]): (string | null)[] {
  const rnd = mulberry32(seed);
  const words = ['Spring', 'spring', 'SPRING', 'Sale', 'Café', 'cafe', 'Überraschung', 'über', 'a_b', 'a-b', 'Z', 'z'];
  return Array.from({ length: count }, (_, i) => {
    if (i % 11 === 0) return null;
    if (i % 7 === 0) return awkward[Math.floor(rnd() * awkward.length)];
    return `${words[Math.floor(rnd() * words.length)]} ${Math.floor(rnd() * 500)}`;
  });
}

async function rank(list: readonly (string | null)[], nocase: boolean, worker: boolean) {
  const ranker = createNameRanker({ nocase, worker });
  // In the pages a load writes, so that batches and runs do not line up with them.
  for (const n of list) ranker.add(n);
  const result = await ranker.ranks();
  return { offThread: ranker.offThread, ranks: [...result.ranks], count: result.count };
}

const BMP_ONLY = ['', ' lead', 'Äpfel', 'äpfel', 'e\u0301t\u00e9', '\uff21 wide', 'APPLE', 'apple', 'Apple'];
// A surrogate pair sorts after U+E000-U+FFFF in code point order, before them in UTF-16 order.
const WITH_HIGH = [...BMP_ONLY, '😀 smile', '\ue000 private', '\uffee', '𝒜 script'];

describe('name ranks for the in-memory sort of a first load', () => {
  for (const worker of [true, false]) {
    const where = worker ? 'on a worker thread' : 'on this thread (when no worker can start)';

    it(`match SQLite's NOCASE index over several thousand names, ${where}`, async () => {
      const list = names(5000, 3, BMP_ONLY);
      const got = await rank(list, true, worker);
      expect(got.offThread).toBe(worker);
      const expected = sqliteRanks(list, 'NOCASE');
      expect(got.ranks).toEqual(expected);
      expect(got.count).toBe(Math.max(...expected) + 1);
      // Case variants share a rank, as they share a place in the index.
      expect(got.ranks[list.indexOf('APPLE')]).toBe(got.ranks[list.indexOf('apple')]);
    });

    it(`match code point order when names above U+FFFF arrive after runs were sorted, ${where}`, async () => {
      const list = [...names(3000, 4, BMP_ONLY), ...names(3000, 5, WITH_HIGH)];
      expect((await rank(list, true, worker)).ranks).toEqual(sqliteRanks(list, 'NOCASE'));
      expect((await rank(list, false, worker)).ranks).toEqual(sqliteRanks(list, 'BINARY'));
    });
  }

  it('give no ranks after the ranker is discarded (a load that stopped), and stop its worker', async () => {
    const ranker = createNameRanker({ nocase: true });
    ranker.add('Spring');
    ranker.discard();
    await expect(ranker.ranks()).rejects.toThrow(/discarded/);
  });
});
