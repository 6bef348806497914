// The late_apply_ms variant: a write whose connection a close_after fault dropped is applied some
// time later, as a service that queues work would, so a client that looks for its lost write at
// once may not find it yet (DECISIONS client 8). The writes wait here, in the order they were
// received, until the sandbox clock reaches their time.

interface LateWrite {
  /** Sandbox clock, ms. */
  dueAt: number;
  apply: (dueAt: number) => void;
}

export class LateWrites {
  private queue: LateWrite[] = [];

  /** Queues `apply`, to run once the sandbox clock reaches `dueAt`; writes due at once keep their order. */
  add(dueAt: number, apply: (dueAt: number) => void): void {
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1].dueAt > dueAt) i--;
    this.queue.splice(i, 0, { dueAt, apply });
  }

  /** Applies, oldest due first, every write due at or before `now`. */
  runDue(now: number): void {
    while (this.queue.length > 0 && this.queue[0].dueAt <= now) {
      const next = this.queue.shift()!;
      next.apply(next.dueAt);
    }
  }

  get pending(): number {
    return this.queue.length;
  }

  /** A reset forgets writes that were never applied, as it forgets everything else. */
  clear(): void {
    this.queue = [];
  }
}
