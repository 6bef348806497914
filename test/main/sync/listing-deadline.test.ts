import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/main/clock/clock';
import { ServiceError } from '../../../src/main/service/errors';
import { LISTING_START_MAX_MS, LISTING_START_MS, ListingStartDeadlines } from '../../../src/main/sync/listing-deadline';

// How long a refresh waits for the unpaged listing's headers (listing-deadline.ts); the refresh
// itself against a slow sandbox is in refresh-listing.test.ts.
const headersTimeout = () => new ServiceError({ kind: 'timeout', requestWritten: true, message: 'did not answer in time' });

async function drain(parts: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of parts) void _;
}

describe('the wait for an unpaged listing to start', () => {
  it('is the default for an account of unknown or modest size, and grows with a large one up to a bound', () => {
    const d = new ListingStartDeadlines({ clock: new ManualClock(0) });
    expect(d.deadlineMs('a', null)).toBe(LISTING_START_MS);
    expect(d.deadlineMs('a', 10_000)).toBe(LISTING_START_MS);
    // A service that builds 10,000 rows a second before it answers.
    expect(d.deadlineMs('a', 1_000_000)).toBe(100_000);
    expect(d.deadlineMs('a', 50_000_000)).toBe(LISTING_START_MAX_MS);
  });

  it("is twice what the account's last answer took to start", async () => {
    const clock = new ManualClock(0);
    const d = new ListingStartDeadlines({ clock });
    async function* slow() {
      clock.advance(40_000);
      yield 'first part';
      clock.advance(60_000);
      yield 'second part';
    }
    await drain(d.watch('a', 50_000, slow()));
    expect(d.deadlineMs('a', null)).toBe(80_000);
    // Another account's pace is its own.
    expect(d.deadlineMs('b', null)).toBe(LISTING_START_MS);
  });

  it('doubles after an answer whose headers did not come in time, and not after another failure', async () => {
    const d = new ListingStartDeadlines({ clock: new ManualClock(0), baseMs: 300 });
    async function* failing(e: Error): AsyncGenerator<string> {
      yield* [];
      throw e;
    }
    await expect(drain(d.watch('a', 300, failing(headersTimeout())))).rejects.toThrow('did not answer in time');
    expect(d.deadlineMs('a', null)).toBe(600);
    await expect(drain(d.watch('a', 600, failing(headersTimeout())))).rejects.toThrow();
    expect(d.deadlineMs('a', null)).toBe(1200);
    // A refused or cut answer says nothing of how long the service takes to start.
    const refused = new ServiceError({ kind: 'validation', requestWritten: true, status: 400, message: 'no' });
    await expect(drain(d.watch('a', 1200, failing(refused)))).rejects.toThrow('no');
    expect(d.deadlineMs('a', null)).toBe(1200);
  });
});
