import { describe, expect, it } from 'vitest';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { packedTransfer, packRows, unpackRows, type PackedRows } from '../../../../src/main/store/cache-writer/packed-rows';

/** What the worker receives: the message cloned by a real port, its arrays transferred. */
function crossed(p: PackedRows): PackedRows {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(p, packedTransfer(p));
  const got = receiveMessageOnPort(port2)?.message as PackedRows;
  port1.close();
  return got;
}

describe('rows packed for the cache writer', () => {
  it('arrive as the same values: any text, numbers exactly, null', () => {
    const rows = [
      [1, 7000001, '7000001', 'Spring sale', null, 0.30000000000000004, '', 'é ✓ 𝄞 emoji 🙂', -0, 2 ** 53 + 2],
      [1, 1e300, 'a\u0000b', 'quote " back \\ slash', 'line\nbreak', -1.5, 'x'.repeat(70_000), null, 0, 5e-324],
    ];
    const back = unpackRows(crossed(packRows(rows)));
    expect(back).toEqual(rows);
    expect(Object.is(back[0][8], -0)).toBe(true);
  });

  it('hand their arrays over instead of copying them', () => {
    const p = packRows([[1, 'a', null]]);
    crossed(p);
    expect(p.kinds.byteLength).toBe(0);
    expect(p.numbers.byteLength).toBe(0);
  });

  it('of no rows are no rows', () => {
    expect(unpackRows(crossed(packRows([])))).toEqual([]);
  });

  it('refuse a value that is not text, a finite number or null, saying which', () => {
    expect(() => packRows([[1, undefined]])).toThrow(/text, finite numbers and null, not undefined/);
    expect(() => packRows([[Number.NaN]])).toThrow(/not NaN/);
    expect(() => packRows([[Infinity]])).toThrow(/not Infinity/);
    expect(() => packRows([[{ a: 1 }]])).toThrow(/not object/);
    expect(() => packRows([[true]])).toThrow(/not boolean/);
    expect(() => packRows([[1, 2], [1]])).toThrow(/rows of 2 values and of 1/);
  });

  it('whose parts do not fit together are refused, not read wrongly', () => {
    const good = packRows([[1, 'ab', null]]);
    const cases: PackedRows[] = [
      { ...good, width: 2 },
      { ...good, text: 'abc' },
      { ...good, text: 'a' },
      { ...good, lengths: new Uint32Array(0) },
      { ...good, numbers: new Float64Array(0) },
      { ...good, numbers: new Float64Array([1, 2]) },
      { ...good, kinds: new Uint8Array([2, 1, 7]) },
    ];
    for (const p of cases) expect(() => unpackRows(p)).toThrow(TypeError);
    expect(unpackRows(good)).toEqual([[1, 'ab', null]]);
  });
});
