// The limiter against naive models of its two refill rules (sliding logs, DECISIONS sandbox 4, and
// token buckets) on random request timings, and the spellings of its headers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fixtures } from '../../src/sandbox/fixtures';
import { parseRateLimit, parseRateLimitPolicy } from '../../src/main/ratelimit/headers';
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

/** The token-bucket reading of spec 8.1 rule 4, written plainly: tokens as exact fractions of 1/w_ms. */
class BucketModel {
  // levels[i] / WINDOWS_MS[i] tokens; q tokens come back per window length, so q units per ms.
  levels = QUOTAS.map((q, i) => q * WINDOWS_MS[i]);
  at: number | undefined;

  decide(now: number): { admitted: boolean; r: number[]; t: number[]; waitMs: number; violated: string[] } {
    if (this.at !== undefined) {
      const elapsed = now - this.at;
      this.levels = this.levels.map((l, i) => Math.min(QUOTAS[i] * WINDOWS_MS[i], l + elapsed * QUOTAS[i]));
    }
    this.at = now;
    const hasToken = this.levels.map((l, i) => l >= WINDOWS_MS[i]);
    const admitted = hasToken.every(Boolean);
    if (admitted) this.levels = this.levels.map((l, i) => l - WINDOWS_MS[i]);
    const msUntil = (units: number, i: number) => Math.ceil(units / QUOTAS[i]);
    return {
      admitted,
      r: this.levels.map((l, i) => Math.floor(l / WINDOWS_MS[i])),
      t: this.levels.map((l, i) => Math.ceil(msUntil(QUOTAS[i] * WINDOWS_MS[i] - l, i) / 1000)),
      waitMs: Math.max(0, ...this.levels.map((l, i) => (l >= WINDOWS_MS[i] ? 0 : msUntil(WINDOWS_MS[i] - l, i)))),
      violated: admitted ? [] : ['second', 'minute', 'hour'].filter((_, i) => !hasToken[i]),
    };
  }
}

