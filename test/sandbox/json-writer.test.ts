// The decimal_point writer must always produce valid JSON holding the same values as
// JSON.stringify, whatever the data (the HTTP behaviour is in variant-listing.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyAnswer } from '../../src/sandbox/json-writer';

const KEYS = new Set(['cpc', 'spent']);

describe('stringifyAnswer', () => {
  it('round-trips any JSON value to what JSON.stringify would give', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = stringifyAnswer(value, KEYS);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips objects whose decimal keys hold any number', () => {
    const record = fc.record({ cpc: fc.double(), spent: fc.oneof(fc.integer(), fc.double()), id: fc.integer(), name: fc.string() });
    fc.assert(
      fc.property(fc.array(record), (rows) => {
        expect(JSON.parse(stringifyAnswer({ results: rows }, KEYS))).toEqual(JSON.parse(JSON.stringify({ results: rows })));
      }),
    );
  });

  it('writes whole numbers under the keys with a point, and nothing else', () => {
    expect(stringifyAnswer({ id: 7, cpc: 3000, spent: -0, nested: [{ spent: 2, n: 2 }], s: '"spent":3' }, KEYS)).toBe(
      '{"id":7,"cpc":3000.0,"spent":0.0,"nested":[{"spent":2.0,"n":2}],"s":"\\"spent\\":3"}',
    );
    expect(stringifyAnswer({ cpc: 1e21, spent: 0.5, x: undefined, arr: [undefined] }, KEYS)).toBe('{"cpc":1e+21,"spent":0.5,"arr":[null]}');
  });
});
