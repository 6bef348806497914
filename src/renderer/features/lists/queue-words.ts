// What the status bar, the Outbox tab and the Limits tab say of an account's unsent changes,
// from one source: the outbox counts (how many, in which state) and the outbox waits (why the
// first one waits, and until when). "Queued" counts what is on its way (queued, sending, being
// checked on the service); what waits for the person (failed, blocked) is said apart, never
// folded into "queued" nor left out of the tab.
import type { OutboxCount, OutboxWait, Profile } from '../../../shared/ipc/contract';
import { ON_THE_WAY_STATES } from '../../../shared/domain/outbox';
import { clockTime, inTime } from './outbox-labels';

const ON_THE_WAY = new Set<string>(ON_THE_WAY_STATES);

export interface AccountRefLike {
  profileId: string;
  accountId: string;
}

/** Counts of one account: on its way (what "queued" means), being checked, failed, blocked. */
export function accountCounts(
  counts: readonly OutboxCount[],
  ref: AccountRefLike,
): { onTheWay: number; checking: number; failed: number; blocked: number } {
  const out = { onTheWay: 0, checking: 0, failed: 0, blocked: 0 };
  for (const c of counts) {
    if (c.profileId !== ref.profileId || c.accountId !== ref.accountId) continue;
    if (ON_THE_WAY.has(c.state)) out.onTheWay += c.count;
    if (c.state === 'uncertain') out.checking += c.count;
    if (c.state === 'failed') out.failed += c.count;
    if (c.state === 'blocked') out.blocked += c.count;
  }
  return out;
}

/** "2 queued", "Nothing queued". */
export function queuedWords(onTheWay: number): string {
  return onTheWay === 0 ? 'Nothing queued' : `${onTheWay} queued`;
}

/** "1 failed", "2 blocked", "1 failed, 1 blocked"; null when nothing waits for the person. */
export function attentionWords(c: { failed: number; blocked: number }): string | null {
  const parts = [c.failed > 0 ? `${c.failed} failed` : null, c.blocked > 0 ? `${c.blocked} blocked` : null].filter(Boolean);
  return parts.length === 0 ? null : parts.join(', ');
}

/** The limit that holds a change, by the name the service gives its window ("hour"); none for a Retry-After pause. */
const limitName = (w: NonNullable<OutboxWait['window']>) => (w.name === 'Retry-After' ? null : w.name);

/**
 * When the account's queue moves on, said from the change at its head (the account's changes go
 * one at a time, so the head's wait is the queue's): null when nothing is on its way.
 */
export function headWords(
  c: { onTheWay: number; checking: number },
  waits: readonly OutboxWait[],
  connection: Profile['connection'] | undefined,
  now: number,
): string | null {
  if (c.onTheWay === 0) return null;
  if (connection === 'working_offline') return 'nothing is sent while working offline';
  if (connection === 'offline') return 'sent when the service can be reached again';
  if (connection === 'signing_in' || connection === 'failing') return 'sent after the sign-in';
  const head = waits.find((w) => w.ahead === 0);
  // The head is being looked for on the service (its answer was lost): nothing else goes before that is settled.
  if (!head)
    return c.checking > 0
      ? `checking on the service whether ${c.checking === 1 ? 'one' : `${c.checking}`} arrived before sending more`
      : null;
  switch (head.reason) {
    case 'sending':
      return 'sending now';
    case 'next':
      return 'sending next';
    case 'retry':
      return head.until === null ? 'trying again soon' : `trying again ${inTime(head.until, now)}`;
    case 'rate_limit':
      return limitWords(head, now);
    default:
      return null;
  }
}

/**
 * A change held by a rate limit, said by the limit and when it goes: "waiting for the hour limit,
 * sends at 05:55" (a wait over a minute and a half is said as a clock time, since a countdown of
 * minutes reads as stuck), "waiting for the minute limit, sends in 43 s"; null for another wait.
 */
export function limitWords(w: OutboxWait | undefined, now: number): string | null {
  if (w?.reason !== 'rate_limit') return null;
  const name = w.window ? limitName(w.window) : null;
  const what = name ? `waiting for the ${name} limit` : 'waiting: the service asked for a pause';
  if (w.until === null) return `${what}, sends once the service answers`;
  return `${what}, sends ${w.until - now > 90_000 ? `at ${clockTime(w.until).slice(0, 5)}` : inTime(w.until, now)}`;
}

/** The waits of one account, head first. */
export function accountWaits(waits: Record<string, OutboxWait>, ref: AccountRefLike): OutboxWait[] {
  return Object.values(waits)
    .filter((w) => w.profileId === ref.profileId && w.accountId === ref.accountId)
    .sort((a, b) => a.ahead - b.ahead);
}
