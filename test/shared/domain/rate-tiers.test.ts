// The client's first guess of a budget is the same documented tier the sandbox enforces.
import { describe, expect, it } from 'vitest';
import { documentedGuess } from '../../../src/main/ratelimit/tiers';
import { documentedWindows, SPEC_TIERS } from '../../../src/shared/domain/rate-tiers';

describe('documented rate tiers (spec 8.1)', () => {
  it('create is Tier 2 and list is Tier 4, as seconds, minutes and hours', () => {
    expect(documentedWindows('campaigns', 'write')).toEqual([
      { name: 'second', quota: 10, windowMs: 1_000 },
      { name: 'minute', quota: 60, windowMs: 60_000 },
      { name: 'hour', quota: 600, windowMs: 3_600_000 },
    ]);
    expect(documentedWindows('campaigns.list', 'read')?.map((w) => w.quota)).toEqual([...SPEC_TIERS['4'].read]);
  });

  it('the scheduler starts from that table, and a group the spec shows no limits for from no windows (probed)', () => {
    expect(documentedGuess('campaigns', 'read')).toEqual(documentedWindows('campaigns', 'read'));
    expect(documentedGuess('push', 'write')).toEqual([]);
  });
});
