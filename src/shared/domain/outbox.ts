// The outbox's kinds and states, written once for the store, the sync engine, the contract and
// the window. An item is one change to send; its state says where it stands.

/** What the store holds: one kind of change to the service each. */
export const OUTBOX_KINDS = ['create_campaign', 'send_push', 'update_task', 'cancel_task', 'set_sw_path'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/**
 * How the window names an item: the stored kinds, and a scheduled push told apart from one sent
 * at once (both are `send_push` in the store), since the person acts on them differently.
 */
export const OUTBOX_ITEM_KINDS = [...OUTBOX_KINDS, 'schedule_push'] as const;
export type OutboxItemKind = (typeof OUTBOX_ITEM_KINDS)[number];

/** In the order of an item's life: waiting, on its way, lost answer, then settled or stopped. */
export const OUTBOX_STATES = ['queued', 'sending', 'uncertain', 'sent', 'failed', 'blocked'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** States the drainer takes care of without the person: the item will be sent (or found) on its own. */
export const ON_THE_WAY_STATES = ['queued', 'sending', 'uncertain'] as const satisfies readonly OutboxState[];

/** Allowed moves; anything else is a bug in the caller and is refused. */
export const OUTBOX_TRANSITIONS: Readonly<Record<OutboxState, readonly OutboxState[]>> = {
  queued: ['sending', 'blocked'],
  sending: ['sent', 'failed', 'uncertain', 'blocked', 'queued'],
  uncertain: ['sent', 'queued', 'failed', 'blocked'],
  blocked: ['queued', 'failed'],
  failed: ['queued'],
  sent: [],
};

/** Every state but sent: the change has not reached the service, whether the app or the person is to act. */
export const UNSENT_OUTBOX_STATES = ['queued', 'sending', 'uncertain', 'failed', 'blocked'] as const satisfies readonly OutboxState[];
export type UnsentOutboxState = (typeof UNSENT_OUTBOX_STATES)[number];

/**
 * The codes of an uncertain item that waits for the person to say whether it was posted ("It is
 * campaign N", "It was not posted: send it"): AMBIGUOUS, several matches were found (it still holds
 * its lane, for a bounded time); PARKED, it held its lane as long as it may and was set aside, so
 * the account's other changes go ahead while it waits (DECISIONS client 16).
 */
export const AMBIGUOUS_CODE = 'AMBIGUOUS';
export const PARKED_CODE = 'PARKED';
/**
 * An uncertain create the service took (a 2xx) without naming the campaign it made: it happened, so
 * it never holds its lane; only its id is still looked for, aside, for at most POSTED_ID_SEARCH_MS.
 */
export const POSTED_ID_UNKNOWN_CODE = 'POSTED_ID_UNKNOWN';
/**
 * How long a posted create's id is looked for before it is settled as sent with its id unknown: long
 * enough for a whole listing on a tight read budget (150 reads an hour) while other users change it
 * and reads fail now and then (chaos seed 27 took over 2 h).
 */
export const POSTED_ID_SEARCH_MS = 6 * 60 * 60_000;

/** Whether the item waits for the person's answer about a lost one (see AMBIGUOUS_CODE). */
export function waitsForPerson(item: { state: string; lastError?: { code: string } | null }): boolean {
  return item.state === 'uncertain' && (item.lastError?.code === AMBIGUOUS_CODE || item.lastError?.code === PARKED_CODE);
}

/** A call named an outbox item that is gone (sent, discarded, taken back) since the window listed it. */
export const ITEM_GONE_WORDS = 'This change is no longer in the outbox. Refresh the list.';

/** The person answered about a change that no longer waits for their answer. */
export const NOT_WAITING_WORDS = 'This change is not waiting for you to say whether it was posted.';
