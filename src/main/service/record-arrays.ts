// Finds the arrays of an answer whose wrapper the interface does not show (the task list, spec 4.6
// note 2) as the body arrives, in bounded memory (DECISIONS client 17). A byte scan follows only
// strings and bracket depth: it walks the wrapper (the top-level value and the objects one level
// inside it) and hands out each element of every array it finds there, each parsed on its own by
// native JSON.parse, losslessly (ids beyond 2^53 as their digits). Which array is the list is
// decided by the caller, by what the elements hold.
// Memory holds one unfinished element, never the whole body (tens of thousands of tasks are tens of
// MB of JSON). Anything that is not one JSON object or array fails with UnreadableBodyError.
import { MAX_RECORD_BYTES, recordTooLarge, skipByteOrderMark } from './listing-stream';
import { parseJsonLossless } from './lossless-json';
import { JSON_BYTES } from './json-bytes';

// Bound once here: these are read for every byte of an answer.
const { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isWhitespace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = JSON_BYTES;

/** The body is not one JSON object or array (or is cut short). */
export class UnreadableBodyError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableBodyError';
  }
}

/** One element of an array of the wrapper; `path` names the array (`''` for a bare array, `items`, `data.tasks`). */
export interface ArrayElement {
  path: string;
  value: unknown;
}

/** Arrays are looked for in the top-level value and in objects this deep under it. */
const MAX_WRAPPER_LEVEL = 2;

const isDelimiter = (b: number) => b === COMMA || b === CLOSE_OBJECT || b === CLOSE_ARRAY || isWhitespace(b);

interface Frame {
  kind: 'object' | 'array';
  /** 0 for the top-level value. */
  level: number;
  path: string;
  /** What the next non-whitespace byte must be. */
  expect: 'keyOrEnd' | 'key' | 'colon' | 'valueOrEnd' | 'value' | 'commaOrEnd';
  key: string;
}

/** A value read byte by byte: kept (an element or a key) or skipped (anything else). */
interface ValueReader {
  keep: boolean;
  pieces: Buffer[];
  kind: 'container' | 'string' | 'scalar';
  depth: number;
  inString: boolean;
  escaped: boolean;
  done: (text: string) => void;
}

export class RecordArrayScanner {
  #stack: Frame[] = [];
  #started = false;
  #reader: ValueReader | null = null;
  #out: ArrayElement[] = [];
  /** A first chunk was read (a byte order mark is looked for only there). */
  #sawFirst = false;

