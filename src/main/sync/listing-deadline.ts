// How long a refresh waits for the unpaged listing to start answering (its headers) before it
// reads the listing in pages instead. A service may build the whole answer before it sends a byte
// (the interface does not say it streams): ours took 16-45 s at 900,000 campaigns before it wrote
// from the first row. Giving up early on such a service is the costly mistake: a million campaigns
// read in pages of 1,000 is a thousand list reads, hours at a small account's list limit, where
// one unpaged answer is a minute. So the wait suits the account and the service:
// - at least the default (LISTING_START_MS);
// - for an account of a known size, enough for a service that builds 10,000 rows a second;
// - twice what the account's last unpaged answer took to start (the service's own pace); and
//   after one that did not start in time, twice the wait it was given, so a slow service is given
//   longer at each refresh until its answer arrives, instead of being read in pages forever;
// - at most LISTING_START_MAX_MS, beyond which a start is taken for a service that hangs.
import type { Clock } from '../clock/clock';
import { ServiceError } from '../service/errors';

/** Default wait for the unpaged listing's headers: a service slower to start is read in pages. */
export const LISTING_START_MS = 15_000;
/** The longest wait, whatever the account's size or the service's pace. */
export const LISTING_START_MAX_MS = 5 * 60_000;
/** Wait per campaign the account is known to hold: a service that builds 10,000 rows a second before answering. */
export const LISTING_START_MS_PER_ROW = 0.1;

/** What a refresh learned of how the account's unpaged listing starts. */
interface Pace {
  /** The wait the next refresh gives it, from the last one's start or timeout. */
  learnedMs: number;
}

const isHeadersTimeout = (e: unknown) => e instanceof ServiceError && e.kind === 'timeout' && e.status === undefined;

export class ListingStartDeadlines {
  readonly #paces = new Map<string, Pace>();

  constructor(private readonly opts: { baseMs?: number; clock: Clock }) {}

  /** The wait for the account's unpaged listing; `rows`: how many campaigns it is known to hold, if known. */
  deadlineMs(key: string, rows: number | null): number {
    const base = this.opts.baseMs ?? LISTING_START_MS;
    const bySize = rows === null ? 0 : rows * LISTING_START_MS_PER_ROW;
    const byPace = this.#paces.get(key)?.learnedMs ?? 0;
    return Math.min(LISTING_START_MAX_MS, Math.max(base, bySize, byPace));
  }

  /**
   * The unpaged listing's parts as they come, timed: how long it took to give its first part (a
   * few milliseconds after its headers), or that its headers did not come within `deadlineMs`.
   */
  async *watch<T>(key: string, deadlineMs: number, parts: AsyncIterable<T>): AsyncGenerator<T, void, void> {
    const { clock } = this.opts;
    const started = clock.now();
    let first = true;
    try {
      for await (const part of parts) {
        if (first) {
          first = false;
          this.#paces.set(key, { learnedMs: 2 * (clock.now() - started) });
        }
        yield part;
      }
    } catch (e) {
      if (first && isHeadersTimeout(e)) this.#paces.set(key, { learnedMs: Math.min(LISTING_START_MAX_MS, 2 * deadlineMs) });
      throw e;
    }
  }
}
