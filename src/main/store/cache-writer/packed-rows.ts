// How rows cross from the main thread to the cache writer's thread: each value's kind in one byte
// array, the numbers in a Float64Array, and every text value in one string with their lengths in a
// Uint32Array. The three arrays' memory is handed over (transferred), not copied, and the one
// string is copied whole; the worker cuts the texts out of it again.
//
// Why not JSON text: for the 100,000 rows of a first refresh, JSON.stringify cost the main thread
// ~200-350 ms and JSON.parse the worker ~200-300 ms, and cloning the text ~100 ms; packed, the
// same rows cost ~150-250 ms to pack, ~40 ms to clone and ~50-80 ms to unpack
// (docs/benchmarks.md, 2026-11-29 evening). Why not the value arrays themselves: structured-cloning
// them cost the worker ~185 ms to take apart and the main thread ~150 ms to put together.
//
// A row's values are text, finite numbers and null (SQLite's STRICT table checks each column's);
// anything else is refused when packed, so no value can change its meaning on the way.

import { z } from 'zod';

const NULL = 0;
const TEXT = 1;
const NUMBER = 2;

/** Rows as they cross (checked on arrival; unpackRows checks that the parts fit together). */
export const packedRowsSchema = z.object({
  /** Values per row. */
  width: z.number(),
  /** Each value's kind, row after row (NULL, TEXT or NUMBER). */
  kinds: z.instanceof(Uint8Array),
  /** The numbers, in order. */
  numbers: z.instanceof(Float64Array),
  /** The length of each text, in order. */
  lengths: z.instanceof(Uint32Array),
  /** Every text, in order, one after another. */
  text: z.string(),
});
export type PackedRows = z.infer<typeof packedRowsSchema>;

/** The arrays whose memory a message with these rows hands over (postMessage's transfer list). */
export const packedTransfer = (p: PackedRows): ArrayBuffer[] => [p.kinds.buffer, p.numbers.buffer, p.lengths.buffer];

/** Rows of equal width (positional values) packed for the worker. Throws on a value of another kind. */
export function packRows(rows: readonly (readonly unknown[])[]): PackedRows {
  const width = rows.length === 0 ? 0 : rows[0].length;
  const kinds = new Uint8Array(rows.length * width);
  const numbers = new Float64Array(rows.length * width);
  const lengths = new Uint32Array(rows.length * width);
  const texts: string[] = [];
  let k = 0;
  let n = 0;
  for (const row of rows) {
    if (row.length !== width) throw new TypeError(`rows of ${width} values and of ${row.length} cannot be packed together`);
    for (let j = 0; j < width; j++, k++) {
      const v = row[j];
      if (typeof v === 'string') {
        kinds[k] = TEXT;
        lengths[texts.length] = v.length;
        texts.push(v);
      } else if (typeof v === 'number' && Number.isFinite(v)) {
        kinds[k] = NUMBER;
        numbers[n++] = v;
      } else if (v !== null) {
        throw new TypeError(`a cached row holds text, finite numbers and null, not ${typeof v === 'number' ? v : typeof v}`);
      }
    }
  }
  return { width, kinds, numbers: numbers.subarray(0, n), lengths: lengths.subarray(0, texts.length), text: texts.join('') };
}

/** The rows again (each a new array), or a TypeError when the parts do not fit together. */
export function unpackRows(p: PackedRows): unknown[][] {
  const { width, kinds, numbers, lengths, text } = p;
  if (!Number.isInteger(width) || width < 0 || (width === 0 ? kinds.length !== 0 : kinds.length % width !== 0)) {
    throw new TypeError('packed rows whose values do not fill whole rows');
  }
  const rows: unknown[][] = new Array(width === 0 ? 0 : kinds.length / width);
  let k = 0;
  let n = 0;
  let t = 0;
  let at = 0;
  for (let r = 0; r < rows.length; r++) {
    const row: unknown[] = new Array(width);
    for (let j = 0; j < width; j++, k++) {
      const kind = kinds[k];
      if (kind === TEXT) {
        if (t >= lengths.length) throw new TypeError('packed rows with more texts than lengths');
        const end = at + lengths[t++];
        row[j] = text.slice(at, end);
        at = end;
      } else if (kind === NUMBER) {
        if (n >= numbers.length) throw new TypeError('packed rows with more numbers than were sent');
        row[j] = numbers[n++];
      } else if (kind === NULL) {
        row[j] = null;
      } else {
        throw new TypeError(`packed rows with a value of unknown kind ${kind}`);
      }
    }
    rows[r] = row;
  }
  if (at !== text.length || t !== lengths.length || n !== numbers.length) throw new TypeError('packed rows with values left over');
  return rows;
}
