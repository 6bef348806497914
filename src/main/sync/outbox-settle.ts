// What the outbox drainer's two jobs share (sending an item, send-item.ts; deciding a lost answer,
// lost-answers.ts): the drainer's dependencies, the waits an item carries from one pass of the
// drainer to the next, and the endings both jobs write (sent, given up), each announced once here
// so that the window and the Activity log hear every ending alike.
import type { Clock } from '../clock/clock';
import type { Connections } from '../connections/connections';
import type { BackoffPolicy } from '../connections/backoff';
import type { EventHub } from '../events/event-hub';
import type { OutboxItem, Store } from '../store';
import { postedAs, postedWords } from './posted';
import { HistoryRetention } from './retention';
import type { SendNotes } from './send-notes';
import type { Campaign } from '../../shared/domain/campaign';
import type { Task } from '../../shared/domain/push';

/** A create the service took without naming it, settled without its id. */
export const POSTED_ID_UNKNOWN_WORDS = 'was sent; the service did not say which campaign it made, and the next refresh lists it';

/** What the service answered to one item's send (send-item.ts `performItem`), as afterSent reads it. */
export type SendResult =
  /** campaign null: posted, but the answer did not say which campaign it made (look it up). */
  | { kind: 'create_campaign'; campaign: Campaign | null }
  /** tasks: those the answer itself listed (most answers list none: they are looked up). */
  | { kind: 'send_push'; ack: string; tasks: readonly Task[] }
  | { kind: 'update_task' | 'cancel_task'; ack: string }
  | { kind: 'set_sw_path' };

export interface DrainDeps {
  store: Store;
  connections: Connections;
  hub: EventHub;
  notes: SendNotes;
  clock: Clock;
  retryBackoff: BackoffPolicy;
  /** 5xx answers tolerated per item before it is failed (and offered a retry). */
  maxServerAttempts: number;
  /**
   * How long after its latest send an item with a lost answer is first looked for: a server that
   * was slow to answer may still be applying the request, and looking too early would resend it.
   */
  uncertainGraceMs: number;
  /**
   * How long after its latest send a change may take to show in the service's listings (a listing
   * may lag): a look-up that finds nothing is repeated until then before the change is called absent.
   */
  listingLagMs: number;
  /**
   * How long an uncertain item may hold its lane: past it, the item is parked for the person (code
   * PARKED, saying what to decide) and the account's other changes go ahead.
   */
  laneHoldMs: number;
  note(profileId: string | null, accountId: string | null, level: 'info' | 'warning' | 'error', kind: string, message: string): void;
  /** After a send: update caches (campaign row, task lists, sw-path). Awaited inside the lane. */
  afterSent(item: OutboxItem, result: SendResult): Promise<Record<string, unknown>>;
  /** After the service refused an item: what it teaches about the account (capability-learning.ts). */
  afterRefused?(item: OutboxItem, refusal: { message: string; status?: number; fields?: string[] }): void;
}

/** A create or a push: the changes that are not idempotent, so a lost answer is looked for before a resend. */
export type LookedForItem = Extract<OutboxItem, { kind: 'create_campaign' | 'send_push' }>;

export class Settler {
  readonly d: DrainDeps;
  /**
   * Uncertain items wait until then (our clock, ms) before their next look-up: the rest of a grace
   * period, or a backoff after a look-up that failed.
   */
  readonly lookAgainAt = new Map<number, { at: number; tries: number }>();
  /** A create or push the service answered 5xx with Retry-After: if found absent, not resent before this. */
  readonly retryAfterAt = new Map<number, number>();
  /**
   * Aborted when the drainer closes (the app quits, a test restarts the core): a look-up waiting to
   * read a failed page again stops waiting. Its waits run on the injected clock, which may not move
   * again before the close; the item stays as it was and is looked for again at the next start.
   */
  readonly closing = new AbortController();
  /** Sent items and activity older than the retention period go (at start-up, then after sends). */
  readonly #retention: HistoryRetention;

  constructor(deps: DrainDeps) {
    this.d = deps;
    this.#retention = new HistoryRetention(deps.store, () => deps.clock.now());
    this.#retention.maybePrune();
  }

  /** Tells the window the item's lane changed. */
  changed(item: OutboxItem): void {
    this.d.hub.emit('outbox.changed', { profileId: item.profileId, accountId: item.accountId ?? '' });
  }

  /** The item is on the service (sent, found after a lost answer, or confirmed by the person): its draft and note go. */
  sent(item: OutboxItem, result: Record<string, unknown>, what: string): void {
    const { store, notes } = this.d;
    const sent = store.outbox.markSent(item.seq, result);
    notes.remove(item.seq);
    this.lookAgainAt.delete(item.seq);
    if (item.draftId) store.drafts.remove(item.draftId);
    this.changed(sent);
    this.d.hub.emit('data.changed', { profileId: item.profileId, accountId: item.accountId, what: 'drafts' });
    // "... was sent: campaign 4100123": the id the service gave it, when the answer named one.
    const posted = what === 'was sent' ? postedAs(result) : undefined;
    this.d.note(
      item.profileId,
      item.accountId,
      'info',
      'outbox.sent',
      `${describeItem(item)} ${what}${posted ? `: ${postedWords(posted)}` : ''}.`,
    );
    this.#retention.maybePrune();
  }

  /** The service kept failing (maxServerAttempts 5xx answers): failed, with Retry offered. */
  giveUp(item: OutboxItem, message: string): void {
    this.changed(
      this.d.store.outbox.markFailed(item.seq, {
        code: 'SERVER',
        message: `The service kept failing (${item.attempts} attempts): ${message} Use Retry to try again.`,
      }),
    );
    this.d.notes.remove(item.seq);
    this.d.note(item.profileId, item.accountId, 'error', 'outbox.failed', `${describeItem(item)} failed ${item.attempts} times.`);
  }
}

/** The change in words, as the Activity log and the unsent list name it. */
export function describeItem(item: OutboxItem): string {
  switch (item.kind) {
    case 'create_campaign':
      return `Create campaign "${item.payload.body.name}"`;
    case 'send_push': {
      const title = item.payload.events[0]?.title ?? '';
      return `${item.payload.mode === 'scheduled' ? 'Schedule' : 'Send'} push "${title}"`;
    }
    case 'update_task':
      return `Update task ${item.payload.taskId}`;
    case 'cancel_task':
      return `Cancel task ${item.payload.taskId}`;
    case 'set_sw_path':
      return `Set the service worker path of app ${item.payload.containerId} to ${item.payload.serviceWorkerPath}`;
  }
}
