import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseHttpDate,
  parseRateLimit,
  parseRateLimitPolicy,
  parseRetryAfter,
  retryAfterDelayMs,
} from '../../../src/main/ratelimit/headers';

// Generated headers are written the many ways a real server may write them: any case, any
// spacing, quoted names, parameters in any order, unknown parameters in between.
const windowName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/);
const spacing = fc.constantFrom('', ' ', '  ', '\t');
const casing = (s: string) => fc.constantFrom(s, s.toUpperCase(), s[0].toUpperCase() + s.slice(1));
const unknownParam = fc
  .tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[A-Za-z0-9]{1,8}$/))
  .filter(([k]) => !['q', 'w', 'r', 't'].includes(k))
  .map(([k, v]) => `${k}=${v}`);
const decimal = fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }));
const decimalText = ([i, f]: [number, number | undefined]) => (f === undefined ? String(i) : `${i}.${String(f).padStart(3, '0')}`);
const decimalValue = ([i, f]: [number, number | undefined]) => Number(decimalText([i, f]));

function entryText(name: string, params: string[], sp: string, quoteName: boolean): string {
  return [quoteName ? `"${name}"` : name, ...params].join(`${sp};${sp}`);
}

const policyEntry = fc
  .record({
    name: windowName,
    quota: fc.integer({ min: 0, max: 1_000_000 }),
    window: decimal.filter(([i, f]) => i > 0 || (f ?? 0) > 0),
    extra: fc.array(unknownParam, { maxLength: 2 }),
    sp: spacing,
    quote: fc.boolean(),
    qKey: casing('q'),
    wKey: casing('w'),
  })
  .chain((e) =>
    fc
      .shuffledSubarray([`${e.qKey}=${e.quota}`, `${e.wKey}=${decimalText(e.window)}`, ...e.extra], {
        minLength: 2 + e.extra.length,
      })
      .map((params) => ({ e, text: entryText(e.name, params, e.sp, e.quote) })),
  );

const remainingEntry = fc
  .record({
    name: windowName,
    remaining: fc.integer({ min: 0, max: 1_000_000 }),
    reset: fc.option(decimal, { nil: undefined }),
    extra: fc.array(unknownParam, { maxLength: 2 }),
    sp: spacing,
    quote: fc.boolean(),
  })
  .chain((e) => {
    const params = [`r=${e.remaining}`, ...(e.reset ? [`t=${decimalText(e.reset)}`] : []), ...e.extra];
    return fc.shuffledSubarray(params, { minLength: params.length }).map((ps) => ({ e, text: entryText(e.name, ps, e.sp, e.quote) }));
  });

const uniqueBy = <T extends { e: { name: string } }>(arr: T[]) => arr.filter((x, i) => arr.findIndex((y) => y.e.name === x.e.name) === i);

