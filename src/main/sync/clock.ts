// The core takes "now" as a plain function (the shell passes nothing, tests pass the sandbox's
// manual clock). Timers always run on real time: a delay is computed from the injected now, so
// a test that moves its clock forward and then kicks the engine sees due work at once.
import type { Clock } from '../ratelimit/clock';

export function clockFrom(now: () => number): Clock {
  return {
    now,
    setTimer(fn, delayMs) {
      const t = setTimeout(fn, Math.max(0, Math.min(delayMs, 2 ** 31 - 1)));
      return { cancel: () => clearTimeout(t) };
    },
  };
}
