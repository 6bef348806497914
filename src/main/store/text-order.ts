// SQLite's text order, in JS: what an index on a text column gives, so that orders computed in
// memory (sort-orders.ts, name-ranks.ts) match the indexes row for row.
// - BINARY compares UTF-8 bytes, which is code point order. JS compares UTF-16 units, which agree
//   except that a surrogate (a code point above U+FFFF) must sort after every unit of U+E000-U+FFFF.
// - NOCASE folds ASCII letters only ("É" stays "É").
//
// Everything lives inside one function that uses nothing from outside its body, because
// name-ranks.ts sends this function to a worker thread as source text.

export interface TextOrder {
  /** Code point order of two strings (= SQLite BINARY on UTF-8). */
  compareCodePoints(a: string, b: string): number;
  /** The key NOCASE compares: ASCII letters lower-cased, nothing else changed. */
  foldAscii(s: string): string;
  /** True when `s` has units where UTF-16 order and code point order can disagree. */
  hasHighUnits(s: string): boolean;
  /**
   * Sorts `indices` (in place) by `keys[index]` in SQLite's BINARY order; `anyHigh` says whether
   * some key has high units (then the slower code point comparison is needed).
   */
  sortByKey(indices: number[], keys: readonly (string | null)[], anyHigh: boolean): void;
}

export function sqliteTextOrder(): TextOrder {
  // Anything but printable ASCII and common whitespace: the slower fold, still right.
  const NOT_ASCII = /[^ -~\t\n\r]/;
  const ASCII_UPPER = /[A-Z]/g;
  const HIGH_UNITS = /[\ud800-\uffff]/;
  const lowerAscii = (c: string) => String.fromCharCode(c.charCodeAt(0) + 32);

  function compareCodePoints(a: string, b: string): number {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x = a.charCodeAt(i);
      const y = b.charCodeAt(i);
      if (x === y) continue;
      if (x >= 0xd800 && y >= 0xd800) {
        const xs = x <= 0xdfff;
        const ys = y <= 0xdfff;
        if (xs !== ys) return xs ? 1 : -1;
      }
      return x - y;
    }
    return a.length - b.length;
  }

  return {
    compareCodePoints,
    // For pure ASCII text toLowerCase is the NOCASE fold, and much faster than a replace.
    foldAscii: (s) => (NOT_ASCII.test(s) ? s.replace(ASCII_UPPER, lowerAscii) : s.toLowerCase()),
    hasHighUnits: (s) => HIGH_UNITS.test(s),
    sortByKey(indices, keys, anyHigh) {
      if (anyHigh) indices.sort((x, y) => compareCodePoints(keys[x]!, keys[y]!));
      else indices.sort((x, y) => (keys[x]! < keys[y]! ? -1 : keys[x]! > keys[y]! ? 1 : 0));
    },
  };
}
