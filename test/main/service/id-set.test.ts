// The listing walk's set of ids read (id-set.ts) keeps plain integer ids as numbers to save
// memory at 1,000,000 campaigns: it must still tell every two different ids apart and give each
// back exactly as it was spelled, or a reading would count two campaigns as one (or one as two).
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../../src/main/service/id-set';

const spellings = [
  '123',
  '0123',
  '00123',
  '0',
  '00',
  '-123',
  '+123',
  '123.0',
  '1e3',
  '1000',
  ' 123',
  '123 ',
  'abc',
  '',
  '999999999999999',
  '9999999999999999',
  '9007199254740993',
  '9007199254740992',
  '٣',
  '１２３',
];

describe('the ids a reading has read', () => {
  it('tells every spelling apart and gives each back exactly as added', () => {
    const ids = new IdSet();
    for (const id of spellings) ids.add(id);
    expect(ids.size).toBe(spellings.length);
    expect([...ids].sort()).toEqual([...spellings].sort());
    for (const id of spellings) expect(ids.has(id)).toBe(true);
    for (const id of ['12', '1230', '0000', '-0', 'ABC']) expect(ids.has(id)).toBe(false);
  });

  it('counts an id read twice once, whichever way it is kept', () => {
    const ids = new IdSet();
    for (const id of ['7000001', '7000001', 'x-1', 'x-1', '0123', '0123']) ids.add(id);
    expect(ids.size).toBe(3);
  });

  it('agrees with a Set of strings over many random ids', () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const ids = new IdSet();
    const plain = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const r = next();
      const id = r % 7 === 0 ? `0${r % 1000}` : r % 11 === 0 ? `c${r % 500}` : String(r % 50_000);
      ids.add(id);
      plain.add(id);
    }
    expect(ids.size).toBe(plain.size);
    expect(new Set(ids)).toEqual(plain);
  });
});
