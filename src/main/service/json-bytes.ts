// The bytes of JSON's structure (RFC 8259), for the readers that scan an answer as it arrives
// (listing-stream.ts for campaign listings, record-arrays.ts for task lists): defined once.
//
// One object, which the scanners take apart once when they load, rather than named exports: the
// scanners compare every byte of an answer with these, and where modules are loaded as CommonJS
// one at a time (tsx, vitest: the tests and the benchmarks) each use of a named import is a getter
// call; that cost 2 s of a 100,000-campaign refresh's 4.4 s.
export const JSON_BYTES = Object.freeze({
  QUOTE: 0x22,
  BACKSLASH: 0x5c,
  COMMA: 0x2c,
  COLON: 0x3a,
  OPEN_OBJECT: 0x7b,
  CLOSE_OBJECT: 0x7d,
  OPEN_ARRAY: 0x5b,
  CLOSE_ARRAY: 0x5d,
  /** JSON's four whitespace bytes: space, line feed, carriage return, tab. */
  isWhitespace: (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09,
});
