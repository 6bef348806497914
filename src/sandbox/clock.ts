// The sandbox clock. Everything time-dependent (token and code expiry, rate-limit windows, recent
// campaigns, scheduled tasks) reads this clock, so a manual clock lets tests jump hours instantly.

export type ClockMode = 'real' | 'manual';

export class ClockModeError extends Error {
  constructor() {
    super('clock is real');
    this.name = 'ClockModeError';
  }
}

export interface SandboxClock {
  readonly mode: ClockMode;
  now(): number;
  /** Manual only; throws ClockModeError on a real clock and RangeError on a negative step. */
  advance(ms: number): void;
  /** Manual only; the clock never goes backwards (rate-limit logs assume it). */
  set(ms: number): void;
  /** Manual only (a no-op on a real clock): back to `startMs`, or to where it started. */
  reset(startMs?: number): void;
}

export function createClock(mode: ClockMode, startMs?: number): SandboxClock {
  if (mode === 'real') {
    return {
      mode,
      now: () => Date.now(),
      advance: () => {
        throw new ClockModeError();
      },
      set: () => {
        throw new ClockModeError();
      },
      reset: () => undefined,
    };
  }
  let origin = startMs ?? Date.now();
  let current = origin;
  return {
    mode,
    now: () => current,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a finite, non-negative number of ms');
      current += ms;
    },
    set(ms: number) {
      if (!Number.isFinite(ms)) throw new RangeError('set needs a finite time in ms');
      if (ms < current) throw new RangeError('the sandbox clock cannot go backwards (reset it first)');
      current = ms;
    },
    reset(start?: number) {
      if (start !== undefined) origin = start;
      current = origin;
    },
  };
}

/**
 * A manual clock owned by whoever started the sandbox in-process, which the sandbox follows and
 * moves (a test's ManualClock: the app under test runs its timers on it, so moving the sandbox's
 * clock fires them too). Structural, so the sandbox needs nothing of the app.
 */
export interface DrivingClock {
  now(): number;
  advanceTo(ms: number): void;
}

export function followClock(source: DrivingClock): SandboxClock {
  return {
    mode: 'manual',
    now: () => source.now(),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a finite, non-negative number of ms');
      source.advanceTo(source.now() + ms);
    },
    set(ms: number) {
      if (!Number.isFinite(ms)) throw new RangeError('set needs a finite time in ms');
      if (ms < source.now()) throw new RangeError('the sandbox clock cannot go backwards (reset it first)');
      source.advanceTo(ms);
    },
    // The clock belongs to the caller, whose timers assume it never goes back: a reset keeps it.
    reset: () => undefined,
  };
}