describe('rate-limit header parsing', () => {
  it('reads back every generated ratelimit-policy, whatever its spelling', () => {
    fc.assert(
      fc.property(fc.array(policyEntry, { minLength: 1, maxLength: 6 }), spacing, (generated, sp) => {
        const entries = uniqueBy(generated);
        const header = entries.map((x) => x.text).join(`${sp},${sp}`);
        expect(parseRateLimitPolicy(header)).toEqual(
          entries.map(({ e }) => ({ name: e.name, quota: e.quota, windowS: decimalValue(e.window) })),
        );
      }),
    );
  });

  it('reads back every generated ratelimit header, with or without t', () => {
    fc.assert(
      fc.property(fc.array(remainingEntry, { minLength: 1, maxLength: 6 }), (generated) => {
        const entries = uniqueBy(generated);
        const header = entries.map((x) => x.text).join(', ');
        expect(parseRateLimit(header)).toEqual(
          entries.map(({ e }) =>
            e.reset === undefined
              ? { name: e.name, remaining: e.remaining }
              : { name: e.name, remaining: e.remaining, resetS: decimalValue(e.reset) },
          ),
        );
      }),
    );
  });

  it('reads the sandbox and spec form, names case-insensitively, repeated header lines joined', () => {
    expect(parseRateLimitPolicy('second;q=2;w=1, minute;q=15;w=60, hour;q=150;w=3600')).toEqual([
      { name: 'second', quota: 2, windowS: 1 },
      { name: 'minute', quota: 15, windowS: 60 },
      { name: 'hour', quota: 150, windowS: 3600 },
    ]);
    expect(parseRateLimit(['SECOND;R=1;T=1', 'Minute ; t=60 ; r=14'])).toEqual([
      { name: 'second', remaining: 1, resetS: 1 },
      { name: 'minute', remaining: 14, resetS: 60 },
    ]);
  });

  it('drops only the malformed entries of a header and keeps the readable ones', () => {
    const header = 'second;q=2;w=1, minute;q=-1;w=60, hour;q=abc;w=3600, day;w=86400, week;q=5;w=0, year;q=9;w=31536000, "odd;q=1;w=1';
    expect(parseRateLimitPolicy(header)).toEqual([
      { name: 'second', quota: 2, windowS: 1 },
      { name: 'year', quota: 9, windowS: 31536000 },
    ]);
    // An unterminated quote makes the rest of the header unreadable, not the part before it.
    expect(parseRateLimitPolicy('second;q=2;w=1, "odd;q=1;w=1, year;q=9;w=60')).toEqual([{ name: 'second', quota: 2, windowS: 1 }]);
    // The first of two entries with one name wins; the duplicate cannot override it.
    expect(parseRateLimit('second;r=1;t=1, second;r=0;t=1')).toEqual([{ name: 'second', remaining: 1, resetS: 1 }]);
    expect(parseRateLimit('second;r=1;t=soon')).toEqual([{ name: 'second', remaining: 1 }]);
  });

  it('never throws on garbage and only ever returns well-formed entries', () => {
    const garbage = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc
        .array(fc.constantFrom(',', ';', '=', '"', '\\', ' ', 'q', 'w', 'r', 't', '1', '-', '.', 'e', 'x'), { maxLength: 80 })
        .map((a) => a.join('')),
      fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }),
      fc.constantFrom(undefined, null, '', ',,,', ';;;', '"', 'second;q=1e3;w=1', 'second;q=Infinity;w=NaN', 'x'.repeat(10_000)),
    );
    fc.assert(
      fc.property(garbage, (value) => {
        for (const p of parseRateLimitPolicy(value)) {
          expect(Number.isInteger(p.quota) && p.quota >= 0).toBe(true);
          expect(Number.isFinite(p.windowS) && p.windowS > 0).toBe(true);
        }
        for (const r of parseRateLimit(value)) {
          expect(Number.isInteger(r.remaining) && r.remaining >= 0).toBe(true);
          if (r.resetS !== undefined) expect(Number.isFinite(r.resetS) && r.resetS >= 0).toBe(true);
        }
        const ra = parseRetryAfter(value, 1_000_000);
        if (ra !== undefined) expect(Number.isFinite(ra) && ra >= 0).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds as milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), spacing, (s, sp) => {
        expect(parseRetryAfter(`${sp}${s}${sp}`, 123)).toBe(s * 1000);
      }),
    );
  });

  it('reads every HTTP-date form as the time left until that date (never negative)', () => {
    const date = fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2060-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));
    fc.assert(
      fc.property(date, fc.integer({ min: -100_000_000, max: 100_000_000 }), (d, offset) => {
        const now = d.getTime() - offset;
        // IMF-fixdate is what Date#toUTCString writes.
        expect(parseRetryAfter(d.toUTCString(), now)).toBe(Math.max(0, offset));
      }),
    );
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });

  it('ignores what is neither seconds nor an HTTP-date', () => {
    for (const v of ['-5', 'soon', '1e3', 'Sun, 31 Feb 2027 08:49:37 GMT', '2027-01-01T00:00:00Z', 'Sun, 06 Nov 1994 25:49:37 GMT', '']) {
      expect(parseRetryAfter(v, 0)).toBeUndefined();
    }
  });

  it("measures a date against the same answer's Date header, whatever our clock says", () => {
    const serviceNow = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) }).map((t) => Math.floor(t / 1000) * 1000);
    fc.assert(
      fc.property(
        serviceNow,
        fc.integer({ min: 0, max: 3600 }),
        fc.integer({ min: -86_400_000, max: 86_400_000 }),
        (now, waitS, ourOffset) => {
          const date = new Date(now).toUTCString();
          const retryAt = new Date(now + waitS * 1000).toUTCString();
          // Our clock may be a day off either way: the wait is the service's.
          expect(retryAfterDelayMs(retryAt, date, now + ourOffset)).toBe(waitS * 1000);
          // Delay-seconds do not depend on any clock.
          expect(retryAfterDelayMs(String(waitS), date, now + ourOffset)).toBe(waitS * 1000);
        },
      ),
    );
  });

  it('falls back to our clock when the answer has no readable Date', () => {
    const at = Date.UTC(2026, 10, 21, 9, 0, 5);
    for (const date of [undefined, '', 'yesterday', ['nonsense']]) {
      expect(retryAfterDelayMs('Sat, 21 Nov 2026 09:00:07 GMT', date, at)).toBe(2000);
    }
    expect(retryAfterDelayMs('Sat, 21 Nov 2026 09:00:07 GMT', ['Sat, 21 Nov 2026 09:00:06 GMT'], at)).toBe(1000);
  });
});
