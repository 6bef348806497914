// The sliding-log limiter against a naive model of DECISIONS sandbox 4, on random request timings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fixtures } from '../../src/sandbox/fixtures';
import { RateLimiter } from '../../src/sandbox/rate-limiter';

const WINDOWS_MS = [1000, 5000, 20000];
const QUOTAS = [3, 6, 10];

const fixtures: Fixtures = {
  accounts: [{ account_id: 'a', name: 'A', type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z' }],
  clients: [],
  rate_limits: {
    windows: { second: 1, minute: 5, hour: 20 },
    tiers: { '9': { read: [3, 6, 10], write: [3, 6, 10] } },
    endpoint_tiers: { 'campaigns.list': 9 },
  },
};

/** The model: a request fits at `t` if every window holds fewer admitted requests than its quota. */
function fits(admitted: number[], t: number): boolean {
  return WINDOWS_MS.every((w, i) => admitted.filter((a) => a > t - w).length < QUOTAS[i]);
}

/** Smallest wait (ms) after which the request fits: only expiry instants can change the answer. */
function modelWait(admitted: number[], now: number): number {
  const candidates = [0, ...admitted.flatMap((a) => WINDOWS_MS.map((w) => a + w - now))].filter((d) => d >= 0).sort((x, y) => x - y);
  return candidates.find((d) => fits(admitted, now + d))!;
}

function parseState(header: string): { r: number; t: number }[] {
  return header.split(', ').map((part) => {
    const m = /^\w+;r=(\d+);t=(\d+)$/.exec(part)!;
    return { r: Number(m[1]), t: Number(m[2]) };
  });
}

describe('RateLimiter (sliding logs)', () => {
  it('admits exactly what the model admits, with r, t and Retry-After as the model says', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 1, maxLength: 80 }), (gaps) => {
        const limiter = new RateLimiter(fixtures);
        const admitted: number[] = [];
        let now = 1_800_000_000_000;
        for (const gap of gaps) {
          now += gap;
          const expectFit = fits(admitted, now);
          const wait = expectFit ? 0 : modelWait(admitted, now);
          const d = limiter.check('a', 'campaigns.list', 'read', now);
          expect(d.admitted).toBe(expectFit);
          if (d.admitted) admitted.push(now);
          const state = parseState(String(d.headers.ratelimit));
          WINDOWS_MS.forEach((w, i) => {
            const inWindow = admitted.filter((a) => a > now - w);
            expect(state[i].r).toBe(QUOTAS[i] - inWindow.length);
            const newest = inWindow.length === 0 ? undefined : Math.max(...inWindow);
            expect(state[i].t).toBe(newest === undefined ? 0 : Math.ceil((newest + w - now) / 1000));
          });
          if (d.admitted) {
            expect(d.headers['retry-after']).toBeUndefined();
            expect(d.violated).toEqual([]);
          } else {
            expect(d.headers['retry-after']).toBe(String(Math.max(1, Math.ceil(wait / 1000))));
            const names = ['second', 'minute', 'hour'];
            const expected = names.filter((_, i) => admitted.filter((a) => a > now - WINDOWS_MS[i]).length >= QUOTAS[i]);
            expect(d.violated).toEqual(expected);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never lets more than the quota through any window', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 150 }), (gaps) => {
        const limiter = new RateLimiter(fixtures);
        const admitted: number[] = [];
        let now = 0;
        for (const gap of gaps) {
          now += gap;
          if (limiter.check('a', 'campaigns.list', 'read', now).admitted) admitted.push(now);
          WINDOWS_MS.forEach((w, i) => expect(admitted.filter((a) => a > now - w).length).toBeLessThanOrEqual(QUOTAS[i]));
        }
      }),
      { numRuns: 200 },
    );
  });
});
