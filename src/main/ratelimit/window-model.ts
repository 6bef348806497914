// Our picture of one rate-limit budget (account x endpoint group x read/write): a sliding log per
// window, as the service keeps one (DECISIONS sandbox 4). The picture must never be more
// optimistic than the server's, so every doubt is resolved towards "still counted":
// - a request counts from the moment we send it; once answered it counts until the answer's
//   arrival + w (+ a margin), which is never earlier than the server's admission + w;
// - the server's `r` is authoritative: it adds "phantom" entries for requests we did not make
//   (another device, a request before we started) and drops entries the server has forgotten.
import type { PolicyEntry, RemainingEntry } from './headers';

export interface WindowPolicy {
  name: string;
  quota: number;
  windowMs: number;
}

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
  /** Requests counted now, including those still in flight. */
  used: number;
  inFlight: number;
  /** Until one more request fits this window; null while only an answer can free a slot. */
  nextSlotInMs: number | null;
  /** Until the window is back to its full quota; null while requests are in flight. */
  resetInMs: number | null;
}

interface Entry {
  /** Request attempt id; phantoms have none. */
  id: number | null;
  sentAt: number;
  completedAt: number | null;
  /** null while in flight: it counts until we hear back. */
  expiresAt: number | null;
}

interface OwnRequest {
  sentAt: number;
  completedAt: number | null;
}

class WindowLog {
  entries: Entry[] = [];
  constructor(public policy: WindowPolicy) {}

  live(now: number): Entry[] {
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
}

export interface BudgetModelOptions {
  /** Added to every expiry: absorbs timer jitter and the server's boundary rule (default 10 ms). */
  marginMs?: number;
  /** Wait after a 429 that carried no readable Retry-After (default 1 s). */
  fallbackRetryMs?: number;
}

export class BudgetModel {
  #state: ModelState;
  #windows: WindowLog[] = [];
  #own = new Map<number, OwnRequest>();
  #inFlight = new Set<number>();
  #blockedUntil = 0;
  readonly #margin: number;
  readonly #fallbackRetryMs: number;