describe('RateLimiter (token buckets)', () => {
  it('admits exactly what the bucket model admits, with r, t and Retry-After as it says', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 1, maxLength: 80 }), (gaps) => {
        const limiter = new RateLimiter(fixtures, { windows: 'token_bucket' });
        const model = new BucketModel();
        let now = 1_800_000_000_000;
        for (const gap of gaps) {
          now += gap;
          const expected = model.decide(now);
          const d = limiter.check('a', 'campaigns.list', 'read', now);
          expect(d.admitted).toBe(expected.admitted);
          expect(parseState(String(d.headers.ratelimit))).toEqual(expected.r.map((r, i) => ({ r, t: expected.t[i] })));
          expect(d.violated).toEqual(expected.violated);
          expect(d.headers['retry-after']).toBe(d.admitted ? undefined : String(Math.max(1, Math.ceil(expected.waitMs / 1000))));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refills continuously: a token is back after w/q, not after a whole window', () => {
    const limiter = new RateLimiter(fixtures, { windows: 'token_bucket' });
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.check('a', 'campaigns.list', 'read', t0).admitted).toBe(true);
    // The second window (3 per 1 s) is empty; one token comes back every 333.3 ms.
    const refused = limiter.check('a', 'campaigns.list', 'read', t0 + 333);
    expect(refused.admitted).toBe(false);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers.ratelimit).toBe('second;r=0;t=1, minute;r=3;t=3, hour;r=7;t=6');
    const ok = limiter.check('a', 'campaigns.list', 'read', t0 + 334);
    expect(ok.admitted).toBe(true);
    // Under sliding logs the same request waits until the first one leaves, 1 s after it.
    const log = new RateLimiter(fixtures);
    for (let i = 0; i < 3; i++) log.check('a', 'campaigns.list', 'read', t0);
    expect(log.check('a', 'campaigns.list', 'read', t0 + 334).admitted).toBe(false);
  });

  it('never admits more than q plus what refills in any stretch of time, and keeps rejected requests out', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 150 }), (gaps) => {
        const limiter = new RateLimiter(fixtures, { windows: 'token_bucket' });
        const admitted: number[] = [];
        let now = 0;
        for (const gap of gaps) {
          now += gap;
          if (limiter.check('a', 'campaigns.list', 'read', now).admitted) admitted.push(now);
        }
        for (let a = 0; a < admitted.length; a++) {
          for (let b = a; b < admitted.length; b++) {
            const n = b - a + 1;
            const span = admitted[b] - admitted[a];
            WINDOWS_MS.forEach((w, i) => expect(n).toBeLessThanOrEqual(QUOTAS[i] + (span * QUOTAS[i]) / w));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('RateLimiter header spellings', () => {
  const spelled = (header_spelling: 'quoted' | 'reordered' | 'multiple_fields') => {
    const limiter = new RateLimiter(fixtures, { header_spelling });
    limiter.check('a', 'campaigns.list', 'read', 0);
    return limiter.check('a', 'campaigns.list', 'read', 0).headers;
  };

  it('quoted: names as sf-strings, the state with t before r', () => {
    expect(spelled('quoted')).toEqual({
      'ratelimit-policy': '"second";q=3;w=1, "minute";q=6;w=5, "hour";q=10;w=20',
      ratelimit: '"second";t=1;r=1, "minute";t=5;r=4, "hour";t=20;r=8',
    });
  });

  it('reordered: longest window first, w before q and t before r, an unknown parameter, other field-name case', () => {
    const note = 'note="refills continuously; per account, group and budget"';
    expect(spelled('reordered')).toEqual({
      'RateLimit-Policy': `hour;w=20;q=10;${note}, minute;w=5;q=6;${note}, second;w=1;q=3;${note}`,
      RateLimit: `hour;t=20;r=8;${note}, minute;t=5;r=4;${note}, second;t=1;r=1;${note}`,
    });
  });

  it('multiple_fields: one field line per window', () => {
    expect(spelled('multiple_fields')).toEqual({
      'ratelimit-policy': ['second;q=3;w=1', 'minute;q=6;w=5', 'hour;q=10;w=20'],
      ratelimit: ['second;r=1;t=1', 'minute;r=4;t=5', 'hour;r=8;t=20'],
    });
  });

  it('every spelling reads back, with the client parser, as the plain one', () => {
    const plain = new RateLimiter(fixtures);
    plain.check('a', 'campaigns.list', 'read', 0);
    const expected = plain.check('a', 'campaigns.list', 'read', 0).headers;
    const read = (h: Record<string, unknown>, name: string) => {
      const key = Object.keys(h).find((k) => k.toLowerCase() === name);
      const v = key === undefined ? undefined : h[key];
      return typeof v === 'string' || Array.isArray(v) ? (v as string | string[]) : undefined;
    };
    const byName = <T extends { name: string }>(xs: T[]) => [...xs].sort((x, y) => x.name.localeCompare(y.name));
    for (const s of ['quoted', 'reordered', 'multiple_fields'] as const) {
      const h = spelled(s);
      expect(byName(parseRateLimitPolicy(read(h, 'ratelimit-policy')))).toEqual(
        byName(parseRateLimitPolicy(read(expected, 'ratelimit-policy'))),
      );
      expect(byName(parseRateLimit(read(h, 'ratelimit')))).toEqual(byName(parseRateLimit(read(expected, 'ratelimit'))));
      expect(parseRateLimitPolicy(read(h, 'ratelimit-policy'))).toHaveLength(3);
    }
  });
});

describe('RateLimiter Retry-After as an HTTP-date', () => {
  it('is the first whole second on the service clock at which the request fits', () => {
    const limiter = new RateLimiter(fixtures, { retry_after_date: true });
    const now = Date.parse('2026-11-21T09:00:00.700Z');
    for (let i = 0; i < 3; i++) limiter.check('a', 'campaigns.list', 'read', now);
    // Room again at 09:00:01.700: the date is 09:00:02, never a moment early.
    const r = limiter.check('a', 'campaigns.list', 'read', now + 100);
    expect(r.admitted).toBe(false);
    expect(r.headers['retry-after']).toBe('Sat, 21 Nov 2026 09:00:02 GMT');
  });
});
