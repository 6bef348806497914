// The unpaged listing is cut into elements by a byte scan and parsed by JSON.parse chunk by chunk
// (src/main/service/listing-stream.ts). Whatever the chunk boundaries (inside multi-byte
// characters, inside escapes, one byte at a time), it must read exactly what the client's JSON
// reader (JSON.parse, with integers beyond 2^53 kept as their digits) reads of the whole body, and
// refuse what JSON.parse refuses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListingStreamParser, UnreadableListingError } from '../../../src/main/service/listing-stream';
import { parseJsonLossless } from '../../../src/main/service/lossless-json';

/** JSON whitespace, including none. */
const WHITESPACE = ['', ' ', '\n', '\r\n', '\t', '  \n\t '];

/**
 * Writes a JSON value with whitespace and string spellings taken in turn from `choices` (so
 * each generated document spells its tokens its own way): whitespace between all tokens, and
 * strings written plainly, with every character as \uXXXX, or with `/` as `\/`.
 */
function writer(choices: readonly number[]) {
  let n = 0;
  const next = () => choices[n++ % choices.length] ?? 0;
  const ws = () => WHITESPACE[next() % WHITESPACE.length];
  const str = (s: string) => {
    const how = next() % 3;
    if (how === 1) return `"${[...Array(s.length).keys()].map((i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')}"`;
    if (how === 2) return JSON.stringify(s).replaceAll('/', '\\/');
    return JSON.stringify(s);
  };
  const value = (v: unknown): string => {
    if (Array.isArray(v)) return `[${ws()}${v.map((x) => value(x)).join(`${ws()},${ws()}`)}${ws()}]`;
    if (v !== null && typeof v === 'object') {
      return `{${ws()}${Object.entries(v)
        .map(([k, x]) => `${str(k)}${ws()}:${ws()}${value(x)}`)
        .join(`${ws()},${ws()}`)}${ws()}}`;
    }
    if (typeof v === 'string') return str(v);
    // An id beyond 2^53 a service writes as a bare number.
    if (typeof v === 'bigint') return v.toString();
    return JSON.stringify(v);
  };
  const members = (entries: [string, unknown][]) =>
    `${ws()}{${ws()}${entries.map(([k, x]) => `${str(k)}${ws()}:${ws()}${value(x)}`).join(`${ws()},${ws()}`)}${ws()}}${ws()}`;
  return { value, members };
}

// Strings of any Unicode (astral characters are 4 UTF-8 bytes: chunks get split inside them),
// with quotes, backslashes and control characters that must be escaped.
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', '/', '{', '}', '[', ']', ',', ':', 'é', '€', '𝄞', 'a') }),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const campaign = fc.record(
  {
    id: fc.oneof(fc.integer({ min: 1 }), fc.string(), fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n })),
    name: text,
    status: fc.constantFrom('APPROVED', 'PAUSED'),
    spent: fc.double({ noNaN: true, noDefaultInfinity: true }),
    targeting: json,
    extra: fc.dictionary(text, json, { maxKeys: 3 }),
  },
  { requiredKeys: ['id', 'name'] },
);
const notListingKey = text.filter((k) => k !== 'results' && k !== 'metadata');

/** A listing document: members in a random order, unknown keys of any type, random spelling. */
const listing = fc
  .record({
    results: fc.array(fc.oneof({ weight: 4, arbitrary: campaign }, { weight: 1, arbitrary: json }), { maxLength: 12 }),
    metadata: fc.oneof(fc.record({ total: fc.nat(), count: fc.nat() }), json),
    extra: fc.uniqueArray(fc.tuple(notListingKey, json), { maxLength: 3, selector: ([k]) => k }),
    order: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
    spelling: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
  })
  .map(({ results, metadata, extra, order, spelling }) => {
    const entries: [string, unknown][] = [['results', results], ['metadata', metadata], ...extra];
    // Shuffled by the generated order (a stable sort on random keys).
    const shuffled = entries
      .map((e, i) => ({ e, key: order[i % order.length] }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.e);
    return Buffer.from(writer(spelling).members(shuffled), 'utf8');
  });

/** The body in chunks cut at the given positions (any byte, so inside characters and escapes too). */
function split(body: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => (body.length === 0 ? 0 : c % (body.length + 1))))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of [...points, body.length]) {
    chunks.push(body.subarray(from, p));
    from = p;
  }
  return chunks;
}

