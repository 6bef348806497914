// What each outbox state means to a person, and which actions it allows.
import type { OutboxItem, OutboxWait } from '../../../shared/ipc/contract';
import { waitsForPerson } from '../../../shared/domain/outbox';

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
 * An uncertain item whose look-up found several matches, or that was parked after holding its
 * account's other changes as long as it may: only the person can say which one is theirs (or
 * that none is), and nothing is sent until they do.
 */
export const isAmbiguous = (o: OutboxItem) => waitsForPerson(o);

/** The badge: the state, that the item waits for the person's answer, or for the rate limit. */
export function outboxStateLabel(o: OutboxItem, w?: OutboxWait): string {
  if (isAmbiguous(o)) return 'Needs your answer';
  // Held in the scheduler's queue, its request has not left: "Sending" would not be true.
  if (w?.reason === 'rate_limit') return 'Waiting';
  return OUTBOX_LABEL[o.state];
}

/** The line under the state: the server's message for a failure, the offered fix for a block. */
export function outboxDetail(o: OutboxItem): string {
  if (o.state === 'blocked') return [o.lastError?.message, o.fix].filter(Boolean).join(' ') || 'Needs your attention.';
  if (o.state === 'failed') return o.lastError?.message ?? 'The service refused it.';
  if (isAmbiguous(o)) return o.lastError?.message ?? 'Several matches were found on the service; say which one is yours.';
  if (o.state === 'uncertain') return uncertainDetail(o);
  if ((o.state === 'queued' || o.state === 'sending') && o.lastError)
    return `Last try: ${o.lastError.said ? `the service answered ${o.lastError.said}` : o.lastError.message}`;
  return '';
}

/**
 * What the service itself answered when that answer left an item in doubt (a 5xx), as its own line
 * above the app's notes on looking for it: those notes change, the service's words stay.
 */
export function outboxSaid(o: OutboxItem): string | null {
  if (o.state !== 'uncertain' || !o.lastError?.said) return null;
  return `The service answered: ${o.lastError.said}`;
}

/**
 * Why an item is being looked for on the service, by what actually happened: a 5xx is the
 * service's own error (it may still have applied the change), not a dropped connection.
 */
function uncertainDetail(o: OutboxItem): string {
  const said = o.lastError?.message ? ` (${o.lastError.message})` : '';
  switch (o.lastError?.code) {
    case 'SERVER':
      // The service's words are on their own line (outboxSaid); a later note of the look-up follows them.
      if (o.lastError.said) {
        return o.lastError.message.includes(o.lastError.said)
          ? 'It may or may not have been applied; looking for it on the service before sending again.'
          : o.lastError.message;
      }
      return `The service answered with an error${said} after receiving it, so it may or may not have been applied; looking for it on the service before sending again.`;
    case 'INTERRUPTED':
      return 'The app stopped while this was being sent; looking for it on the service before sending again.';
    case 'UNKNOWN':
      return `No answer came back${said}; looking for it on the service before sending again.`;
    default:
      return o.lastError?.message ?? 'Looking for it on the service before sending again.';
  }
}

export const clockTime = (at: number) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** The one countdown of a wait: "in 43 s", "in 14 min", from its end time and the ticking now (every view says the same). */
export function inTime(at: number, now: number): string {
  const s = Math.max(0, Math.ceil((at - now) / 1000));
  if (s < 90) return `in ${s} s`;
  return `in ${Math.round(s / 60)} min`;
}

export function windowLength(ms: number): string {
  if (ms % 86_400_000 === 0) return ms === 86_400_000 ? 'day' : `${ms / 86_400_000} days`;
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} min`;
  return ms === 1000 ? 'second' : `${Math.round(ms / 1000)} s`;
}

/**
 * What the "Waiting" column says of a queued or sending item: why it waits and until when, only
 * as far as it is true now (no "now" while offline, no "Sending" while the rate limit holds it).
 */
export function waitLabel(w: OutboxWait | undefined, o: OutboxItem, now: number): string {
  if (!w) return o.state === 'sending' ? 'Sending' : '';
  const behind = `behind ${w.ahead} earlier change${w.ahead === 1 ? '' : 's'} of this account`;
  // Held by the connection, every change waits alike: its place in the order is what tells them apart.
  const then = w.ahead === 0 ? '' : `; ${w.ahead} earlier change${w.ahead === 1 ? ' goes' : 's go'} first`;
  switch (w.reason) {
    case 'sending':
      return 'Sending now';
    case 'next':
      return 'Next to send';
    case 'turn':
      return `Its turn comes ${behind}`;
    case 'offline':
      return `Offline: sent when the service can be reached again${then}`;
    case 'working_offline':
      return `Working offline: nothing is sent until you go online${then}`;
    case 'signing_in':
      return `Waiting for sign-in${then}`;
    case 'retry':
      return w.until === null ? 'Tried again soon' : `Tried again ${inTime(w.until, now)} (${clockTime(w.until)})`;
    case 'rate_limit': {
      const win = w.window;
      const when = w.until === null ? 'when an answer frees a slot' : `${inTime(w.until, now)} (${clockTime(w.until)})`;
      if (!win) return `Rate limit: the service asked to wait; sent ${when}`;
      if (win.name === 'Retry-After') return `Rate limit (${win.group}): the service asked to wait; sent ${when}`;
      return `Rate limit (${win.group}): ${win.used} of ${win.quota} per ${windowLength(win.windowMs)} used; a request fits again ${when}`;
    }
  }
}

/**
 * Take back to draft (queued) or Fix (failed, blocked): only a change made from a draft, and
 * never one on its way or being looked for on the service (it may be there already).
 */
export const canTakeBack = (o: OutboxItem) =>
  o.draftId !== undefined && (o.state === 'queued' || o.state === 'failed' || o.state === 'blocked');

/** What the service calls a posted change: "campaign 4100123", "task 77", "tasks 77, 78"; '' when it named nothing. */
export function postedLabel(o: OutboxItem): string {
  if (!o.posted || o.posted.ids.length === 0) return '';
  return `${o.posted.kind}${o.posted.ids.length > 1 ? 's' : ''} ${o.posted.ids.join(', ')}`;
}

/**
 * Blocks that sending the same change again can only meet again: a time that has passed stays
 * passed, and a task that has run or was cancelled never becomes a future one (main's recheck.ts
 * codes). Such an item is fixed by a new time or in its draft, never by Retry.
 */
const BLOCKED_FOR_GOOD: ReadonlySet<string> = new Set(['TIME_PASSED', 'TASK_NOT_FUTURE']);

/** Whether sending a blocked change again as it is can only be blocked again (by its block's code). */
export const blockedForGood = (code: string | undefined) => BLOCKED_FOR_GOOD.has(code ?? '');

/** Retry: a failed or blocked item goes back to the queue; a queued one is tried now. */
/**
 * Retry and the edited draft are never both live: once the draft is edited, only queueing it again
 * sends. A queued change offers "try now" only where trying now can do something: after a service
 * error or while the service seemed unreachable; not while working offline, signing in, held by the
 * rate limit or simply waiting its turn, where the button would promise what cannot happen.
 */
export const canRetry = (o: OutboxItem, w?: OutboxWait) =>
  (o.state === 'failed' && !o.draftEdited) ||
  (o.state === 'blocked' && !o.draftEdited && !blockedForGood(o.lastError?.code)) ||
  (o.state === 'queued' && (w?.reason === 'retry' || w?.reason === 'offline'));
/** An item being sent cannot be pulled back; a sent one has nothing left to discard. */
export const canDiscard = (o: OutboxItem) => o.state !== 'sending' && o.state !== 'sent';