  constructor(initial: readonly WindowPolicy[] | 'unlimited', opts: BudgetModelOptions = {}) {
    this.#margin = opts.marginMs ?? 10;
    this.#fallbackRetryMs = opts.fallbackRetryMs ?? 1_000;
    if (initial === 'unlimited') {
      this.#state = 'unlimited';
    } else {
      this.#state = 'guess';
      this.#windows = initial.map((p) => new WindowLog({ ...p }));
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

  /**
   * When the next request may be sent: `now`, a later time, or Infinity when it must wait for an
   * answer (a guessed policy is probed with one request at a time, so a tier lower than the
   * documented one is learned before it can be exceeded).
   */
  nextAdmitAt(now: number): number {
    let t = Math.max(now, this.#blockedUntil);
    if (this.#state === 'unlimited') return t;
    if (this.#state === 'guess' && this.#inFlight.size > 0) return Infinity;
    for (const w of this.#windows) t = Math.max(t, w.fitTime(now));
    return t;
  }

  admit(id: number, now: number): void {
    this.#inFlight.add(id);
    if (this.#state === 'unlimited') return;
    this.#own.set(id, { sentAt: now, completedAt: null });
    for (const w of this.#windows) w.entries.push({ id, sentAt: now, completedAt: null, expiresAt: null });
  }

  /** The request was never written: the server cannot have counted it. */
  onNotSent(id: number): void {
    this.#inFlight.delete(id);
    this.#own.delete(id);
    for (const w of this.#windows) w.entries = w.entries.filter((e) => e.id !== id);
  }

  /** The request may or may not have reached the server: count it as if it had. */
  onUnknownOutcome(id: number, now: number): void {
    this.#inFlight.delete(id);
    this.#complete(id, now);
  }

  onResponse(id: number, now: number, info: ResponseInfo): void {
    this.#inFlight.delete(id);
    const sentAt = this.#own.get(id)?.sentAt ?? now;
    if (info.policy.length > 0) {
      this.#learn(info.policy, now);
    } else if (info.status >= 200 && info.status < 300 && info.remaining.length === 0) {
      // DECISIONS client 6: a response without the headers means the account is not limited.
      this.#state = 'unlimited';
      this.#windows = [];
      this.#own.clear();
    }
    if (info.status === 429) {
      // A refused request was not counted (spec 7.2).
      this.#own.delete(id);
      for (const w of this.#windows) w.entries = w.entries.filter((e) => e.id !== id);
    } else {
      this.#complete(id, now);
    }
    for (const r of info.remaining) {
      const w = this.#windows.find((x) => x.policy.name === r.name);
      if (w) this.#reconcile(w, id, sentAt, now, r);
    }
    if (info.status === 429) {
      const wait = info.retryAfterMs ?? this.#fallbackRetryMs;
      this.#blockedUntil = Math.max(this.#blockedUntil, now + wait);
    }
    this.#prune(now);
  }

  windows(now: number): WindowView[] {
    return this.#windows.map((w) => {
      const live = w.live(now);
      const pending = live.filter((e) => e.expiresAt === null).length;
      const fit = w.fitTime(now);
      const lastExpiry = live.reduce((m, e) => Math.max(m, e.expiresAt ?? Infinity), now);
      return {
        name: w.policy.name,
        quota: w.policy.quota,
        windowMs: w.policy.windowMs,
        used: live.length,
        inFlight: pending,
        nextSlotInMs: Number.isFinite(fit) ? fit - now : null,
        resetInMs: pending > 0 ? null : lastExpiry - now,
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
    let t = start;
    const sims = this.#windows.map((w): SimWindow => {
      const ws = w.policy.windowMs;
      // Expiries in ascending order; new admissions are appended and stay sorted because t
      // never decreases.
      const old = w
        .live(now)
        .map((e) => e.expiresAt ?? now + ws + this.#margin)
        .sort((x, y) => x - y);
      return { policy: w.policy, old, added: [], oi: 0, ai: 0 };
    });
    for (let i = 0; i < n && Number.isFinite(t); i++) {
      for (const s of sims) t = Math.max(t, fitInSim(s, t));
      for (const s of sims) s.added.push(t + s.policy.windowMs + this.#margin);
    }
    return t - now;
  }

  #complete(id: number, now: number): void {
    const own = this.#own.get(id);
    if (own) own.completedAt = now;
    for (const w of this.#windows) {
      for (const e of w.entries) {
        if (e.id === id) {
          e.completedAt = now;
          e.expiresAt = now + w.policy.windowMs + this.#margin;
        }
      }
    }
  }

  #learn(policies: readonly PolicyEntry[], now: number): void {
    const next: WindowLog[] = [];
    for (const p of policies) {
      const windowMs = p.windowS * 1000;
      const existing = this.#state === 'learned' ? this.#windows.find((w) => w.policy.name === p.name) : undefined;
      if (existing && existing.policy.windowMs === windowMs) {
        existing.policy.quota = p.quota;
        next.push(existing);
        continue;
      }
      // A window we did not know (or whose length changed): our own recent requests are the
      // best evidence of what it already holds; reconciliation with `r` adds what we missed.
      const log = new WindowLog({ name: p.name, quota: p.quota, windowMs });
      for (const [oid, o] of this.#own) {
        const expiresAt = o.completedAt === null ? null : o.completedAt + windowMs + this.#margin;
        if (expiresAt === null || expiresAt > now) {
          log.entries.push({ id: oid, sentAt: o.sentAt, completedAt: o.completedAt, expiresAt });
        }
      }
      next.push(log);
    }
    this.#windows = next;
    this.#state = 'learned';
  }

  /**
   * The server counted `quota - r` requests when it answered request `id`. Entries it surely
   * counted (answered before `id` was sent, and `id` itself) are set A; entries racing with `id`
   * (in flight, or answered meanwhile) may or may not be in its count: set B.
   */
  #reconcile(w: WindowLog, id: number, sentAt: number, now: number, r: RemainingEntry): void {
    const serverUsed = Math.max(0, w.policy.quota - r.remaining);
    const live = w.live(now);
    const a = live.filter((e) => e.id === id || (e.completedAt !== null && e.completedAt <= sentAt));
    const b = live.length - a.length;
    if (serverUsed < a.length) {
      // The server has forgotten some of them already: drop the oldest, they expire first.
      const drop = new Set(
        a.slice().sort((x, y) => (x.expiresAt ?? Infinity) - (y.expiresAt ?? Infinity)).slice(0, a.length - serverUsed),
      );
      w.entries = w.entries.filter((e) => !drop.has(e));
    } else if (serverUsed > a.length + b) {
      // Requests we did not make. We only know when the newest of them leaves (t), so all of
      // them are assumed to leave then: never earlier than on the server.
      const expiresAt = now + (r.resetS !== undefined ? r.resetS * 1000 : w.policy.windowMs) + this.#margin;
      for (let i = a.length + b; i < serverUsed; i++) {
        w.entries.push({ id: null, sentAt: now, completedAt: now, expiresAt });
      }
    }
  }

  #prune(now: number): void {
    const longest = this.#windows.reduce((m, w) => Math.max(m, w.policy.windowMs), 0);
    for (const [oid, o] of this.#own) {
      if (o.completedAt !== null && o.completedAt + longest + this.#margin <= now) this.#own.delete(oid);
    }
    for (const w of this.#windows) w.live(now);
  }
}

interface SimWindow {
  policy: WindowPolicy;
  old: number[];
  added: number[];
  oi: number;
  ai: number;
}

/** Earliest time >= t at which one more request fits the simulated window. */
function fitInSim(s: SimWindow, t: number): number {
  while (s.oi < s.old.length && s.old[s.oi] <= t) s.oi++;
  while (s.ai < s.added.length && s.added[s.ai] <= t) s.ai++;
  const live = s.old.length - s.oi + (s.added.length - s.ai);
  let excess = live + 1 - s.policy.quota;
  if (excess <= 0) return t;
  if (excess > live) return Infinity;
  // Walk the two sorted lists together to the excess-th expiry.
  let i = s.oi;
  let j = s.ai;
  let at = t;
  while (excess > 0) {
    if (j >= s.added.length || (i < s.old.length && s.old[i] <= s.added[j])) at = s.old[i++];
    else at = s.added[j++];
    excess--;
  }
  return at;
}