/** What the parser reads from the chunks: all results in order and the last metadata, or the error. */
/**
 * `raw`: the elements are handed out as bytes (what a refresh digests) and each is parsed here, as
 * streamCampaigns parses the ones it does not recognise; a parse that fails is an unreadable listing.
 */
function readChunks(chunks: readonly Buffer[], raw = false): { results: unknown[]; metadata: unknown } | UnreadableListingError {
  const parser = new ListingStreamParser({ raw });
  const results: unknown[] = [];
  let metadata: unknown = undefined;
  try {
    for (const c of chunks) {
      const part = parser.write(c);
      if (raw) expect(part.results).toEqual([]);
      results.push(...part.results);
      for (const element of part.raw) {
        try {
          // As streamCampaigns parses them: told whether the scan saw a number long enough to be beyond 2^53.
          results.push(parseJsonLossless(element.toString('utf8'), part.longDigitRun));
        } catch {
          return new UnreadableListingError('an element is not JSON');
        }
      }
      if (part.metadata) metadata = part.metadata.value;
    }
    parser.end();
  } catch (e) {
    if (e instanceof UnreadableListingError) return e;
    throw e;
  }
  return { results, metadata };
}

/** What the lossless reader makes of the whole body, as a listing: or null when it is not one. */
function oracle(body: Buffer): { results: unknown[]; metadata: unknown } | null {
  let doc: unknown;
  try {
    doc = parseJsonLossless(body.toString('utf8'));
  } catch {
    return null;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return null;
  const o = doc as Record<string, unknown>;
  if (!Object.hasOwn(o, 'metadata')) return null;
  // An empty listing may write its results as null or leave them out (DECISIONS client 17).
  if (!Object.hasOwn(o, 'results') || o.results === null) return { results: [], metadata: o.metadata };
  if (!Array.isArray(o.results)) return null;
  return { results: o.results, metadata: o.metadata };
}

const bytes = (s: string) => Buffer.from(s, 'utf8');
const oneByteAtATime = (body: Buffer) => [...body].map((b) => Buffer.from([b]));

describe('reading the unpaged listing chunk by chunk', () => {
  it.each([
    ['results null', '{"results": null, "metadata": {"total": 0, "count": 0}}'],
    ['results left out', '{"metadata": {"total": 0, "count": 0}}'],
    ['metadata first, results null', '{"metadata": {"total": 0}, "results" : null }'],
  ])('reads an empty listing with %s (DECISIONS client 17)', (_, text) => {
    for (const chunks of [[bytes(text)], oneByteAtATime(bytes(text))]) {
      const parser = new ListingStreamParser();
      const parts = chunks.map((c) => parser.write(c));
      parser.end();
      expect(parts.flatMap((p) => p.results)).toEqual([]);
      expect(parts.find((p) => p.metadata)?.metadata?.value).toMatchObject({ total: 0 });
    }
  });

  it('passes over a UTF-8 byte order mark before the listing (RFC 8259 8.1)', () => {
    const parser = new ListingStreamParser();
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"results":[{"id":"7","name":"a"}],"metadata":{"total":1,"count":1}}'),
    ]);
    const part = parser.write(body);
    parser.end();
    expect(part.results).toEqual([{ id: '7', name: 'a' }]);
  });

  it.each([
    ['parsed', false],
    ['as raw elements', true],
  ])('reads what JSON.parse of the whole body reads, wherever the chunks are cut (%s)', (_, raw) => {
    fc.assert(
      fc.property(listing, fc.array(fc.nat(), { maxLength: 30 }), (body, cuts) => {
        const expected = oracle(body);
        expect(expected).not.toBeNull();
        expect(readChunks(split(body, cuts), raw)).toStrictEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['parsed', false],
    ['as raw elements', true],
  ])('reads the same one byte at a time (every split inside a character or an escape) (%s)', (_, raw) => {
    fc.assert(
      fc.property(listing, (body) => {
        expect(readChunks(oneByteAtATime(body), raw)).toStrictEqual(oracle(body));
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ['parsed', false],
    ['as raw elements', true],
  ])('refuses exactly what JSON.parse refuses, after any one-byte damage (%s)', (_, raw) => {
    // A byte deleted, or replaced by one that matters to the scan or to JSON.
    const damage = fc.record({ at: fc.nat(), how: fc.constantFrom('delete', ...'"\\{}[],: x0e\u00ff'.split('')) });
    fc.assert(
      fc.property(listing, damage, fc.array(fc.nat(), { maxLength: 8 }), (body, { at, how }, cuts) => {
        const p = at % body.length;
        const damaged = Buffer.concat([
          body.subarray(0, p),
          how === 'delete' ? Buffer.alloc(0) : Buffer.from([how.charCodeAt(0)]),
          body.subarray(p + 1),
        ]);
        const expected = oracle(damaged);
        const got = readChunks(split(damaged, cuts), raw);
        if (expected === null) expect(got).toBeInstanceOf(UnreadableListingError);
        else expect(got).toStrictEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it("hands out each chunk's complete campaigns as the chunk arrives, not at the end", () => {
    const parser = new ListingStreamParser();
    expect(parser.write(bytes('{"results": [{"id": 1, "name": "a"}, {"id": 2, "na')).results).toEqual([{ id: 1, name: 'a' }]);
    expect(parser.write(bytes('me": "b"}')).results).toEqual([]);
    expect(parser.write(bytes('], "metadata": {"total": 2, "count": 2}}')).results).toEqual([{ id: 2, name: 'b' }]);
    parser.end();
  });

  it('keeps no more than the unfinished campaign between chunks, however long the listing (or an unknown key)', () => {
    const parser = new ListingStreamParser();
    const element = (i: number) =>
      JSON.stringify({ id: i, name: `Campaign ${i} "été" \\ 𝄞`, targeting: { countries: ['FR', 'DE'], nested: [[{}]] } });
    const longest = Buffer.byteLength(element(99_999));
    let read = 0;
    let maxHeld = 0;
    let pending = Buffer.from('{"links": [');
    const feed = (more: string) => {
      pending = Buffer.concat([pending, Buffer.from(more)]);
      // Odd-sized chunks, so boundaries fall everywhere in the elements.
      while (pending.length >= 997) {
        read += parser.write(pending.subarray(0, 997)).results.length;
        pending = pending.subarray(997);
        maxHeld = Math.max(maxHeld, parser.heldBytes);
      }
    };
    for (let i = 0; i < 20_000; i++) feed(`${i ? ',' : ''}${element(i)}`);
    feed('], "results": [');
    for (let i = 0; i < 100_000; i++) feed(`${i ? ',' : ''}${element(i)}`);
    feed('], "metadata": {"total": 100000, "count": 100000}}');
    read += parser.write(pending).results.length;
    parser.end();
    expect(read).toBe(100_000);
    // About 14 MB went through; what was kept at any time is under one element and one chunk.
    expect(maxHeld).toBeLessThan(longest + 997);
  });

  it('splits a multi-byte character between chunks without damaging it', () => {
    const body = bytes('{"metadata":{"total":1,"count":1},"results":[{"name":"Été 𝄞 €"}]}');
    const at = body.indexOf(Buffer.from('𝄞')) + 2;
    expect(readChunks([body.subarray(0, at), body.subarray(at)])).toEqual({
      results: [{ name: 'Été 𝄞 €' }],
      metadata: { total: 1, count: 1 },
    });
  });

  it('reads an empty listing, and skips unknown keys of any size and type', () => {
    expect(readChunks([bytes('{"results":[],"metadata":{"total":0,"count":0}}')])).toEqual({
      results: [],
      metadata: { total: 0, count: 0 },
    });
    const big = JSON.stringify({ rows: Array.from({ length: 5000 }, (_, i) => ({ i, s: 'x'.repeat(50) })) });
    const body = bytes(
      `{"links": ${big}, "n": -1.5e3, "ok": true, "none": null, "s": "a\\"}", "results": [{"id": 1}], "more": [${big}], "metadata": {"total": 1, "count": 1}}`,
    );
    expect(readChunks(split(body, [1000, 70_000, 200_000]))).toEqual({ results: [{ id: 1 }], metadata: { total: 1, count: 1 } });
  });

  it('hands over an id beyond 2^53 written as a number as its exact digits', () => {
    const parser = new ListingStreamParser();
    const got = [
      ...parser.write(bytes('{"results": [{"id": 9007199254740993, "name": "a"}, {"id": 90071992547409')).results,
      ...parser.write(bytes('94, "name": "b"}], "metadata": {"total": 2, "count": 2}}')).results,
    ];
    parser.end();
    expect(got).toEqual([
      { id: '9007199254740993', name: 'a' },
      { id: '9007199254740994', name: 'b' },
    ]);
  });

  it('hands over a raw element holding an id beyond 2^53 with its exact digits, wherever the chunks cut its digits', () => {
    const body = bytes(
      '{"results": [{"id": "12", "n": "1234567890123456789"}, {"id": 9007199254740993, "x": -90071992547409950}], "metadata": {"total": 2}}',
    );
    const expected = {
      results: [
        { id: '12', n: '1234567890123456789' },
        { id: '9007199254740993', x: '-90071992547409950' },
      ],
      metadata: { total: 2 },
    };
    for (let cut = 1; cut < body.length; cut++) expect(readChunks(split(body, [cut]), true), `cut at ${cut}`).toStrictEqual(expected);
    expect(readChunks(oneByteAtATime(body), true)).toStrictEqual(expected);
    // Digits inside strings are not a number's: the scan does not send such a listing the long way.
    const parser = new ListingStreamParser({ raw: true });
    expect(parser.write(bytes('{"results": [{"id": "90071992547409931234", "n": 12345}], ')).longDigitRun).toBe(false);
    expect(parser.write(bytes('"metadata": {"total": 1}}')).longDigitRun).toBe(false);
    // Nor are a fraction's or an exponent's, however long: only an integer part can be beyond 2^53.
    const prices = new ListingStreamParser({ raw: true });
    expect(
      prices.write(bytes('{"results": [{"id": "1", "cpc": 0.30000000000000004, "x": -1.5e+00000000000000001, "y": 2E')).longDigitRun,
    ).toBe(false);
    expect(prices.write(bytes('00000000000000000001}], "metadata": {"total": 1}}')).longDigitRun).toBe(false);
    // An integer part is, wherever a chunk cuts it.
    const big = new ListingStreamParser({ raw: true });
    expect(big.write(bytes('{"results": [{"id": "1", "cpc": 0.5, "n": 90071992')).longDigitRun).toBe(false);
    expect(big.write(bytes('54740993}], "metadata": {"total": 1}}')).longDigitRun).toBe(true);
  });

  it('refuses two "results" (JSON.parse would keep the last; which one is the listing is unclear)', () => {
    expect(readChunks([bytes('{"results": [{"id": 1}], "metadata": {"total": 1, "count": 1}, "results": []}')])).toBeInstanceOf(
      UnreadableListingError,
    );
  });

  it.each([
    ['a truncated body', '{"results": [{"id": 1}], "metadata": {"total": 1, "count": 1}'],
    ['a body cut inside a campaign', '{"metadata": {"total": 1, "count": 1}, "results": [{"id": 1'],
    ['an empty body', ''],
    ['trailing garbage', '{"results": [], "metadata": {"total": 0, "count": 0}} x'],
    ['a second document', '{"results": [], "metadata": {"total": 0, "count": 0}}{}'],
    ['a top-level array', '[{"results": [], "metadata": {"total": 0, "count": 0}}]'],
    ['a top-level string', '"results"'],
    ['results that are another literal', '{"results": false, "metadata": {"total": 0, "count": 0}}'],
    ['results that are nearly null', '{"results": nul, "metadata": {"total": 0, "count": 0}}'],
    ['results that are not an array', '{"results": {"a": 1}, "metadata": {"total": 0, "count": 0}}'],
    ['no metadata', '{"results": [{"id": 1}]}'],
    ['an invalid literal in a campaign', '{"results": [{"id": tru}], "metadata": {}}'],
    ['a trailing comma in a campaign', '{"results": [{"id": 1,}], "metadata": {}}'],
    ['a trailing comma in the results', '{"results": [{"id": 1},], "metadata": {}}'],
    ['an empty item in the results', '{"results": [{"id": 1},,{"id": 2}], "metadata": {}}'],
    ['a single-quoted string', '{"results": [{\'id\': 1}], "metadata": {}}'],
    ['an unknown escape', '{"results": [{"name": "\\x41"}], "metadata": {}}'],
    ['a raw line break in a string', '{"results": [{"name": "a\nb"}], "metadata": {}}'],
    ['brackets that do not match', '{"results": [{"id": 1]], "metadata": {}}'],
    ['results closed by a brace', '{"results": [{"id": 1}}, "metadata": {}}'],
    ['a missing colon', '{"results" [], "metadata": {}}'],
    ['an invalid unknown value', '{"results": [], "metadata": {}, "x": [1 2]}'],
    ['NaN in the metadata', '{"results": [], "metadata": {"total": NaN}}'],
  ])('refuses %s', (_, body) => {
    // Whole, and one byte at a time.
    expect(readChunks([bytes(body)])).toBeInstanceOf(UnreadableListingError);
    expect(readChunks(oneByteAtATime(bytes(body)))).toBeInstanceOf(UnreadableListingError);
    expect(oracle(bytes(body))).toBeNull();
  });
});
