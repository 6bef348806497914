// One window pictured as a sliding log (DECISIONS sandbox 4: a request counts for `w` after it was
// admitted). The picture must never be more optimistic than the server's, so every doubt is
// resolved towards "still counted":
// - a request counts from the moment we send it; once answered it counts until the answer's
//   arrival + w (+ a margin), which is never earlier than the server's admission + w;
// - the server's `r` is authoritative: it adds "phantom" entries for requests we did not make
//   (another device, a request before we started) and drops entries the server has forgotten.
import type { RemainingEntry } from './headers';
import type { WindowPolicy } from './policy';

export interface LogEntry {
  /** Request attempt id; phantoms have none. */
  id: number | null;
  /**
   * When its answer came, in the budget's order of events (sends and answers); null while in
   * flight. An order, not a time: on a millisecond clock an answer and a send often share one.
   */
  answeredSeq: number | null;
  /** null while in flight: it counts until we hear back. */
  expiresAt: number | null;
}

export class SlidingLogWindow {
  entries: LogEntry[] = [];
  constructor(
    public policy: WindowPolicy,
    private readonly marginMs: number,
  ) {}

  live(now: number): LogEntry[] {
    this.entries = this.entries.filter((e) => e.expiresAt === null || e.expiresAt > now);
    return this.entries;
  }

  /** Earliest time at which one more request fits; Infinity when only an answer can help. */
  fitTime(now: number): number {
    const live = this.live(now);
    if (this.policy.quota <= 0) {
      // A window that allows nothing: probe again once it has emptied (the 429's Retry-After
      // paces the probes) rather than wait forever for an answer no request will bring.
      return live.reduce((m, e) => Math.max(m, e.expiresAt ?? Infinity), now);
    }
    const excess = live.length + 1 - this.policy.quota;
    if (excess <= 0) return now;
    const known = live.filter((e) => e.expiresAt !== null).map((e) => e.expiresAt as number);
    if (known.length < excess) return Infinity;
    known.sort((a, b) => a - b);
    return known[excess - 1];
  }

  /** Until the window is back to its full quota; null while requests are in flight. */
  resetIn(now: number): number | null {
    const live = this.live(now);
    if (live.some((e) => e.expiresAt === null)) return null;
    return live.reduce((m, e) => Math.max(m, e.expiresAt as number), now) - now;
  }

  add(id: number): void {
    this.entries.push({ id, answeredSeq: null, expiresAt: null });
  }

  remove(id: number): void {
    this.entries = this.entries.filter((e) => e.id !== id);
  }

  /** Answered (or of unknown fate) as event `seq`: counts until now + w. */
  complete(id: number, now: number, seq: number): void {
    for (const e of this.entries) {
      if (e.id === id) {
        e.answeredSeq = seq;
        e.expiresAt = now + this.policy.windowMs + this.marginMs;
      }
    }
  }

  /**
   * The server counted `quota - r` requests when it answered request `id`, sent as event
   * `sentSeq`. Entries it surely counted (answered before `id` was sent, and `id` itself) are set
   * A; entries racing with `id` (in flight, or answered meanwhile) may or may not be in its
   * count: set B. `seq` is the event of this answer.
   */
  reconcile(id: number, sentSeq: number, seq: number, now: number, r: RemainingEntry): void {
    const serverUsed = Math.max(0, this.policy.quota - r.remaining);
    const live = this.live(now);
    const a = live.filter((e) => e.id === id || (e.answeredSeq !== null && e.answeredSeq < sentSeq));
    const b = live.length - a.length;
    if (serverUsed < a.length) {
      // The server has forgotten some of them already: drop the oldest, they expire first.
      const drop = new Set(
        a
          .slice()
          .sort((x, y) => (x.expiresAt ?? Infinity) - (y.expiresAt ?? Infinity))
          .slice(0, a.length - serverUsed),
      );
      this.entries = this.entries.filter((e) => !drop.has(e));
    } else if (serverUsed > a.length + b) {
      // Requests we did not make. We only know when the newest of them leaves (t), so all of
      // them are assumed to leave then: never earlier than on the server.
      const expiresAt = now + (r.resetS !== undefined ? r.resetS * 1000 : this.policy.windowMs) + this.marginMs;
      for (let i = a.length + b; i < serverUsed; i++) {
        this.entries.push({ id: null, answeredSeq: seq, expiresAt });
      }
    }
  }

  /** A copy to play a queue forward on (drain estimates). */
  simulation(now: number): WindowSim {
    const windowMs = this.policy.windowMs + this.marginMs;
    // Expiries in ascending order; new admissions are appended and stay sorted because time
    // never goes back in a simulation.
    const old = this.live(now)
      .map((e) => e.expiresAt ?? now + windowMs)
      .sort((x, y) => x - y);
    return new LogSim(this.policy.quota, windowMs, old);
  }
}

/** A window played forward: when would one more request fit, and take it. */
export interface WindowSim {
  fit(t: number): number;
  admit(t: number): void;
}

class LogSim implements WindowSim {
  readonly #added: number[] = [];
  #oi = 0;
  #ai = 0;

  constructor(
    private readonly quota: number,
    private readonly windowMs: number,
    private readonly old: number[],
  ) {}

  /** Earliest time >= t at which one more request fits the simulated window. */
  fit(t: number): number {
    const { old } = this;
    const added = this.#added;
    while (this.#oi < old.length && old[this.#oi] <= t) this.#oi++;
    while (this.#ai < added.length && added[this.#ai] <= t) this.#ai++;
    const live = old.length - this.#oi + (added.length - this.#ai);
    let excess = live + 1 - this.quota;
    if (excess <= 0) return t;
    if (excess > live) return Infinity;
    // Walk the two sorted lists together to the excess-th expiry.
    let i = this.#oi;
    let j = this.#ai;
    let at = t;
    while (excess > 0) {
      if (j >= added.length || (i < old.length && old[i] <= added[j])) at = old[i++];
      else at = added[j++];
      excess--;
    }
    return at;
  }

  admit(t: number): void {
    this.#added.push(t + this.windowMs);
  }
}
