// What each outbox state means to a person, and which actions it allows.
import type { OutboxItem } from '../../../shared/ipc/contract';

export const OUTBOX_LABEL: Record<OutboxItem['state'], string> = {
  queued: 'Queued',
  sending: 'Sending',
  uncertain: 'Checking whether it arrived',
  sent: 'Sent',
  failed: 'Failed',
  blocked: 'Blocked',
};

export const OUTBOX_CLASS: Record<OutboxItem['state'], string> = {
  queued: 'status-pending',
  sending: 'status-pending',
  uncertain: 'status-pending',
  sent: 'status-ok',
  failed: 'status-bad',
  blocked: 'status-bad',
};

/**
 * An uncertain item whose look-up found several matches: only the person can say which one is
 * theirs (or that none is), and nothing is sent until they do.
 */
export const isAmbiguous = (o: OutboxItem) => o.state === 'uncertain' && o.lastError?.code === 'AMBIGUOUS';

/** The badge: the state, or that the item waits for the person's answer. */
export const outboxStateLabel = (o: OutboxItem) => (isAmbiguous(o) ? 'Needs your answer' : OUTBOX_LABEL[o.state]);

/** The line under the state: the server's message for a failure, the offered fix for a block. */
export function outboxDetail(o: OutboxItem): string {
  if (o.state === 'blocked') return [o.lastError?.message, o.fix].filter(Boolean).join(' ') || 'Needs your attention.';
  if (o.state === 'failed') return o.lastError?.message ?? 'The service refused it.';
  if (isAmbiguous(o)) return o.lastError?.message ?? 'Several matches were found on the service; say which one is yours.';
  if (o.state === 'uncertain') return 'The connection dropped after sending; looking for it on the service before sending again.';
  if ((o.state === 'queued' || o.state === 'sending') && o.lastError) return `Last try: ${o.lastError.message}`;
  return '';
}

/** Retry: a failed or blocked item goes back to the queue; a queued one is tried now. */
export const canRetry = (o: OutboxItem) => o.state === 'failed' || o.state === 'blocked' || o.state === 'queued';
/** An item being sent cannot be pulled back; a sent one has nothing left to discard. */
export const canDiscard = (o: OutboxItem) => o.state !== 'sending' && o.state !== 'sent';

export function formatNextAttempt(at: number | null, now: number): string {
  if (at === null) return '';
  const s = Math.round((at - now) / 1000);
  if (s <= 0) return 'now';
  if (s < 90) return `in ${s} s`;
  return `in ${Math.round(s / 60)} min`;
}
