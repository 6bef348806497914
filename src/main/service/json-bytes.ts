// The bytes of JSON's structure (RFC 8259), for the readers that scan an answer as it arrives
// (listing-stream.ts for campaign listings, record-arrays.ts for task lists): defined once.
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

/** JSON's four whitespace bytes: space, line feed, carriage return, tab. */
export const isWhitespace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
