// The one clock of the main process. Time is injected everywhere (the store's timestamps, the
// rate-limit scheduler, tokens, the outbox drainer's retries and grace periods, connection probes,
// update checks) so that tests and the sandbox's manual mode move time by telling a clock to
// advance: the timers follow it, nothing sleeps.

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch, on the same scale as the service's clock. */
  now(): number;
  /** Runs `fn` once `delayMs` have passed on this clock (at once when the delay is not positive). */
  setTimer(fn: () => void, delayMs: number): TimerHandle;
}

/** setTimeout fires at once for delays beyond a signed 32-bit number of ms: wait the longest it can. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, delayMs) {
    const t = setTimeout(fn, Math.max(0, Math.min(delayMs, LONGEST_TIMEOUT_MS)));
    return { cancel: () => clearTimeout(t) };
  },
};

interface ManualTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that only moves when told to. Timers fire in time order during `advanceTo`; each one
 * runs at its own due time so that code reading `now()` inside a callback sees the right time.
 * A timer that is already due when it is set fires on the next turn of the event loop without
 * time moving, as setTimeout(fn, 0) would: code that retries "at once" needs no one to advance.
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: ManualTimer[] = [];
  #dueSoon = false;

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    const timer: ManualTimer = { at: this.#now + Math.max(0, delayMs), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    if (timer.at <= this.#now) this.#fireDueSoon();
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  #fireDueSoon(): void {
    if (this.#dueSoon) return;
    this.#dueSoon = true;
    setImmediate(() => {
      this.#dueSoon = false;
      this.advanceTo(this.#now);
    });
  }

  /** Due time of the earliest live timer, if any. */
  nextTimerAt(): number | undefined {
    let best: ManualTimer | undefined;
    for (const t of this.#timers) {
      if (!t.cancelled && (best === undefined || t.at < best.at || (t.at === best.at && t.seq < best.seq))) best = t;
    }
    return best?.at;
  }

  /** Fires the earliest due timer at or before `limit`; returns false when none is due. */
  fireNext(limit: number): boolean {
    this.#timers = this.#timers.filter((t) => !t.cancelled);
    let idx = -1;
    for (let i = 0; i < this.#timers.length; i++) {
      const t = this.#timers[i];
      if (t.at > limit) continue;
      if (idx < 0 || t.at < this.#timers[idx].at || (t.at === this.#timers[idx].at && t.seq < this.#timers[idx].seq)) idx = i;
    }
    if (idx < 0) return false;
    const [timer] = this.#timers.splice(idx, 1);
    this.#now = Math.max(this.#now, timer.at);
    timer.fn();
    return true;
  }

  /** Moves to `t`, firing every timer due on the way (including timers they schedule). */
  advanceTo(t: number): void {
    while (this.fireNext(t)) {
      // keep firing
    }
    this.#now = Math.max(this.#now, t);
  }

  advance(ms: number): void {
    this.advanceTo(this.#now + ms);
  }
}
