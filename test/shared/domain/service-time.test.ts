import { describe, expect, it } from 'vitest';
import { serviceTime, zoneName, zonesMissing, zonesMissingWarning } from '../../../src/shared/domain/service-time';
import { ServiceClock } from '../../../src/main/service/service-clock';

const H = 3_600_000;
const WALL_0800 = Date.UTC(2026, 10, 28, 8, 0);

describe("the service's now", () => {
  it("is the computer's clock moved by the learned offset, and the computer's own before anything is learned", () => {
    expect(serviceTime(1_000_000, -600_000)).toBe(400_000);
    expect(serviceTime(1_000_000, null)).toBe(1_000_000);
    expect(serviceTime(1_000_000, undefined)).toBe(1_000_000);
  });

  it('tells its listener the offset when first learned and when it moves half a second or more, not on every narrowing', () => {
    let local = 10_000_000;
    const told: number[] = [];
    const clock = new ServiceClock(
      () => local,
      (o) => told.push(o),
    );
    const date = (ms: number) => new Date(ms).toUTCString();
    clock.observe(local - 100, local, date(local - 600_000));
    expect(told).toHaveLength(1);
    expect(told[0]).toBeGreaterThan(-601_000);
    expect(told[0]).toBeLessThan(-599_000);
    local += 5_000;
    clock.observe(local - 10, local, date(local - 600_000));
    expect(told).toHaveLength(1);
    // The service's clock set anew: told at once.
    local += 5_000;
    clock.observe(local - 10, local, date(local + 600_000));
    expect(told).toHaveLength(2);
    expect(Math.abs(told[1] - 600_000)).toBeLessThan(1_000);
  });
});

describe("a push in each subscriber's own time zone", () => {
  it('names zones as people write them', () => {
    expect([14, 5.75, 0, -3.5, -12].map(zoneName)).toEqual(['UTC+14', 'UTC+5:45', 'UTC', 'UTC-3:30', 'UTC-12']);
  });

  it('is missed first by UTC+14, which reaches the wall time 14 hours before UTC does', () => {
    expect(zonesMissing(WALL_0800, WALL_0800 - 14 * H - 1)).toEqual([]);
    expect(zonesMissing(WALL_0800, WALL_0800 - 14 * H)).toEqual([14]);
    expect(zonesMissing(WALL_0800, WALL_0800 - 3.5 * H - 1).at(-1)).toBe(4);
    expect(zonesMissing(WALL_0800, WALL_0800 - 3.5 * H).at(-1)).toBe(3.5);
  });

  it('says in words which zones miss it, or that all do, or nothing when none do', () => {
    expect(zonesMissingWarning(WALL_0800, WALL_0800 - 15 * H)).toBeNull();
    expect(zonesMissingWarning(WALL_0800, WALL_0800 - 13.5 * H)).toBe(
      'Subscribers in UTC+14 will miss it: 08:00 has already passed there. The rest get it at 08:00 their time.',
    );
    expect(zonesMissingWarning(WALL_0800, WALL_0800 - 3.5 * H - 1)).toContain('Subscribers in UTC+14 to UTC+4 will miss it');
    expect(zonesMissingWarning(WALL_0800, WALL_0800 + 12 * H)).toBe(
      '08:00 has already passed in every time zone: no subscriber would get it.',
    );
  });
});
