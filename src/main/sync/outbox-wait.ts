// Why each item on its way waits, said truthfully at the moment it is asked: the outbox row alone
// cannot say it (a "queued" row may be next in line, behind another change, held by working
// offline, or due "now" while the service cannot be reached; a "sending" row may sit in the
// rate-limit scheduler's queue for a long time). The answer joins the row with the connection's
// state and the scheduler's live model of the account's budgets.
import { ON_THE_WAY_STATES, PARKED_CODE } from '../../shared/domain/outbox';
import type { BudgetSnapshot, SchedulerSnapshot } from '../ratelimit/scheduler';
import type { OutboxItem } from '../store';
import type { ConnectionState } from '../connections/connections';

export const WAIT_REASONS = [
  /** Its request is on the wire. */
  'sending',
  /** Head of its lane, due, and the connection is usable: it goes out at the next turn of the engine. */
  'next',
  /** Behind other changes of the same account (one at a time, in order). */
  'turn',
  /** The service could not be reached; sent when it is back. */
  'offline',
  /** The person chose to work offline: nothing is sent until they go online. */
  'working_offline',
  /** Waiting for a sign-in (in progress, or needed from the person). */
  'signing_in',
  /** Held by the account's rate limit: a window is full until it refills. */
  'rate_limit',
  /** A try failed (a 5xx or a timeout before sending): tried again at a set time. */
  'retry',
] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];

export interface WaitWindow {
  group: string;
  name: string;
  used: number;
  quota: number;
  windowMs: number;
  /** When one more request fits (our clock, ms); null while only an answer can free a slot. */
  nextSlotAt: number | null;
}

export interface OutboxWait {
  seq: number;
  reason: WaitReason;
  /** When the wait is expected to end (our clock, ms); null when no time can be promised. */
  until: number | null;
  /** Changes of the same account that go before it. */
  ahead: number;
  /** For 'rate_limit': the window that holds it. */
  window: WaitWindow | null;
  /** The service's or the engine's words about the last try, when there was one. */
  lastTry: string | null;
}

export interface WaitInputs {
  now: number;
  /** Items of every lane, each lane in its order as the outbox lists it (any states; only queued and sending ones are described). */
  items: readonly OutboxItem[];
  connection(profileId: string): ConnectionState;
  /** The scheduler's account key for an item's requests (an account id, or push:<client id>). */
  rateAccount(item: OutboxItem): string | null;
  snapshot: SchedulerSnapshot;
}

const ON_THE_WAY = new Set<string>(ON_THE_WAY_STATES);
const laneKey = (i: OutboxItem) => `${i.profileId}\u0000${i.accountId ?? ''}`;

/** The window that holds a budget's queued requests longest, or null when nothing holds them. */
function holdingWindow(b: BudgetSnapshot, now: number): WaitWindow | null {
  let worst: WaitWindow | null = null;
  let worstIn = 0;
  for (const w of b.windows) {
    const free = w.used < w.quota;
    const inMs = free ? 0 : (w.nextSlotInMs ?? Infinity);
    if (inMs > worstIn) {
      worstIn = inMs;
      worst = {
        group: b.group,
        name: w.name,
        used: w.used,
        quota: w.quota,
        windowMs: w.windowMs,
        nextSlotAt: w.nextSlotInMs === null ? null : now + w.nextSlotInMs,
      };
    }
  }
  if (b.blockedForMs > worstIn) {
    // The service said to wait (Retry-After): that is the window that holds it.
    const w = b.windows[0];
    return {
      group: b.group,
      name: 'Retry-After',
      used: w?.used ?? 0,
      quota: w?.quota ?? 0,
      windowMs: w?.windowMs ?? 0,
      nextSlotAt: now + b.blockedForMs,
    };
  }
  return worst;
}

/** Budgets of this account whose queues hold outbox work, with the window that holds them. */
function rateLimitHold(snapshot: SchedulerSnapshot, account: string, now: number): WaitWindow | null {
  for (const b of snapshot.budgets) {
    if (b.account !== account || b.queued.outbox === 0 || b.state === 'unlimited') continue;
    const w = holdingWindow(b, now);
    if (w) return w;
  }
  return null;
}

function describe(item: OutboxItem, ahead: number, inputs: WaitInputs): Omit<OutboxWait, 'seq' | 'ahead' | 'lastTry'> {
  const { now } = inputs;
  const none = { until: null, window: null };
  const connection = inputs.connection(item.profileId);
  if (item.state === 'sending') {
    const account = inputs.rateAccount(item);
    const held = account === null ? null : rateLimitHold(inputs.snapshot, account, now);
    if (held) return { reason: 'rate_limit', until: held.nextSlotAt, window: held };
    return { reason: 'sending', ...none };
  }
  // Queued. What holds the whole connection comes first: it holds every item, due or not.
  if (connection === 'working_offline') return { reason: 'working_offline', ...none };
  if (connection === 'signing_in' || connection === 'failing') return { reason: 'signing_in', ...none };
  if (connection === 'offline') return { reason: 'offline', ...none };
  if (ahead > 0) return { reason: 'turn', ...none };
  if (item.nextAttemptAt > now) {
    const code = item.lastError?.code;
    if (code === 'RATE_LIMITED') return { reason: 'rate_limit', until: item.nextAttemptAt, window: null };
    if (code === 'SIGN_IN') return { reason: 'signing_in', until: null, window: null };
    if (code === 'OFFLINE') return { reason: 'offline', until: null, window: null };
    return { reason: 'retry', until: item.nextAttemptAt, window: null };
  }
  return { reason: 'next', ...none };
}

/** The wait of every queued or sending item, in the order given. */
export function outboxWaits(inputs: WaitInputs): OutboxWait[] {
  const aheadInLane = new Map<string, number>();
  const out: OutboxWait[] = [];
  for (const item of inputs.items) {
    // A parked item waits for the person aside: it holds nothing up.
    if (!ON_THE_WAY.has(item.state) || (item.state === 'uncertain' && item.lastError?.code === PARKED_CODE)) continue;
    const key = laneKey(item);
    const ahead = aheadInLane.get(key) ?? 0;
    aheadInLane.set(key, ahead + 1);
    if (item.state === 'uncertain') continue; // its own story: looking for it on the service
    out.push({ seq: item.seq, ahead, lastTry: item.lastError?.message ?? null, ...describe(item, ahead, inputs) });
  }
  return out;
}
