// The reader of the service's date-times (service-dates.ts): every ISO 8601 spelling a service may
// write, epoch milliseconds, and nothing that is not a date-time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  readServiceDateTime,
  readServiceDateTimeByInstant,
  readServiceInstant,
  sameServiceInstant,
  serviceDateTimeSchema,
} from '../../../src/shared/domain/service-dates';

const AT = Date.parse('2026-12-01T10:15:30.250Z');

describe('readServiceInstant', () => {
  it('reads the same instant from every spelling that names its offset', () => {
    for (const s of [
      '2026-12-01T10:15:30.250Z',
      '2026-12-01t10:15:30.250z',
      '2026-12-01 10:15:30.250Z',
      '2026-12-01T10:15:30,250Z',
      '2026-12-01T10:15:30.250000+00:00',
      '2026-12-01T15:45:30.250+05:30',
      '2026-12-01T15:45:30.250+0530',
      '2026-12-01T02:15:30.250-08',
      '2026-12-01T02:15:30.250123456-08:00',
    ]) {
      expect(readServiceInstant(s), s).toMatchObject({ ms: AT, zoned: true });
    }
    expect(readServiceInstant(AT)).toEqual({ ms: AT, zoned: true, precisionMs: 1 });
    expect(readServiceInstant(String(AT))).toEqual({ ms: AT, zoned: true, precisionMs: 1 });
  });

  it('knows the precision and whether an offset was named', () => {
    expect(readServiceInstant('2026-12-01T10:15Z')).toEqual({ ms: Date.parse('2026-12-01T10:15:00Z'), zoned: true, precisionMs: 60_000 });
    expect(readServiceInstant('2026-12-01T10:15:30')).toEqual({ ms: Date.parse('2026-12-01T10:15:30Z'), zoned: false, precisionMs: 1000 });
    expect(readServiceInstant('2026-12-01')).toEqual({ ms: Date.parse('2026-12-01T00:00:00Z'), zoned: false, precisionMs: 86_400_000 });
  });

  it('is no date-time for anything else', () => {
    for (const v of [
      '2026-02-30T10:00:00Z',
      '2026-12-01T24:30:00Z',
      '2026-12-01T10:61Z',
      '2026-12-01T10:00+15:00',
      'soon',
      '',
      '12',
      42,
      true,
      null,
      {},
      1e20,
    ]) {
      expect(readServiceInstant(v), String(v)).toBeUndefined();
    }
  });
});

describe('sameServiceInstant', () => {
  const read = (s: string) => readServiceInstant(s)!;
  it('compares zoned times to the tolerance or the coarser precision', () => {
    expect(sameServiceInstant(read('2026-12-01T10:15:30.250Z'), read('2026-12-01T10:15:31Z'), 1000)).toBe(true);
    expect(sameServiceInstant(read('2026-12-01T10:15:30Z'), read('2026-12-01T10:15Z'), 1000)).toBe(true);
    expect(sameServiceInstant(read('2026-12-01T10:15:30Z'), read('2026-12-01T10:17Z'), 1000)).toBe(false);
  });

  it('takes a wall time without an offset at any quarter-hour offset, and no other time', () => {
    expect(sameServiceInstant(read('2026-12-01T10:15:30Z'), read('2026-12-01T23:30:30'), 1000)).toBe(true);
    expect(sameServiceInstant(read('2026-12-01T10:15:30Z'), read('2026-12-01T02:15:30'), 1000)).toBe(true);
    expect(sameServiceInstant(read('2026-12-01T10:15:30Z'), read('2026-12-01T10:20:30'), 1000)).toBe(false);
    expect(sameServiceInstant(read('2026-12-01T10:15:30Z'), read('2026-12-02T10:15:30'), 1000)).toBe(false);
  });
});

describe('serviceDateTimeSchema', () => {
  it('writes an instant in UTC, keeps a wall time, leaves out what is not a date-time', () => {
    expect(serviceDateTimeSchema.parse('2026-12-01 15:45:30.250+05:30')).toBe('2026-12-01T10:15:30.250Z');
    expect(serviceDateTimeSchema.parse(AT)).toBe('2026-12-01T10:15:30.250Z');
    expect(serviceDateTimeSchema.parse('2026-12-01T15:45+05:30')).toBe('2026-12-01T10:15Z');
    expect(serviceDateTimeSchema.parse('2026-12-01T10:15:30')).toBe('2026-12-01T10:15:30');
    expect(serviceDateTimeSchema.parse('next week')).toBe('next week');
    expect(serviceDateTimeSchema.parse(null)).toBeNull();
    expect(serviceDateTimeSchema.parse({ at: 1 })).toBeUndefined();
    expect(serviceDateTimeSchema.parse(undefined)).toBeUndefined();
  });
});

describe('readServiceDateTime', () => {
  // Every listed campaign's start_date passes here: the shortcut for the canonical form must give
  // what the general reader gives, for any digits in that form (invalid dates, leap seconds, year 0).
  it('gives what the general reader gives for any text in the canonical form, and for others', () => {
    const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
    const canonical = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), two, two, two, two, two, fc.integer({ min: 0, max: 999 }))
      .map(([y, mo, d, h, mi, s, ms]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}.${String(ms).padStart(3, '0')}Z`);
    fc.assert(
      fc.property(canonical, (text) => {
        expect(readServiceDateTime(text)).toBe(readServiceDateTimeByInstant(text));
      }),
      { numRuns: 5000 },
    );
    for (const text of [
      '2026-11-21T09:00:60.000Z',
      '2026-02-30T00:00:00.000Z',
      '2026-11-21T09:00:00Z',
      ' 2026-11-21T09:00:00.000Z',
      '2026-11-21T10:00:00.000+01:00',
    ])
      expect(readServiceDateTime(text)).toBe(readServiceDateTimeByInstant(text));
    expect(readServiceDateTime('2026-12-31T23:59:60.000Z')).toBe('2026-12-31T23:59:59.000Z');
  });
});
