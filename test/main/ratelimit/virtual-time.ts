// Virtual time for the real client talking real HTTP to an in-process sandbox on a manual clock:
// one clock for both. Time stands still while any request is out, and jumps to the next timer
// (a rate-limit wait, a Retry-After) once every answer has been handled and nothing is left to
// do but wait, so that minutes of quota drain in well under a second and every time is exact.
import { ManualClock, type Clock, type TimerHandle } from '../../../src/main/clock/clock';
import { HttpTransport, type HttpRequest, type HttpResponse } from '../../../src/main/service/http-transport';
import type { RunningSandbox } from '../../../src/sandbox/index';

/** A transport that counts its requests on the way out and back. */
class CountingTransport extends HttpTransport {
  #out = 0;
  #waiters: (() => void)[] = [];

  get out(): number {
    return this.#out;
  }

  override send(req: HttpRequest): Promise<HttpResponse> {
    this.#out++;
    return super.send(req).finally(() => {
      this.#out--;
      if (this.#out === 0) for (const w of this.#waiters.splice(0)) w();
    });
  }

  /** Resolves once no request is out. */
  allBack(): Promise<void> {
    return this.#out === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve));
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class VirtualTime implements Clock {
  readonly transport = new CountingTransport();
  readonly #clock: ManualClock;

  /** `sb` must run on a manual clock; the client's clock starts where the sandbox's is. */
  constructor(private readonly sb: RunningSandbox) {
    this.#clock = new ManualClock(sb.now());
  }

  now(): number {
    return this.#clock.now();
  }

  setTimer(fn: () => void, delayMs: number): TimerHandle {
    return this.#clock.setTimer(fn, delayMs);
  }

  /** Moves both clocks by `ms` at once (nothing may be waiting on a timer in between). */
  advance(ms: number): void {
    this.sb.advance(ms);
    this.#clock.advance(ms);
  }

  /**
   * Runs until `work` settles, moving both clocks from timer to timer, and returns its result.
   * Fails when nothing is left to wait for while the work is still unfinished, or past `limitMs`.
   */
  async run<T>(work: Promise<T>, limitMs = 24 * 3600_000): Promise<T> {
    let finished = false;
    const settled = work.then(
      () => (finished = true),
      () => (finished = true),
    );
    const deadline = this.#clock.now() + limitMs;
    for (;;) {
      await this.#quiet();
      if (finished) break;
      const next = this.#clock.nextTimerAt();
      if (next === undefined) throw new Error('virtual time: the work waits for nothing that can happen');
      if (next > deadline) throw new Error(`virtual time: still not done after ${limitMs} ms`);
      // The service's clock first, so that whatever the timer sends finds it already there.
      this.sb.advance(Math.max(0, next - this.#clock.now()));
      this.#clock.fireNext(next);
    }
    await settled;
    return work;
  }

  /** Until every request is back and its answer handled (a few turns of the event loop with nothing out). */
  async #quiet(): Promise<void> {
    for (let calm = 0; calm < 3; ) {
      await turn();
      if (this.transport.out > 0) {
        calm = 0;
        await this.transport.allBack();
      } else {
        calm++;
      }
    }
  }
}
