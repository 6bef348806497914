// Prunes history older than the retention period (src/shared/retention.ts): sent outbox items and
// activity entries. Nothing unsent is ever touched: pruneSent deletes only 'sent' rows. Run at
// start-up and after sends, at most once an hour (two indexed DELETEs, cheap but not free).
import { HISTORY_RETENTION_MS } from '../../shared/retention';
import type { Store } from '../store';

const PRUNE_EVERY_MS = 3_600_000;

export class HistoryRetention {
  #lastAt = -Infinity;
  constructor(
    private readonly store: Pick<Store, 'outbox' | 'activity'>,
    private readonly now: () => number,
    private readonly keepMs = HISTORY_RETENTION_MS,
  ) {}

  /** Prunes if an hour has passed since the last time; returns what was removed (0s when skipped). */
  maybePrune(): { sent: number; activity: number } {
    const now = this.now();
    if (now - this.#lastAt < PRUNE_EVERY_MS) return { sent: 0, activity: 0 };
    this.#lastAt = now;
    const before = now - this.keepMs;
    return { sent: this.store.outbox.pruneSent(before), activity: this.store.activity.prune(before) };
  }
}
