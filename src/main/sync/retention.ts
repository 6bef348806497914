// Prunes history older than the periods the person set (src/shared/retention.ts, stored in the
// settings table): sent outbox items and activity entries. Nothing unsent is ever touched:
// pruneSent deletes only 'sent' rows. Run at start-up and after sends, at most once an hour (two
// indexed DELETEs, cheap but not free), and at once when the person shortens a period.
import { DAY_MS, type Retention, type RetentionEffect } from '../../shared/retention';
import type { Store } from '../store';

const PRUNE_EVERY_MS = 3_600_000;

type HistoryStore = Pick<Store, 'outbox' | 'activity' | 'settings'>;

/** The times before which history goes under `r`. */
function cutoffs(r: Retention, now: number): { sent: number; activity: number } {
  return { sent: now - r.sentDays * DAY_MS, activity: now - r.activityDays * DAY_MS };
}

/** Removes history older than the periods of `r` now; returns what went. */
export function pruneHistory(store: HistoryStore, r: Retention, now: number): RetentionEffect {
  const before = cutoffs(r, now);
  return { sent: store.outbox.pruneSent(before.sent), activity: store.activity.prune(before.activity) };
}

/** What pruneHistory would remove under `r` now, without removing anything (said before saving). */
export function historyOlderThan(store: HistoryStore, r: Retention, now: number): RetentionEffect {
  const before = cutoffs(r, now);
  // Sent history is at most a year of one person's changes: counted from the list, no new query.
  const sent = store.outbox.list({ states: ['sent'] }).filter((i) => i.updatedAt < before.sent).length;
  return { sent, activity: store.activity.countBefore(before.activity) };
}

export class HistoryRetention {
  #lastAt = -Infinity;
  constructor(
    private readonly store: HistoryStore,
    private readonly now: () => number,
  ) {}

  /** Prunes if an hour has passed since the last time; returns what was removed (0s when skipped). */
  maybePrune(): RetentionEffect {
    const now = this.now();
    if (now - this.#lastAt < PRUNE_EVERY_MS) return { sent: 0, activity: 0 };
    this.#lastAt = now;
    // Read each time: the person may have changed it since the last prune.
    return pruneHistory(this.store, this.store.settings.get('retention'), now);
  }
}
