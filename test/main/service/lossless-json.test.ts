// The client's one JSON reader (src/main/service/lossless-json.ts): JSON.parse, except that an
// integer JSON.parse would round (beyond 2^53, the ids of a service that hands out large ones)
// comes back as the string of its exact digits. Strings, safe numbers and everything else are
// read exactly as JSON.parse reads them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../../../src/main/service/lossless-json';

/** Strings full of digit runs, quotes and escapes: text the reader must never change. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom('9', '0', '1', '-', '"', '\\', ':', ',', '[', ' ', 'e', '.') }),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => n.toString()),
);
/** Integers on both sides of 2^53, and far beyond. */
const integer = fc.oneof(
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
  fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 53n + 3n }),
  fc.bigInt({ min: -(2n ** 53n) - 3n, max: -(2n ** 53n) + 3n }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    text,
    integer,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.double({ min: 2 ** 53, max: 1e21, noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(text, tie('v'), { maxKeys: 4 }),
  ),
})).v;

const WHITESPACE = ['', ' ', '\n', '\t', '\r\n '];

/** JSON text of a value, bigints as bare digits, with whitespace between tokens chosen by `ws`. */
function write(v: unknown, ws: () => string): string {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => write(x, ws)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (v !== null && typeof v === 'object') {
    return `{${ws()}${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${write(x, ws)}`)
      .join(`,${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(v);
}

/** What the reader must give: every unsafe integer as its digits, a safe one as a number, the rest as JSON.parse reads it. */
function expected(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Array.isArray(v)) return v.map(expected);
  // Through JSON.parse, so `__proto__` keys and -0 come out as the reader's JSON.parse makes them.
  if (v !== null && typeof v === 'object') {
    const out = JSON.parse('{}') as Record<string, unknown>;
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: expected(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  // A double JSON writes as a plain integer beyond 2^53 (1.5e20 is 150000000000000000000) is such an integer too.
  const written = JSON.stringify(v);
  if (typeof v === 'number' && /^-?\d{16,}$/.test(written) && !Number.isSafeInteger(v)) return written;
  return JSON.parse(written) as unknown;
}

describe('the lossless JSON reader', () => {
  it('reads any JSON value with the integers beyond 2^53 as their exact digits, and everything else as JSON.parse', () => {
    fc.assert(
      fc.property(value, fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (v, picks) => {
        let n = 0;
        const ws = () => WHITESPACE[picks[n++ % picks.length] % WHITESPACE.length];
        expect(parseJsonLossless(write(v, ws))).toStrictEqual(expected(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('is JSON.parse for a text without integers beyond 2^53, strings with long digit runs included', () => {
    fc.assert(
      fc.property(fc.json(), (t) => {
        const plain = t.replace(/-?\d{16,}(?![.eE\d])/g, '0');
        expect(parseJsonLossless(plain)).toStrictEqual(JSON.parse(plain));
      }),
    );
    const digitsInText = '{"tracking_code":"utm=12345678901234567890,9007199254740993","n":[1, 9007199254740991]}';
    expect(parseJsonLossless(digitsInText)).toStrictEqual(JSON.parse(digitsInText));
  });

  it('keeps two task ids that differ only beyond 2^53 apart (JSON.parse makes them one)', () => {
    const body = '[{"taskId": 2305843009213693953, "tagId": 9007199254740993}, {"taskId": 2305843009213693954, "tagId": 9007199254740993}]';
    expect((JSON.parse(body) as { taskId: number }[]).map((t) => t.taskId)).toEqual([2305843009213693952, 2305843009213693952]);
    expect(parseJsonLossless(body)).toEqual([
      { taskId: '2305843009213693953', tagId: '9007199254740993' },
      { taskId: '2305843009213693954', tagId: '9007199254740993' },
    ]);
  });

  it('leaves decimals, exponents and malformed numbers to JSON.parse', () => {
    const decimals = '[12345678901234567.5, 1e30, -12345678901234567890e-3]';
    expect(parseJsonLossless(decimals)).toEqual(JSON.parse(decimals));
    expect(() => parseJsonLossless('[01234567890123456789]')).toThrow(SyntaxError);
    expect(() => parseJsonLossless('{"a": 12345678901234567890"}')).toThrow(SyntaxError);
    expect(() => parseJsonLossless('{"a": "12345678901234567890')).toThrow(SyntaxError);
  });
});

describe('a whole answer', () => {
  it('is read past a byte order mark, with its big ids exact', async () => {
    const { parseJsonBody } = await import('../../../src/main/service/response-errors');
    expect(parseJsonBody(Buffer.from('\uFEFF{"id":9007199254740993}'))).toEqual({ id: '9007199254740993' });
  });
});
