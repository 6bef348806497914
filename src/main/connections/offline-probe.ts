// When an offline connection is asked again whether its service is back: one timer per profile on
// the injected clock, further apart after each silence (backoff.ts), from the first step again once
// the service has answered. What a probe asks, and what its answer means, is connections.ts's.
import type { Clock, TimerHandle } from '../clock/clock';
import { backoffDelay, type BackoffPolicy } from './backoff';

interface ProbeTimer {
  timer?: TimerHandle;
  /** Probes since the service last answered: the backoff's step. */
  attempt: number;
}

export class OfflineProbes {
  readonly #clock: Clock;
  readonly #policy: BackoffPolicy;
  readonly #byProfile = new Map<string, ProbeTimer>();

  constructor(clock: Clock, policy: BackoffPolicy) {
    this.#clock = clock;
    this.#policy = policy;
  }

  #of(profileId: string): ProbeTimer {
    let p = this.#byProfile.get(profileId);
    if (!p) {
      p = { attempt: 0 };
      this.#byProfile.set(profileId, p);
    }
    return p;
  }

  /** Runs `probe` after the next backoff step, unless a probe is already due. */
  schedule(profileId: string, probe: () => void): void {
    const p = this.#of(profileId);
    if (p.timer) return;
    p.attempt++;
    p.timer = this.#clock.setTimer(
      () => {
        p.timer = undefined;
        probe();
      },
      backoffDelay(p.attempt, this.#policy),
    );
  }

  /** No probe is due any more (it is asked now instead, or nothing may be contacted). */
  cancel(profileId: string): void {
    const p = this.#byProfile.get(profileId);
    p?.timer?.cancel();
    if (p) p.timer = undefined;
  }

  /** The service answered: the next silence starts from the first step. */
  answered(profileId: string): void {
    this.#of(profileId).attempt = 0;
  }

  /** Back to nothing due and the first step: the connection is reachable, or about to be checked anew. */
  stop(profileId: string): void {
    this.cancel(profileId);
    this.answered(profileId);
  }

  /** The profile was removed or changed: nothing of it is kept. */
  forget(profileId: string): void {
    this.cancel(profileId);
    this.#byProfile.delete(profileId);
  }

  close(): void {
    for (const p of this.#byProfile.values()) p.timer?.cancel();
    this.#byProfile.clear();
  }
}
