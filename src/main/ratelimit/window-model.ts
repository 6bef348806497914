// Our picture of one rate-limit budget (account x endpoint group x read/write), built from what the
// service's headers say (DECISIONS client 6): the policy from `ratelimit-policy`, what is left
// from `ratelimit`. "Windows refill continuously" (spec 8.1 rule 4) may mean a sliding log or a
// token bucket, and the two free capacity very differently, so each window is pictured both ways
// (sliding-log.ts, token-bucket.ts) and admits by the one its reports show. A window whose
// reports cannot tell (1 s windows) follows its siblings' verdict, and until anything is shown it
// is a sliding log: a bucket never holds less than a log would, so that is never optimistic.
import type { PolicyEntry, RemainingEntry } from './headers';
import { refillShownBy, type Refill, type WindowPolicy } from './policy';
import { SlidingLogWindow, type WindowSim } from './sliding-log';
import { TokenBucketEstimate } from './token-bucket';

export type { Refill, WindowPolicy } from './policy';

export type ModelState = 'guess' | 'learned' | 'unlimited';

/** What a response told us; `policy`/`remaining` are empty when the headers were absent. */
export interface ResponseInfo {
  status: number;
  policy: readonly PolicyEntry[];
  remaining: readonly RemainingEntry[];
  retryAfterMs?: number;
}

export interface WindowView {
  name: string;
  quota: number;
  windowMs: number;
  /** How the window is believed to refill. */
  refill: Refill;
  /** Requests counted now (a bucket: tokens not usable now), including those still in flight. */
  used: number;
  inFlight: number;
  /** Until one more request fits this window; null while only an answer can free a slot. */
  nextSlotInMs: number | null;
  /** Until the window is back to its full quota; null while requests are in flight. */
  resetInMs: number | null;
}

interface OwnRequest {
  sentAt: number;
  completedAt: number | null;
  /** Its send and its answer in the budget's order of events (see LogEntry.answeredSeq). */
  sentSeq: number;
  answeredSeq: number | null;
}

/** One window, pictured both ways, and what its own reports have shown about its refill. */
class TrackedWindow {
  readonly log: SlidingLogWindow;
  readonly bucket: TokenBucketEstimate;
  shown: Refill | undefined;

  constructor(
    readonly policy: WindowPolicy,
    now: number,
    marginMs: number,
  ) {
    this.log = new SlidingLogWindow(policy, marginMs);
    this.bucket = new TokenBucketEstimate(policy, now, marginMs);
  }
}

/** The longest wait consecutive refusals grow to when Retry-After says less. */
const MAX_BACKOFF_MS = 60_000;

export interface BudgetModelOptions {
  /** Added to every expiry: absorbs timer jitter and the server's boundary rule (default 10 ms). */
  marginMs?: number;
  /** Wait after a 429 that carried no readable Retry-After (default 1 s). */
  fallbackRetryMs?: number;
}

export class BudgetModel {
  #state: ModelState;
  #windows: TrackedWindow[] = [];
  #own = new Map<number, OwnRequest>();
  #inFlight = new Set<number>();
  #blockedUntil = 0;
  /** 429s since the last answer that was not one (each makes the next wait longer). */
  #refusedInARow = 0;
  #lastRefusalAt = -Infinity;
  /** When each request in flight was sent, in every state (a refusal's place in a row needs it). */
  #sentAt = new Map<number, number>();
  /** Counts sends and answers: the order in which they happened, whatever the clock says. */
  #seq = 0;
  readonly #margin: number;
  readonly #fallbackRetryMs: number;

  constructor(initial: readonly WindowPolicy[] | 'unlimited', opts: BudgetModelOptions = {}) {
    this.#margin = opts.marginMs ?? 10;
    this.#fallbackRetryMs = opts.fallbackRetryMs ?? 1_000;
    if (initial === 'unlimited') {
      this.#state = 'unlimited';
    } else {
      this.#state = 'guess';
      this.#windows = initial.map((p) => new TrackedWindow({ ...p }, 0, this.#margin));
    }
  }

  get state(): ModelState {
    return this.#state;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  get blockedUntil(): number {
    return this.#blockedUntil;
  }

  policies(): WindowPolicy[] {
    return this.#windows.map((w) => ({ ...w.policy }));
  }

