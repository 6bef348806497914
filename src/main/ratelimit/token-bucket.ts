// One window pictured as a token bucket: `q` tokens that come back at q/w per second, one taken
// per admitted request. We keep a lower bound of the tokens the server holds, never more:
// - the server's `r` (whole tokens left) and `t` (seconds until full) right after it decided one
//   of our requests each bound its level from below; we keep the best bound, carried forward by
//   the refill rate, so that the fraction `r` rounds away is not lost at every answer;
// - our own requests are taken off at the latest moment they can have been counted (their
//   answer's arrival, or now while in flight): a later take wastes more refill against the cap,
//   so this is the lowest level the server can have if nobody else spends the budget;
// - when the server reports less than that (another device spent tokens), its report wins.
import type { RemainingEntry } from './headers';
import type { WindowPolicy } from './policy';
import type { WindowSim } from './sliding-log';

/** What we know about the request whose answer carried a report. */
export interface ReportContext {
  /** When that request left (our clock). */
  sentAt: number;
  /** Our other requests still in flight: the server may have counted them already. */
  inFlight: number;
  /** Our requests answered while it was in flight: the server may have counted them after it. */
  answeredMeanwhile: number;
}

/**
 * A wait in whole milliseconds, rounded up so that a timer never fires before the token is back;
 * a float error far below a millisecond does not round a whole-millisecond wait up by one.
 */
function wholeMsUntil(ms: number): number {
  return Math.max(0, Math.ceil(ms - 1e-6));
}

export class TokenBucketEstimate {
  /** Lower bound of the tokens at `#at`, every answered request of ours taken off. */
  #lo: number;
  #at: number;

  constructor(
    public policy: WindowPolicy,
    now: number,
    private readonly marginMs: number,
  ) {
    // Nothing known yet: empty, refilling. The answer that taught the policy corrects it at once.
    this.#lo = 0;
    this.#at = now;
  }

  /** Tokens per millisecond. */
  get #rate(): number {
    return this.policy.quota / this.policy.windowMs;
  }

  /** Lower bound of the tokens at `now` before our requests in flight are taken off. */
  levelAt(now: number): number {
    const q = this.policy.quota;
    return Math.min(q, this.#lo + Math.max(0, now - this.#at) * this.#rate);
  }

  /** One of our requests was counted (or may have been), at the latest now. */
  take(now: number): void {
    this.#lo = this.levelAt(now) - 1;
    this.#at = Math.max(this.#at, now);
  }

  /**
   * The server's `r` and `t` for this window right after it decided one of our requests, read
   * at `now`. Its level then lies in [low, high): `r` is whole tokens (floor), `t` whole seconds
   * until full (any rounding, so one second either way is allowed).
   */
  report(now: number, entry: RemainingEntry, ctx: ReportContext): void {
    const q = this.policy.quota;
    const perSecond = q / (this.policy.windowMs / 1000);
    let low = entry.remaining;
    let high = entry.remaining + 1;
    if (entry.resetS !== undefined) {
      low = Math.max(low, q - (entry.resetS + 1) * perSecond);
      if (entry.resetS >= 2) high = Math.min(high, q - (entry.resetS - 2) * perSecond);
    }
    // Requests answered meanwhile may have been counted after this report; ours in flight may
    // have been counted before it (they are taken off again when predicting) and refill went on
    // while the answer travelled.
    const floor = Math.min(q, low) - ctx.answeredMeanwhile;
    const ceiling = high + Math.max(0, now - ctx.sentAt) * this.#rate + ctx.inFlight;
    const carried = this.levelAt(now);
    // Carried forward from earlier answers, the bound is sharper than one report, unless the
    // server says there is less than it: then someone else spent tokens, and the report wins.
    this.#lo = carried >= ceiling ? floor : Math.max(carried, floor);
    this.#at = Math.max(this.#at, now);
  }

  /** Earliest time one more request fits with `inFlight` of ours still unanswered; Infinity when only answers can help. */
  fitTime(now: number, inFlight: number): number {
    const need = 1 + inFlight;
    if (need > this.policy.quota) return Infinity;
    if (this.levelAt(now) >= need) return now;
    return now + wholeMsUntil((need - this.#lo) / this.#rate - (now - this.#at) + this.marginMs);
  }

  /** Until the bucket is full again; null while requests are in flight. */
  resetIn(now: number, inFlight: number): number | null {
    if (inFlight > 0) return null;
    return Math.ceil((this.policy.quota - this.levelAt(now)) / this.#rate);
  }

  /** Tokens that cannot be used now (the quota minus whole tokens left after our requests in flight). */
  used(now: number, inFlight: number): number {
    return this.policy.quota - Math.max(0, Math.floor(this.levelAt(now) - inFlight));
  }

  simulation(now: number, inFlight: number): WindowSim {
    return new BucketSim(this.policy.quota, this.#rate, this.levelAt(now) - inFlight, now, this.marginMs);
  }
}

class BucketSim implements WindowSim {
  constructor(
    private readonly quota: number,
    private readonly rate: number,
    private level: number,
    private at: number,
    private readonly marginMs: number,
  ) {}

  #levelAt(t: number): number {
    return Math.min(this.quota, this.level + Math.max(0, t - this.at) * this.rate);
  }

  fit(t: number): number {
    if (this.quota < 1) return Infinity;
    if (this.#levelAt(t) >= 1) return t;
    return t + wholeMsUntil((1 - this.level) / this.rate - (t - this.at) + this.marginMs);
  }

  admit(t: number): void {
    this.level = this.#levelAt(t) - 1;
    this.at = Math.max(this.at, t);
  }
}
