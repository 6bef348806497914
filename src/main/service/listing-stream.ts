// Reads the unpaged campaign listing (`{"results": [...], "metadata": {...}}`, ~52 MB for 100,000
// campaigns) as its chunks arrive, in bounded memory. A JavaScript JSON tokenizer
// (@streamparser/json) cost ~1.3 s of a 5.4-5.9 s first refresh in a CPU profile (alone, ~4 s for
// the 52 MB body in 64 KB chunks), while native JSON.parse reads the same body in 0.4-0.8 s. So
// this module does not tokenize: a byte scan that follows only strings (with their escapes) and
// bracket depth finds where each element of the top-level `results` array ends, and each chunk's
// complete elements go to one native JSON.parse (~120 campaigns a call: ~155 ms for 100,000
// campaigns against ~200 ms at one call each). Measured on that body: the scan and UTF-8 decoding
// ~130 ms, JSON.parse ~200 ms; in the app's refresh profile this module now takes ~0.36 s. Every
// value is parsed by JSON.parse alone (the scan only cuts), so what is accepted and what it means
// stays exactly JSON's, except that an integer beyond 2^53 (an id a service wrote as a number) is
// handed over as its exact digits (lossless-json.ts: one regular-expression test per batch when none can be there).
// Memory holds the unfinished last element of a chunk, never the whole body.
//
// Liberal like the rest of the client: top-level keys in any order, unknown top-level keys of any
// type skipped (arrays and objects are checked piece by piece, so a big one is not held whole),
// any JSON whitespace, an empty `results` written as null or left out. Anything that is not one
// JSON object with a `metadata` key and at most one `results` array fails with
// UnreadableListingError. Cuts fall on ASCII bytes (`,` `]` `}` `"`) and pieces are decoded only
// once complete, so a UTF-8 character split between two chunks is decoded whole.

/**
 * The largest record (a campaign, a task) read from a streamed answer. A campaign is about half a
 * kilobyte and a task less; even one with a large targeting object is far below this. A larger
 * one is not data the interface makes plausible (one 1.5 GB element once took the app to 1.7 GB):
 * the answer is refused, in words, before it is held.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

export const recordTooLarge = (): string =>
  `one record in it is larger than ${MAX_RECORD_BYTES / (1024 * 1024)} MB, which no campaign or task is`;

/** The listing is not a JSON object with a `results` array and a `metadata` key. */
export class UnreadableListingError extends Error {
  constructor(reason: string) {
    super(`The campaign listing could not be read: ${reason}.`);
    this.name = 'UnreadableListingError';
  }
}

/** A record beyond MAX_RECORD_BYTES: said to the person as it is (the answer is not data at all). */
export class RecordTooLargeError extends UnreadableListingError {
  constructor() {
    super(recordTooLarge());
  }
}

import { BIG_INTEGER_DIGITS, parseJsonLossless } from './lossless-json';
import { JSON_BYTES } from './json-bytes';