  /** Reads one chunk; returns the elements it completed. Throws UnreadableBodyError. */
  write(whole: Buffer): ArrayElement[] {
    const chunk = this.#sawFirst ? whole : skipByteOrderMark(whole);
    this.#sawFirst = true;
    this.#out = [];
    let i = 0;
    while (i < chunk.length) {
      if (this.#reader) {
        i = this.#readValue(chunk, i, this.#reader);
        continue;
      }
      const b = chunk[i];
      // A byte that starts a value is read again by the value's reader.
      if (isWhitespace(b) || this.#structure(b)) i++;
      else this.#readerStart = i;
    }
    if (this.#reader?.keep) {
      this.#reader.pieces.push(Buffer.from(chunk.subarray(this.#readerStart)));
      if (this.#reader.pieces.reduce((n, p) => n + p.length, 0) > MAX_RECORD_BYTES) throw new UnreadableBodyError(recordTooLarge());
    }
    this.#readerStart = 0;
    return this.#out;
  }

  /** The body has ended: true when it held nothing at all, else throws unless it was whole. */
  end(): { empty: boolean } {
    if (!this.#started) return { empty: true };
    if (this.#reader || this.#stack.length > 0) throw new UnreadableBodyError('it ended before its last closing bracket (cut short)');
    return { empty: false };
  }

  /** Where in the current chunk the value being read started (0 when it started in an earlier chunk). */
  #readerStart = 0;

  /** Reads one byte of the wrapper's structure; false when it starts a value (read by its reader). */
  #structure(b: number): boolean {
    const top = this.#stack.at(-1);
    if (!top) {
      if (this.#started) throw new UnreadableBodyError('more than one JSON value');
      this.#started = true;
      if (b === OPEN_OBJECT) this.#push('object', 0, '');
      else if (b === OPEN_ARRAY) this.#push('array', 0, '');
      else throw new UnreadableBodyError('it is not a JSON object or array');
      return true;
    }
    if (top.kind === 'object') {
      switch (top.expect) {
        case 'keyOrEnd':
        case 'key':
          if (b === CLOSE_OBJECT && top.expect === 'keyOrEnd') return this.#pop();
          if (b !== QUOTE) throw new UnreadableBodyError('it is not valid JSON (a key was expected)');
          return this.#startValue(b, true, (text) => {
            top.key = JSON.parse(text) as string;
            top.expect = 'colon';
          });
        case 'colon':
          if (b !== COLON) throw new UnreadableBodyError('it is not valid JSON (a colon was expected)');
          top.expect = 'value';
          return true;
        case 'value': {
          top.expect = 'commaOrEnd';
          const level = top.level + 1;
          const path = top.path === '' ? top.key : `${top.path}.${top.key}`;
          if (b === OPEN_ARRAY && level <= MAX_WRAPPER_LEVEL) return this.#push('array', level, path);
          if (b === OPEN_OBJECT && level < MAX_WRAPPER_LEVEL) return this.#push('object', level, path);
          return this.#startValue(b, false, () => undefined);
        }
        case 'commaOrEnd':
          if (b === COMMA) top.expect = 'key';
          else if (b === CLOSE_OBJECT) this.#pop();
          else throw new UnreadableBodyError('it is not valid JSON (a comma was expected)');
          return true;
        default:
          throw new UnreadableBodyError('it is not valid JSON');
      }
    }
    switch (top.expect) {
      case 'valueOrEnd':
      case 'value':
        if (b === CLOSE_ARRAY && top.expect === 'valueOrEnd') return this.#pop();
        top.expect = 'commaOrEnd';
        return this.#startValue(b, true, (text) => this.#out.push({ path: top.path, value: parseJsonLossless(text) }));
      case 'commaOrEnd':
        if (b === COMMA) top.expect = 'value';
        else if (b === CLOSE_ARRAY) this.#pop();
        else throw new UnreadableBodyError('it is not valid JSON (a comma was expected)');
        return true;
      default:
        throw new UnreadableBodyError('it is not valid JSON');
    }
  }

  #push(kind: Frame['kind'], level: number, path: string): true {
    this.#stack.push({ kind, level, path, expect: kind === 'object' ? 'keyOrEnd' : 'valueOrEnd', key: '' });
    return true;
  }

  #pop(): true {
    this.#stack.pop();
    return true;
  }

  /** A value starts with `b`, which its reader reads (so: not consumed here). */
  #startValue(b: number, keep: boolean, done: (text: string) => void): false {
    const kind = b === OPEN_OBJECT || b === OPEN_ARRAY ? 'container' : b === QUOTE ? 'string' : 'scalar';
    this.#reader = { keep, pieces: [], kind, depth: 0, inString: false, escaped: false, done };
    return false;
  }

  /** Reads the current value from `i`; returns where the outer scan goes on. */
  #readValue(chunk: Buffer, from: number, r: ValueReader): number {
    let i = from;
    const finish = (end: number): number => {
      this.#reader = null;
      if (r.keep) {
        r.pieces.push(chunk.subarray(this.#readerStart, end));
        const text = Buffer.concat(r.pieces).toString('utf8');
        try {
          r.done(text);
        } catch (e) {
          if (e instanceof SyntaxError) throw new UnreadableBodyError(`it is not valid JSON (${e.message})`);
          throw e;
        }
      } else {
        r.done('');
      }
      this.#readerStart = 0;
      return end;
    };
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (r.inString) {
        if (r.escaped) r.escaped = false;
        else if (b === BACKSLASH) r.escaped = true;
        else if (b === QUOTE) {
          r.inString = false;
          if (r.kind === 'string') return finish(i + 1);
        }
        continue;
      }
      if (r.kind === 'scalar') {
        // A number or literal ends at the byte after it, which the structure scan reads.
        if (isDelimiter(b)) return finish(i);
        continue;
      }
      if (b === QUOTE) r.inString = true;
      else if (r.kind === 'container') {
        if (b === OPEN_OBJECT || b === OPEN_ARRAY) r.depth++;
        else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
          r.depth--;
          if (r.depth === 0) return finish(i + 1);
        }
      }
    }
    return i;
  }
}
