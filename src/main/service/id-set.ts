// The ids a listing walk has read (campaigns-api.ts, walkListing), in less memory than a Set of
// their strings: a reading holds every id it read until it ends, so at 1,000,000 campaigns the
// walk kept 1,000,000 id strings, each one promoted out of the chunk it came in. An id spelled as
// a plain integer of up to 15 digits (no sign, no leading zero: how the service writes its ids)
// is kept as its number, which below 2^30 the set holds without an allocation of its own; any
// other id as its string. Only that one spelling becomes a number, so "0123" and "123" stay two
// ids, and iterating gives back each id exactly as it was added.

const ZERO = 0x30;
const NINE = 0x39;
/** 15 digits: every such integer is exact as a double. */
const MAX_DIGITS = 15;

/** Whether `id` is the canonical decimal spelling of an integer of up to 15 digits. */
function isPlainInteger(id: string): boolean {
  const n = id.length;
  if (n === 0 || n > MAX_DIGITS) return false;
  const first = id.charCodeAt(0);
  if (first === ZERO) return n === 1;
  for (let i = 0; i < n; i++) {
    const c = id.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

export class IdSet implements Iterable<string> {
  readonly #numbers = new Set<number>();
  readonly #texts = new Set<string>();

  add(id: string): this {
    if (isPlainInteger(id)) this.#numbers.add(Number(id));
    else this.#texts.add(id);
    return this;
  }

  has(id: string): boolean {
    return isPlainInteger(id) ? this.#numbers.has(Number(id)) : this.#texts.has(id);
  }

  get size(): number {
    return this.#numbers.size + this.#texts.size;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (const n of this.#numbers) yield String(n);
    yield* this.#texts;
  }
}