  /** How each window is believed to refill, by name. */
  refills(): Record<string, Refill> {
    return Object.fromEntries(this.#windows.map((w) => [w.policy.name, this.#refillOf(w)]));
  }

  /**
   * When the next request may be sent: `now`, a later time, or Infinity when it must wait for an
   * answer (a guessed policy is probed with one request at a time, so a tier lower than the
   * documented one is learned before it can be exceeded).
   */
  nextAdmitAt(now: number): number {
    let t = Math.max(now, this.#blockedUntil);
    if (this.#state === 'unlimited') return t;
    if (this.#state === 'guess' && this.#inFlight.size > 0) return Infinity;
    for (const w of this.#windows) t = Math.max(t, this.#fitTime(w, now));
    return t;
  }

  admit(id: number, now: number): void {
    this.#inFlight.add(id);
    this.#sentAt.set(id, now);
    if (this.#state === 'unlimited') return;
    this.#own.set(id, { sentAt: now, completedAt: null, sentSeq: ++this.#seq, answeredSeq: null });
    for (const w of this.#windows) w.log.add(id);
  }

  /** The request was never written: the server cannot have counted it. */
  onNotSent(id: number): void {
    this.#inFlight.delete(id);
    this.#sentAt.delete(id);
    this.#own.delete(id);
    for (const w of this.#windows) w.log.remove(id);
  }

  /** The request may or may not have reached the server: count it as if it had. */
  onUnknownOutcome(id: number, now: number): void {
    this.#inFlight.delete(id);
    this.#sentAt.delete(id);
    this.#complete(id, now);
  }

  onResponse(id: number, now: number, info: ResponseInfo): void {
    this.#inFlight.delete(id);
    const sentAtAnyState = this.#sentAt.get(id) ?? now;
    this.#sentAt.delete(id);
    const own = this.#own.get(id);
    const sentAt = own?.sentAt ?? now;
    // Not ours to place (sent while unlimited): everything answered may have raced with it.
    const sentSeq = own?.sentSeq ?? 0;
    if (info.policy.length > 0) {
      this.#learn(info.policy, now);
    } else if (info.status >= 200 && info.status < 300 && info.remaining.length === 0 && this.#state !== 'learned') {
      // DECISIONS client 6: a response without the headers means the account is not limited.
      // Only until an answer has shown limits: after that, one without them is an answer from a
      // layer that does not write them (a cache, another front server), not a lifted limit; the
      // request still counts, and a burst on the strength of it would only be refused. A tier
      // that changes comes with headers of its own (#learn).
      this.#state = 'unlimited';
      this.#windows = [];
      this.#own.clear();
    }
    const counted = info.status !== 429;
    if (counted) {
      this.#complete(id, now);
    } else {
      // A refused request was not counted (spec 7.2).
      this.#own.delete(id);
      for (const w of this.#windows) w.log.remove(id);
    }
    const answeredMeanwhile = this.#answeredDuring(id, sentSeq);
    for (const r of info.remaining) {
      const w = this.#windows.find((x) => x.policy.name === r.name);
      if (!w) continue;
      // Only the report on a request just admitted shows how the window refills.
      if (counted) w.shown = refillShownBy(w.policy, r.remaining, r.resetS) ?? w.shown;
      w.log.reconcile(id, sentSeq, this.#seq, now, r);
      w.bucket.report(now, r, { sentAt, inFlight: this.#inFlight.size, answeredMeanwhile });
    }
    if (info.status === 429) {
      // Retry-After is the floor. When it did not help (a second refusal in a row, as from a service
      // that says "0" or no rate headers while it is still full), the wait doubles from the
      // fallback, so a budget is never hammered back to back.
      // Requests sent before the last refusal was heard were refused with it, not after it.
      if (sentAtAnyState >= this.#lastRefusalAt) this.#refusedInARow++;
      this.#lastRefusalAt = now;
      const backoff = this.#refusedInARow > 1 ? Math.min(this.#fallbackRetryMs * 2 ** (this.#refusedInARow - 2), MAX_BACKOFF_MS) : 0;
      const wait = Math.max(info.retryAfterMs ?? this.#fallbackRetryMs, backoff);
      this.#blockedUntil = Math.max(this.#blockedUntil, now + wait);
    } else {
      this.#refusedInARow = 0;
    }
    this.#prune(now);
  }

  windows(now: number): WindowView[] {
    const inFlight = this.#inFlight.size;
    return this.#windows.map((w) => {
      const refill = this.#refillOf(w);
      const fit = this.#fitTime(w, now);
      const base = { name: w.policy.name, quota: w.policy.quota, windowMs: w.policy.windowMs, refill, inFlight };
      const nextSlotInMs = Number.isFinite(fit) ? fit - now : null;
      if (refill === 'token_bucket') {
        return { ...base, used: w.bucket.used(now, inFlight), nextSlotInMs, resetInMs: w.bucket.resetIn(now, inFlight) };
      }
      const live = w.log.live(now);
      return {
        ...base,
        used: live.length,
        inFlight: live.filter((e) => e.expiresAt === null).length,
        nextSlotInMs,
        resetInMs: w.log.resetIn(now),
      };
    });
  }

  /**
   * Milliseconds until `n` more requests would all have been sent, if nothing else happened and
   * requests in flight were answered now. Used for the "time to drain" gauge.
   */
  drainEstimate(now: number, n: number): number {
    if (n <= 0) return 0;
    const start = Math.max(now, this.#blockedUntil);
    if (this.#state === 'unlimited') return start - now;
    const inFlight = this.#inFlight.size;
    const sims: WindowSim[] = this.#windows.map((w) =>
      this.#refillOf(w) === 'token_bucket' ? w.bucket.simulation(now, inFlight) : w.log.simulation(now),
    );
    let t = start;
    for (let i = 0; i < n && Number.isFinite(t); i++) {
      for (const s of sims) t = Math.max(t, s.fit(t));
      if (Number.isFinite(t)) for (const s of sims) s.admit(t);
    }
    return t - now;
  }

  /**
   * A window's own reports decide; one whose reports cannot tell follows the windows of the same
   * budget that could (one service, one way of refilling), and a sliding log until then.
   */
  #refillOf(w: TrackedWindow): Refill {
    if (w.policy.quota <= 0) return 'sliding_log';
    if (w.shown !== undefined) return w.shown;
    const siblings = new Set(this.#windows.map((x) => x.shown).filter((s) => s !== undefined));
    return siblings.size === 1 ? [...siblings][0] : 'sliding_log';
  }

  #fitTime(w: TrackedWindow, now: number): number {
    return this.#refillOf(w) === 'token_bucket' ? w.bucket.fitTime(now, this.#inFlight.size) : w.log.fitTime(now);
  }

  #complete(id: number, now: number): void {
    const seq = ++this.#seq;
    const own = this.#own.get(id);
    if (own) {
      own.completedAt = now;
      own.answeredSeq = seq;
    }
    for (const w of this.#windows) {
      w.log.complete(id, now, seq);
      w.bucket.take(now);
    }
  }

  /** Our requests answered (as counted) after `id` was sent: the server may have counted them after it. */
  #answeredDuring(id: number, sentSeq: number): number {
    let n = 0;
    for (const [oid, o] of this.#own) {
      if (oid !== id && o.answeredSeq !== null && o.answeredSeq > sentSeq) n++;
    }
    return n;
  }

  #learn(policies: readonly PolicyEntry[], now: number): void {
    const next: TrackedWindow[] = [];
    for (const p of policies) {
      const windowMs = p.windowS * 1000;
      const existing = this.#state === 'learned' ? this.#windows.find((w) => w.policy.name === p.name) : undefined;
      if (existing && existing.policy.windowMs === windowMs) {
        existing.policy.quota = p.quota;
        next.push(existing);
        continue;
      }
      // A window we did not know (or whose length changed): our own recent requests are the
      // best evidence of what its log already holds; the report in this answer adds what we
      // missed and sets its bucket.
      const w = new TrackedWindow({ name: p.name, quota: p.quota, windowMs }, now, this.#margin);
      for (const [oid, o] of this.#own) {
        const expiresAt = o.completedAt === null ? null : o.completedAt + windowMs + this.#margin;
        if (expiresAt === null || expiresAt > now) {
          w.log.entries.push({ id: oid, answeredSeq: o.answeredSeq, expiresAt });
        }
      }
      next.push(w);
    }
    this.#windows = next;
    this.#state = 'learned';
  }

  #prune(now: number): void {
    const longest = this.#windows.reduce((m, w) => Math.max(m, w.policy.windowMs), 0);
    for (const [oid, o] of this.#own) {
      if (o.completedAt !== null && o.completedAt + longest + this.#margin <= now) this.#own.delete(oid);
    }
    for (const w of this.#windows) w.log.live(now);
  }
}
