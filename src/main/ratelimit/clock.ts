// Time is injected so that the scheduler and the token cache can be driven by a manual clock in
// tests (no sleeping) and by the sandbox's clock when it runs in manual mode.

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch, on the same scale as the service's clock. */
  now(): number;
  setTimer(fn: () => void, delayMs: number): TimerHandle;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, delayMs) {
    const t = setTimeout(fn, Math.max(0, delayMs));
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
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: ManualTimer[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    const timer: ManualTimer = { at: this.#now + Math.max(0, delayMs), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
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
