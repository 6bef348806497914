// The service's clock as the client learns it from Date headers (DECISIONS client 10): one-second
// headers, round trips of any length, a service whose clock is set anew. Pure: times are given.
import { describe, expect, it } from 'vitest';
import { ServiceClock } from '../../../src/main/service/service-clock';

const T = Date.parse('2026-11-21T09:00:00.000Z');
const httpDate = (ms: number) => new Date(ms).toUTCString();

function clockAt(local: { now: number }) {
  return new ServiceClock(() => local.now);
}

describe('ServiceClock', () => {
  it('is our own clock until the service has answered with a Date header', () => {
    const local = { now: T };
    const c = clockAt(local);
    expect(c.offsetMs()).toBeNull();
    expect(c.now()).toBe(T);
    c.observe(T, T + 5, undefined);
    c.observe(T, T + 5, 'not a date');
    c.observe(T, T + 5, httpDate(T + 400 * 24 * 3600_000)); // a year off: not believed
    expect(c.offsetMs()).toBeNull();
  });

  it('learns a service 10 minutes behind to within a second from one quick answer', () => {
    const local = { now: T + 250 };
    const c = clockAt(local);
    const offset = -600_000;
    // The answer was written 100 ms after the request left; the header drops the milliseconds.
    c.observe(T + 200, T + 250, httpDate(T + 300 + offset));
    expect(Math.abs((c.offsetMs() ?? 0) - offset)).toBeLessThan(1000);
    expect(Math.abs(c.now() - (local.now + offset))).toBeLessThan(1000);
  });

  it('narrows with answers at other sub-second moments, and a slow answer cannot pull it away', () => {
    const c = clockAt({ now: T });
    const offset = 7 * 60_000 + 437;
    for (let i = 0; i < 10; i++) {
      const sent = T + i * 1_000 + i * 97;
      c.observe(sent, sent + 20, httpDate(sent + 10 + offset));
    }
    expect(Math.abs((c.offsetMs() ?? 0) - offset)).toBeLessThanOrEqual(100);
    const before = c.offsetMs();
    // Eight seconds in flight: the service wrote it at any moment in between.
    c.observe(T + 20_000, T + 28_000, httpDate(T + 27_000 + offset));
    expect(c.offsetMs()).toBe(before);
    expect(c.uncertaintyMs()).toBeLessThanOrEqual(100);
  });

  it('follows a service whose clock was set anew, forgetting what no longer agrees', () => {
    const c = clockAt({ now: T });
    for (let i = 0; i < 5; i++) c.observe(T + i * 1000, T + i * 1000 + 10, httpDate(T + i * 1000 + 5 - 600_000));
    expect(Math.abs((c.offsetMs() ?? 0) + 600_000)).toBeLessThan(1000);
    c.observe(T + 10_000, T + 10_010, httpDate(T + 10_005 + 120_000));
    expect(Math.abs((c.offsetMs() ?? 0) - 120_000)).toBeLessThan(1000);
  });
});