// Bound once here: these are read for every byte of an answer.
const { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isWhitespace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = JSON_BYTES;
const ZERO = 0x30;
const NINE = 0x39;
// What a number's fraction or exponent digits follow.
const DOT = 0x2e;
const PLUS = 0x2b;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** A digit run after DOT, PLUS or an E starts here: it never reaches BIG_INTEGER_DIGITS (and stays a small integer). */
const NOT_INTEGER_DIGITS = -0x3fffffff;

/** What one chunk completed. */
export interface ListingPart {
  /** Elements of `results` completed by this chunk, in order, as parseJsonLossless gives them (none with `raw`). */
  results: unknown[];
  /**
   * With the `raw` option: the bytes of each element of `results` completed by this chunk, in
   * order, whitespace around it included, not parsed (none is blank: that fails as before).
   */
  raw: Buffer[];
  /** The `metadata` value, when this chunk completed it (boxed: `null` is a value too). */
  metadata: { value: unknown } | null;
  /**
   * With `raw`: the results so far held BIG_INTEGER_DIGITS digits in a row outside their strings
   * somewhere (once true, true for the rest of the listing), which parseJsonLossless needs to know
   * of its `raw` elements; while false, none of them holds an integer beyond 2^53.
   */
  longDigitRun: boolean;
}

const onlyWhitespace = /^[ \t\n\r]*$/;
/** The first byte of `null`. */
const NULL_START = 0x6e;

/** Where the reader is in the top-level object. */
type Place =
  | 'beforeDocument' // expects `{`
  | 'firstKey' // expects a key or `}`
  | 'nextKey' // after `,`: expects a key
  | 'key' // inside a key's string
  | 'colon' // expects `:`
  | 'beforeValue' // expects a member's value
  | 'value' // inside a member's value
  | 'afterValue' // expects `,` or `}`
  | 'afterDocument'; // only whitespace may follow

/**
 * How the current member's value is read: `cut` parses an array's or object's children in
 * batches (the results are kept, an unknown key's are only checked), `whole` keeps every byte and
 * parses once at the end (metadata, and unknown strings and scalars).
 */
type ValueMode = 'cut' | 'whole';

export class ListingStreamParser {
  private place: Place = 'beforeDocument';
  private failed = false;
  /** Bytes of the unfinished piece (key, value or batch of children) from earlier chunks. */
  private held: Buffer[] = [];

  private key = '';
  private sawResults = false;
  private sawMetadata = false;

  private mode: ValueMode = 'whole';
  /** The current value's first byte: `{`, `[`, `"`, or the first byte of a number or literal. */
  private opener = 0;
  /** The current value is the results array (its children are handed out). */
  private isResults = false;
  private isMetadata = false;
  /** Children of the current `cut` container parsed so far (a lone trailing comma is an error). */
  private children = 0;

  // Scan state, carried across chunks.
  /** A first chunk was read (a byte order mark is looked for only there). */
  private started = false;
  private depth = 0;
  private inString = false;
  /** The previous chunk ended on an odd run of backslashes inside a string. */
  private escaped = false;
  /** Position of the last comma between the current container's children seen by skipContainer, or -1. */
  private lastComma = -1;
  /** Every such comma of the last skipContainer call, when the results' elements are handed out raw. */
  private commas: number[] | null = null;
  /** Digits in a row outside strings up to the last byte scanned (carried across chunks). */
  private digitRun = 0;
  /** A run of BIG_INTEGER_DIGITS digits was seen outside strings (ListingPart.longDigitRun). */
  private longDigitRun = false;

  /**
   * `raw`: the results' elements are handed out as their bytes (ListingPart.raw) for the caller to
   * parse, or to recognise by digest without parsing (record-digest.ts).
   */
  constructor(private readonly opts: { raw?: boolean } = {}) {}

  /** Reads one chunk; returns what it completed. Throws UnreadableListingError. */
  write(chunk: Uint8Array): ListingPart {
    if (this.failed) throw new UnreadableListingError('it was already found unreadable');
    const whole = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const buf = this.started ? whole : skipByteOrderMark(whole);
    this.started = true;
    const part: ListingPart = { results: [], raw: [], metadata: null, longDigitRun: false };
    try {
      this.read(buf, part);
      part.longDigitRun = this.longDigitRun;
      if (this.heldBytes > MAX_RECORD_BYTES) throw new RecordTooLargeError();
    } catch (e) {
      this.failed = true;
      if (e instanceof SyntaxError) throw new UnreadableListingError(`it is not valid JSON (${e.message})`);
      throw e;
    }
    return part;
  }

  /** Bytes kept from earlier chunks (the unfinished piece): bounded by one element, not the body. */
  get heldBytes(): number {
    let n = 0;
    for (const b of this.held) n += b.length;
    return n;
  }

  /** The body has ended: throws unless it was one whole listing. */
  end(): void {
    if (this.failed) throw new UnreadableListingError('it was already found unreadable');
    if (this.place !== 'afterDocument') throw new UnreadableListingError('it ended before its last closing brace (cut short)');
    // No results at all is an empty listing with its empty array left out (DECISIONS client 17); the
    // metadata says how many there are, so a listing that left out rows it counts is not taken whole.
    if (!this.sawMetadata) throw new UnreadableListingError('it has no "metadata"');
  }

  private read(buf: Buffer, part: ListingPart): void {
    let i = 0;
    const len = buf.length;
    while (i < len) {
      if (this.place === 'value') {
        i = this.readValue(buf, i, part);
        continue;
      }
      if (this.place === 'key') {
        i = this.readKey(buf, i);
        continue;
      }
      const b = buf[i];
      if (isWhitespace(b)) {
        i++;
        continue;
      }
      switch (this.place) {
        case 'beforeDocument':
          if (b !== OPEN_OBJECT) throw new UnreadableListingError('it is not a JSON object');
          this.place = 'firstKey';
          break;
        case 'firstKey':
        case 'nextKey':
          if (b === QUOTE) this.place = 'key';
          else if (b === CLOSE_OBJECT && this.place === 'firstKey') this.place = 'afterDocument';
          else throw new UnreadableListingError('a key was expected in the top-level object');
          break;
        case 'colon':
          if (b !== COLON) throw new UnreadableListingError('a ":" was expected after a top-level key');
          this.place = 'beforeValue';
          break;
        case 'beforeValue':
          this.startValue(b);
          // The opener is part of a `whole` value's text; a `cut` container's children start after it.
          if (this.mode === 'whole') continue;
          break;
        case 'afterValue':
          if (b === COMMA) this.place = 'nextKey';
          else if (b === CLOSE_OBJECT) this.place = 'afterDocument';
          else throw new UnreadableListingError('a "," or "}" was expected after a top-level value');
          break;
        case 'afterDocument':
          throw new UnreadableListingError('something follows the top-level object');
      }
      i++;
    }
  }

  /** Reads a key's string from `i` (after its opening quote); returns where reading goes on. */
  private readKey(buf: Buffer, i: number): number {
    const end = this.skipString(buf, i);
    if (end === -1) {
      this.held.push(buf.subarray(i));
      return buf.length;
    }
    this.key = JSON.parse(`"${this.take(buf, i, end)}`) as string;
    this.place = 'colon';
    return end;
  }

  private startValue(b: number): void {
    this.opener = b;
    this.isResults = this.key === 'results';
    this.isMetadata = this.key === 'metadata';
    if (this.isResults) {
      // Two `results` would leave it open which one is the listing.
      if (this.sawResults) throw new UnreadableListingError('it has "results" twice');
      // `null` is an empty listing written as a service may write an empty array (DECISIONS client 17);
      // it is read whole and checked to be exactly null in readValue.
      if (b !== OPEN_ARRAY && b !== NULL_START) throw new UnreadableListingError('its "results" is not an array');
      this.sawResults = true;
    }
    // A repeated metadata counts as JSON.parse counts it: the last one.
    if (this.isMetadata) this.sawMetadata = true;
    const container = b === OPEN_ARRAY || b === OPEN_OBJECT;
    this.mode = container && !this.isMetadata ? 'cut' : 'whole';
    this.commas = this.isResults && this.opts.raw === true && b === OPEN_ARRAY ? [] : null;
    this.depth = container && this.mode === 'cut' ? 1 : 0;
    this.inString = false;
    this.escaped = false;
    this.children = 0;
    this.place = 'value';
  }

  /** Reads the current member's value from `i`; returns where reading goes on. */
  private readValue(buf: Buffer, i: number, part: ListingPart): number {
    if (this.mode === 'cut') return this.readCut(buf, i, part);
    const end =
      this.opener === OPEN_ARRAY || this.opener === OPEN_OBJECT
        ? this.skipContainer(buf, i)
        : this.opener === QUOTE
          ? this.skipWholeString(buf, i)
          : this.skipScalar(buf, i);
    if (end === -1) {
      this.held.push(buf.subarray(i));
      return buf.length;
    }
    const value = parseJsonLossless(this.take(buf, i, end));
    if (this.isMetadata) part.metadata = { value };
    if (this.isResults && value !== null) throw new UnreadableListingError('its "results" is not an array');
    this.place = 'afterValue';
    return end;
  }

  /**
   * A container whose children are parsed in batches: each chunk's complete children in one
   * JSON.parse, so a 52 MB results array costs a few hundred calls, not 100,000.
   */
  private readCut(buf: Buffer, i: number, part: ListingPart): number {
    const close = this.skipContainer(buf, i);
    if (this.commas !== null) return this.readRawResults(buf, i, close, part);
    if (close === -1) {
      const cut = this.lastComma;
      if (cut === -1) {
        this.held.push(buf.subarray(i));
      } else {
        this.parseChildren(this.take(buf, i, cut), part);
        this.held.push(buf.subarray(cut + 1));
      }
      return buf.length;
    }
    const closer = buf[close];
    if (closer !== (this.opener === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT)) throw new UnreadableListingError('its brackets do not match');
    const rest = this.take(buf, i, close);
    if (onlyWhitespace.test(rest)) {
      // `[]` is an empty array; `[1,]` ends on a comma, which JSON does not allow.
      if (this.children > 0) throw new UnreadableListingError('a list ends with a comma');
    } else {
      this.parseChildren(rest, part);
    }
    this.place = 'afterValue';
    return close + 1;
  }

  /**
   * readCut for the results when they are handed out raw: each element's bytes are cut at the
   * commas skipContainer saw between them (the held bytes never hold one: they are what followed
   * the last comma of an earlier chunk), so no element is decoded or parsed here.
   */
  private readRawResults(buf: Buffer, i: number, close: number, part: ListingPart): number {
    const commas = this.commas!;
    const end = close === -1 ? this.lastComma : close;
    let from = i;
    for (const comma of commas) {
      if (comma > end) break;
      this.pushRaw(this.takeBytes(buf, from, comma), part, 'a list has an empty item');
      from = comma + 1;
    }
    if (close === -1) {
      this.held.push(buf.subarray(from));
      return buf.length;
    }
    if (buf[close] !== CLOSE_ARRAY) throw new UnreadableListingError('its brackets do not match');
    const last = this.takeBytes(buf, from, close);
    // `[]` is an empty array; `[1,]` ends on a comma, which JSON does not allow.
    if (this.children > 0 || !isBlank(last)) this.pushRaw(last, part, 'a list ends with a comma');
    this.place = 'afterValue';
    return close + 1;
  }

  private pushRaw(element: Buffer, part: ListingPart, blank: string): void {
    if (isBlank(element)) throw new UnreadableListingError(blank);
    this.children++;
    part.raw.push(element);
  }

  /** The held bytes and buf[from, to), and nothing held any more. */
  private takeBytes(buf: Buffer, from: number, to: number): Buffer {
    if (this.held.length === 0) return buf.subarray(from, to);
    this.held.push(buf.subarray(from, to));
    const bytes = Buffer.concat(this.held);
    this.held = [];
    return bytes;
  }

  private parseChildren(text: string, part: ListingPart): void {
    // `[1, ,2]`: JSON.parse would read the empty batch between the commas as no children at all.
    if (onlyWhitespace.test(text)) throw new UnreadableListingError('a list has an empty item');
    if (this.opener === OPEN_ARRAY) {
      const items = parseJsonLossless(`[${text}]`) as unknown[];
      this.children += items.length;
      if (this.isResults) for (const item of items) part.results.push(item);
    } else {
      // An unknown key's object: checked, not kept.
      JSON.parse(`{${text}}`);
      this.children++;
    }
  }

  /** The held bytes and buf[from, to) as text, and nothing held any more. */
  private take(buf: Buffer, from: number, to: number): string {
    if (this.held.length === 0) return buf.toString('utf8', from, to);
    this.held.push(buf.subarray(from, to));
    const text = Buffer.concat(this.held).toString('utf8');
    this.held = [];
    return text;
  }

  /**
   * Scans a container from `i` (depth counts its own bracket) to its closing bracket: returns the
   * position after it (or of it, for a `cut` container, whose closing bracket is not part of the
   * children's text), or -1 when the chunk ends first.
   */
  private skipContainer(buf: Buffer, i: number): number {
    const len = buf.length;
    let depth = this.depth;
    let lastComma = -1;
    const commas = this.commas;
    if (commas !== null) commas.length = 0;
    // A `whole` container starts at its own opening bracket, which counts 1 when it is scanned.
    const cutting = this.mode === 'cut';
    let digits = this.digitRun;
    while (i < len) {
      if (this.inString) {
        const end = this.skipString(buf, i);
        if (end === -1) break;
        i = end;
        digits = 0;
        continue;
      }
      const b = buf[i];
      // Digits outside strings: parts of numbers, whose longest run tells whether any can be beyond
      // 2^53. Only an integer part's digits count: a fraction's or an exponent's run (a price of
      // 0.30000000000000004) never is one, and sent every chunk of such a listing through the
      // lossless reader's regular-expression search for nothing (~90 ms per 100,000 campaigns).
      if (b >= ZERO && b <= NINE) {
        if (++digits >= BIG_INTEGER_DIGITS) this.longDigitRun = true;
        i++;
        continue;
      }
      digits = b === DOT || b === PLUS || b === LOWER_E || b === UPPER_E ? NOT_INTEGER_DIGITS : 0;
      if (b === QUOTE) {
        // Most strings end in the same chunk without escapes: found by indexOf alone.
        const quote = buf.indexOf(QUOTE, i + 1);
        if (quote !== -1 && buf[quote - 1] !== BACKSLASH) {
          i = quote + 1;
          continue;
        }
        this.inString = true;
      } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        depth++;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        depth--;
        if (depth <= 0) {
          this.depth = 0;
          this.lastComma = lastComma;
          this.digitRun = 0;
          return cutting ? i : i + 1;
        }
      } else if (b === COMMA && depth === 1) {
        lastComma = i;
        commas?.push(i);
      }
      i++;
    }
    this.depth = depth;
    this.lastComma = lastComma;
    this.digitRun = digits;
    return -1;
  }

  /** A `whole` string value from `i` (its opening quote): position after its closing quote, or -1. */
  private skipWholeString(buf: Buffer, i: number): number {
    if (!this.inString) {
      // The opening quote.
      this.inString = true;
      i++;
    }
    return this.skipString(buf, i);
  }

  /**
   * Inside a string at `i`: the position after its closing quote (and inString false), or -1
   * when the chunk ends inside it (escaped set when it ends on an odd run of backslashes).
   * Strings are most of the body's bytes, so the closing quote is found with indexOf and only
   * the backslashes right before it are counted.
   */
  private skipString(buf: Buffer, i: number): number {
    const len = buf.length;
    if (this.escaped) {
      if (i >= len) return -1;
      this.escaped = false;
      i++;
    }
    for (;;) {
      const quote = buf.indexOf(QUOTE, i);
      if (quote === -1) {
        this.escaped = backslashRunIsOdd(buf, i, len);
        this.inString = true;
        return -1;
      }
      if (!backslashRunIsOdd(buf, i, quote)) {
        this.inString = false;
        return quote + 1;
      }
      i = quote + 1;
    }
  }

  /** A number or literal from `i`: the position where it ends (whitespace, `,` or `}`), or -1. */
  private skipScalar(buf: Buffer, i: number): number {
    const len = buf.length;
    while (i < len) {
      const b = buf[i];
      if (isWhitespace(b) || b === COMMA || b === CLOSE_OBJECT) return i;
      i++;
    }
    return -1;
  }
}

/** Only JSON whitespace (an element's first non-blank byte is almost always its first or second). */
function isBlank(bytes: Buffer): boolean {
  for (let k = 0; k < bytes.length; k++) if (!isWhitespace(bytes[k])) return false;
  return true;
}

/** Whether buf[from, to) ends with an odd number of backslashes (counted no further back than `from`). */
function backslashRunIsOdd(buf: Buffer, from: number, to: number): boolean {
  let k = to - 1;
  while (k >= from && buf[k] === BACKSLASH) k--;
  return (to - 1 - k) % 2 === 1;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The body's first bytes without a UTF-8 byte order mark, which RFC 8259 (8.1) lets a reader
 * ignore and some servers write. Used by every streamed reader of answers.
 */
export function skipByteOrderMark(first: Buffer): Buffer {
  return first.subarray(0, 3).equals(BOM) ? first.subarray(3) : first;
}
