// The service's clock, learned from the `Date` header of its answers (DECISIONS client 10).
// Wherever the client compares a time with one the service made (a scheduled time "in the
// future", when an immediate push ran, how long ago a request was sent), it must use this clock:
// the computer's may be minutes off, and then a match fails and a change is sent twice.
//
// A Date header has one-second resolution (RFC 9110 5.6.7) and is written somewhere between the
// moment the request left and the moment its answer arrived. One answer therefore bounds the
// offset (service minus local) to an interval:
//     date - receivedAt  <=  offset  <  date + 1000 - sentAt
// A quick round trip gives a narrow interval, a slow one a wide one. The estimate is the middle of
// the intersection of the most recent intervals that agree with each other, newest first: quick
// round trips narrow it, slow ones cannot pull it away, and when the service's clock is set anew
// (the newest interval no longer meets the older ones) the old ones are dropped at once.
import { parseHttpDate } from '../ratelimit/headers';

/** A date that names its zone (GMT, UTC, Z or a numeric offset): it means one instant wherever it is read. */
const NAMES_ITS_ZONE = /(?:\b(?:GMT|UTC)|\dZ|[+-]\d{2}:?\d{2})$/i;

/**
 * The instant of a Date header. It is an HTTP-date in any of its three forms (RFC 9110 5.6.7:
 * every recipient must accept the obsolete ones), read by the one HTTP-date reader: asctime's form
 * names no zone and is UTC, which Date.parse would read as this computer's local time, hours off.
 * A date forwarded from elsewhere in another spelling is taken only when it names its zone.
 */
function readDateHeader(text: string): number | undefined {
  const http = parseHttpDate(text);
  if (http !== undefined) return http;
  const other = NAMES_ITS_ZONE.test(text) ? Date.parse(text) : NaN;
  return Number.isFinite(other) ? other : undefined;
}

/** How many recent answers the estimate draws on. */
const SAMPLES_KEPT = 16;
/** The Date header's resolution. */
const DATE_RESOLUTION_MS = 1000;
/** A Date header this far from the local clock is not believed (a broken proxy, a typo'd year). */
const MAX_BELIEVABLE_OFFSET_MS = 366 * 24 * 3600_000;
/**
 * The window is told of a new offset only when it moved this much: each answer narrows the estimate
 * by a few ms, and the window judges times to the minute, so smaller moves are not worth an event.
 */
const REPORT_STEP_MS = 500;

interface Sample {
  /** Smallest offset this answer allows. */
  lo: number;
  /** Largest offset this answer allows (exclusive). */
  hi: number;
}

export class ServiceClock {
  readonly #local: () => number;
  /** Newest last. */
  readonly #samples: Sample[] = [];
  #estimate: { offset: number; halfWidth: number } | null = null;
  readonly #onOffset: ((offsetMs: number) => void) | undefined;
  #reported: number | null = null;

  /**
   * `local`: the computer's clock as the rest of the client sees it (injected in tests).
   * `onOffset`: told the offset when it is first learned and whenever it moves noticeably, so the
   * window judges times on the same clock as main.
   */
  constructor(local: () => number, onOffset?: (offsetMs: number) => void) {
    this.#local = local;
    this.#onOffset = onOffset;
  }

  /**
   * Learns from one answer: when its request left and its answer arrived (local clock), and its
   * Date header (absent or unreadable headers teach nothing).
   */
  observe(sentAt: number, receivedAt: number, dateHeader: string | readonly string[] | undefined): void {
    const raw = Array.isArray(dateHeader) ? dateHeader[0] : dateHeader;
    if (typeof raw !== 'string' || raw.trim() === '') return;
    const date = readDateHeader(raw.trim());
    if (date === undefined || receivedAt < sentAt) return;
    if (Math.abs(date - receivedAt) > MAX_BELIEVABLE_OFFSET_MS) return;
    this.#samples.push({ lo: date - receivedAt, hi: date + DATE_RESOLUTION_MS - sentAt });
    if (this.#samples.length > SAMPLES_KEPT) this.#samples.shift();
    this.#estimate = this.#intersect();
    const offset = this.#estimate?.offset;
    if (offset !== undefined && (this.#reported === null || Math.abs(offset - this.#reported) >= REPORT_STEP_MS)) {
      this.#reported = offset;
      this.#onOffset?.(offset);
    }
  }

  #intersect(): { offset: number; halfWidth: number } | null {
    let lo = -Infinity;
    let hi = Infinity;
    for (let i = this.#samples.length - 1; i >= 0; i--) {
      const s = this.#samples[i];
      const nextLo = Math.max(lo, s.lo);
      const nextHi = Math.min(hi, s.hi);
      // An older answer that disagrees with the newer ones: the service's clock was set anew
      // since (or that answer came through something slow we cannot see); forget it and older.
      if (nextLo >= nextHi) {
        this.#samples.splice(0, i + 1);
        break;
      }
      lo = nextLo;
      hi = nextHi;
    }
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) return null;
    return { offset: Math.round((lo + hi) / 2), halfWidth: Math.ceil((hi - lo) / 2) };
  }

  /** Service minus local time in ms, or null before the service has answered with a Date header. */
  offsetMs(): number | null {
    return this.#estimate?.offset ?? null;
  }

  /** How far the estimate may be off (ms); null while nothing is known. */
  uncertaintyMs(): number | null {
    return this.#estimate?.halfWidth ?? null;
  }

  /** The service's time now: the local clock moved by the learned offset (by none before the first answer). */
  now(): number {
    return this.#local() + (this.#estimate?.offset ?? 0);
  }
}
