// The sandbox's seeded source of per-request choices. Wherever a variant makes a choice per
// request (a page cut short, a 503 now and then, a body sent in pieces), it draws here, so one seed
// replays the same service: a failing chaos run is reproduced by its seed (`--seed N`).
import { mulberry32 } from './random';

export class Choices {
  readonly #next: () => number;

  constructor(readonly seed: number) {
    this.#next = mulberry32(seed);
  }

  /** A number in [0, 1). */
  next(): number {
    return this.#next();
  }

  /** True with probability `p` (0 never draws, so a variant that is off changes no later choice). */
  chance(p: number): boolean {
    return p > 0 && this.#next() < p;
  }

  /** A whole number from `lo` to `hi`, both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.#next() * (hi - lo + 1));
  }

  pick<T>(options: readonly T[]): T {
    return options[Math.floor(this.#next() * options.length)];
  }
}
