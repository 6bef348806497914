import { describe, expect, it } from 'vitest';
import {
  clockSkewNote,
  describeSchedule,
  msToWall,
  scheduleLabel,
  scheduleZoneWarning,
  timeFixes,
  wallToMs,
} from '../../../src/renderer/forms/schedule';
import { chipValueProblem, countryName, languageName, normalizeChip, parseUserDataValues } from '../../../src/renderer/forms/target-codes';
import { descriptionLengthHint, imageHints } from '../../../src/shared/domain/push';

const TUE_0900_UTC = Date.UTC(2030, 4, 14, 9, 0);

describe('schedule wording', () => {
  it('reads the picker as UTC wall time whatever the machine zone, and back', () => {
    expect(wallToMs('2030-05-14T09:00')).toBe(TUE_0900_UTC);
    expect(msToWall(TUE_0900_UTC)).toBe('2030-05-14T09:00');
    expect(wallToMs('nonsense')).toBeUndefined();
  });

  it('says the UTC time and the manager’s own time with the zone', () => {
    expect(describeSchedule(TUE_0900_UTC, 0, 'Europe/Berlin')).toBe('Tue 14 May, 09:00 UTC (11:00 your time, Europe/Berlin)');
    expect(describeSchedule(TUE_0900_UTC, 0, 'America/New_York')).toBe('Tue 14 May, 09:00 UTC (05:00 your time, America/New_York)');
    // Another day in the manager's zone: the date is given.
    expect(describeSchedule(Date.UTC(2030, 4, 14, 2, 0), 0, 'America/New_York')).toBe(
      'Tue 14 May, 02:00 UTC (Mon 13 May, 22:00 your time, America/New_York)',
    );
  });

  it('says when the first and the last subscribers receive a subscriber-local push', () => {
    expect(describeSchedule(TUE_0900_UTC, 1, 'Europe/Berlin')).toBe(
      "Tue 14 May, 09:00 in each subscriber's time zone: the first receive it at Mon 13 May, 21:00 your time, the last at Tue 14 May, 23:00 (Europe/Berlin)",
    );
  });

  it('offers in 1 hour, tomorrow at the same time, and send now for a past time, on the service clock', () => {
    const serviceNow = Date.UTC(2030, 4, 14, 12, 30, 15);
    const fixes = timeFixes(TUE_0900_UTC, serviceNow);
    expect(fixes.map((f) => f.label)).toEqual(['In 1 hour', 'Tomorrow at 09:00', 'Send now']);
    expect(fixes[0].executionTime).toBe(Date.UTC(2030, 4, 14, 13, 31));
    expect(fixes[1].executionTime).toBe(Date.UTC(2030, 4, 15, 9, 0));
    expect(fixes[2].executionTime).toBeNull();
  });
});

describe('targeting codes', () => {
  it('takes ISO country and language codes with their names, refusing usa and english', () => {
    expect(countryName('de')).toBe('Germany');
    expect(normalizeChip('countries', 'de')).toBe('DE');
    expect(chipValueProblem('countries', 'usa')).toContain('not an ISO 3166 country code');
    expect(chipValueProblem('countries', 'ZZ')).toContain('not an ISO 3166 country code');
    expect(languageName('EN')).toBe('English');
    expect(chipValueProblem('languages', 'english')).toContain('not an ISO 639-1 language code');
    expect(chipValueProblem('regions', 'Bavaria')).toContain('Region ids are numbers');
    expect(chipValueProblem('browsers', '7')).toBeNull();
    // Sent as a JSON number: beyond 2^53 it would become another id, so it is refused, not changed.
    expect(chipValueProblem('os', '9007199254740991')).toBeNull();
    expect(chipValueProblem('os', '9007199254740993')).toBe(
      'OS id 9007199254740993 is too large to be sent exactly (at most 9007199254740991)',
    );
    expect(chipValueProblem('regions', '9007199254740993')).toBeNull();
  });

  it('refuses an empty user_data value instead of dropping it', () => {
    expect(parseUserDataValues('gold, , silver')).toEqual({ problem: 'A user_data value cannot be empty: remove the extra comma' });
    expect(parseUserDataValues('gold, silver')).toEqual({ values: ['gold', 'silver'] });
  });
});

describe('content hints (4.6 note 7)', () => {
  it('hints at description length, https, format, size and dimensions', () => {
    expect(descriptionLengthHint('short')).toContain('100-150');
    expect(descriptionLengthHint('x'.repeat(120))).toBeNull();
    expect(imageHints({ url: 'http://a.example/i.png' }, 'icon')).toEqual([
      'Use an HTTPS address: browsers may not show images over plain HTTP',
    ]);
    expect(imageHints({ url: 'https://a.example/i.gif', format: 'gif', bytes: 300 * 1024, width: 64, height: 48 }, 'icon')).toEqual([
      'JPEG, PNG or WebP are recommended (this one is GIF)',
      'Images under 200 KB are recommended (this one is 300 KB)',
      'A square icon of 192x192 pixels is recommended (this one is 64x48)',
    ]);
    expect(imageHints({ url: 'https://a.example/t.png', format: 'png', bytes: 1000, width: 120, height: 80 }, 'thumbnail')).toEqual([
      'A thumbnail of at least 300x200 pixels is recommended (this one is 120x80)',
    ]);
    expect(imageHints({ url: 'https://a.example/t.png', format: 'png', bytes: 1000, width: 300, height: 200 }, 'thumbnail')).toEqual([]);
  });
});

describe('a scheduled time wherever it is shown', () => {
  it("keeps a subscriber's-time push as its wall time with its date, and a UTC one as UTC beside the manager's own time", () => {
    expect(scheduleLabel(TUE_0900_UTC, 1, 'Europe/Berlin')).toBe("Tue 14 May, 09:00 in each subscriber's time zone");
    expect(scheduleLabel(TUE_0900_UTC, 0, 'Europe/Berlin')).toBe('Tue 14 May, 09:00 UTC (11:00 your time)');
  });

  it("warns of zones already past only for a subscriber's-time schedule, and names a skew of a minute or more", () => {
    const value = { mode: 'scheduled', executionLocal: '2030-05-14T09:00', userTimeZone: 1 };
    expect(scheduleZoneWarning(value, TUE_0900_UTC - 10 * 3_600_000)).toContain('UTC+14 to UTC+10 will miss it');
    expect(scheduleZoneWarning({ ...value, userTimeZone: 0 }, TUE_0900_UTC - 10 * 3_600_000)).toBeNull();
    expect(clockSkewNote(-600_000)).toContain('10 min behind');
    expect(clockSkewNote(30_000)).toBeNull();
  });
});
