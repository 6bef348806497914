// Drains the outbox: per lane (one account of one profile) one item at a time in the lane's order
// (the order of queueing, unless the person moved a queued item), lanes independently of each other,
// through the scheduler at outbox priority.
//
// Per item: check it again with the shared rules (blocked if it no longer passes), write its send
// note (creates and pushes), send, and settle by what the answer means:
//   2xx                    -> sent (caches updated)
//   4xx                    -> failed with the server's words; the lane moves on (a refused item
//                             has no effect later items could depend on, and holding the lane
//                             would let one typo stall every change of the account)
//   401 / sign-in needed   -> back to queued, waiting for sign-in (never failed)
//   429 (retries spent)    -> back to queued after Retry-After
//   network (not sent)     -> back to queued with backoff; the profile goes offline and is probed
//   lost answer, timeout,
//   5xx, unreadable 2xx    -> uncertain: looked for on the service before anything is resent
//                             (5xx: given up as failed after maxServerAttempts, with Retry)
// An uncertain item holds its lane: the next item may depend on whether it happened.
//
// Looking for an uncertain create or push (DECISIONS client 8):
//   - a grace period after its latest send (a slow server may still be applying it), the service
//     is asked for what the item sent, in the form it may store it (signature.ts): newest
//     campaigns first, the whole listing when that proves nothing (send-item.ts);
//   - one match: sent. Several: the person is asked which one it is ('AMBIGUOUS'; the engine no
//     longer resolves it alone, and never resends while in doubt);
//   - none: not yet proof, since a service may apply a request seconds after its connection
//     closed, or list it late. A second look-up a fresh grace period after the first, and not
//     before listingLagMs after the latest send, must also find nothing: only then is the item
//     provably absent and sent again. Both look-ups and the send times are on the service's clock
//     (DECISIONS client 10) and kept in the send note across restarts;
//   - still undecided laneHoldMs after its latest send (the person has not answered, or look-ups
//     keep failing): parked ('PARKED', saying what to decide), and the lane goes on without it.
// DECISIONS client 16.
// Idempotent items (task update and cancel, sw-path) are simply sent again; a refusal of such a
// resend is checked against the task on the service, since our lost first attempt may be the
// reason for it (the task is cancelled already, or already holds the update).
import { AMBIGUOUS_CODE, ON_THE_WAY_STATES, PARKED_CODE, waitsForPerson } from '../../shared/domain/outbox';
import type { Clock, TimerHandle } from '../clock/clock';
import { isServiceError, type ServiceClient, type ServiceError } from '../service';
import type { OutboxItem, OutboxLane, SendNote, Store, StoredError } from '../store';
import { DeskError } from '../../shared/errors';
import type { Campaign } from '../../shared/domain/campaign';
import type { Task } from '../../shared/domain/push';
import { isServiceValue } from '../../shared/domain/service-values';
import { backoffDelay, type BackoffPolicy } from '../connections/backoff';
import { campaignBaseline, claimedCampaignIds, claimedTaskIds, newestCachedCampaignId, taskBaseline, tasksOwedElsewhere } from './baseline';
import type { Connections } from '../connections/connections';
import type { EventHub } from '../events/event-hub';
import { recheck } from './recheck';
import { findPushTasks, listForMatch, matchCampaign, performItem, type PushTasksFound, type SendResult } from './send-item';
import { HistoryRetention } from './retention';
import { postedAs, postedWords } from './posted';
import { noteOnServiceClock, sendNoteRef, serviceNowFor, type SendNotes } from './send-notes';
import { campaignMatchesCreate, targetApps, taskHasUpdate } from './signature';

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

/** Items that wait only for the connection or a sign-in, not for a backoff of their own. */
const WAITING_FOR_CONNECTION = new Set(['OFFLINE', 'SIGN_IN']);

/** What a look-up concluded: the ids found (a create's campaign as listed), none, or several to ask about. */
type LookUpResult = { kind: 'found'; ids: string[]; campaign?: Campaign } | { kind: 'absent' } | { kind: 'ambiguous'; candidates: string[] };

/** The code of an uncertain item whose look-up found more than one match: the person decides. */
export const AMBIGUOUS = AMBIGUOUS_CODE;

const laneKey = (l: OutboxLane) => `${l.profileId}\u0000${l.accountId ?? ''}`;

/**
 * How a change came to be in doubt, as the person is told when it is parked: a 5xx is the
 * service's own answer (in its words), only a missing answer was lost.
 */
const lostHow = (e: StoredError | null) => (e?.said ? `The service answered with an error (${e.said})` : 'The answer was lost');
export const OFFLINE_MESSAGE = 'The service could not be reached; your change is queued and will be sent when it is back.';

export class OutboxDrainer {
  readonly #d: DrainDeps;
  readonly #busy = new Map<string, Promise<void>>();
  /**
   * Uncertain items wait until then (our clock, ms) before their next look-up: the rest of a grace
   * period, or a backoff after a look-up that failed.
   */
  readonly #lookAgainAt = new Map<number, { at: number; tries: number }>();
  /** A create or push the service answered 5xx with Retry-After: if found absent, not resent before this. */
  readonly #retryAfterAt = new Map<number, number>();
  /** Items the person asked to send now, whatever their retry time. */
  readonly #forced = new Set<number>();
  /** When each profile last came back (online again, or signed in again). */
  readonly #resumedAt = new Map<string, number>();
  #timer?: TimerHandle;
  #kickQueued = false;
  #closed = false;

  /** Sent items and activity older than the retention period go (at start-up, then after sends). */
  readonly #retention: HistoryRetention;

  constructor(deps: DrainDeps) {
    this.#d = deps;
    this.#retention = new HistoryRetention(deps.store, () => deps.clock.now());
    this.#retention.maybePrune();
  }

  /** Looks for work soon (coalesced). */
  kick(): void {
    if (this.#kickQueued || this.#closed) return;
    this.#kickQueued = true;
    setImmediate(() => {
      this.#kickQueued = false;
      this.#pump();
    });
  }

  /**
   * The profile can be reached (or is signed in) again: what waited only for that is due at once,
   * however far its backoff had grown.
   */
  resume(profileId: string): void {
    this.#resumedAt.set(profileId, this.#d.clock.now());
    this.kick();
  }

  /** The person asked to try now: forget any wait on this item and look for work. */
  retryNow(seq: number): void {
    this.#lookAgainAt.delete(seq);
    this.#forced.add(seq);
    this.kick();
  }

  #pump(): void {
    if (this.#closed) return;
    const { store, connections, clock } = this.#d;
    const now = clock.now();
    this.#timer?.cancel();
    this.#timer = undefined;
    let next = Infinity;
    const heads = new Map<string, OutboxItem>();
    // The list gives each lane in its order (in flight first, then as the person ordered it).
    const parked: OutboxItem[] = [];
    for (const item of store.outbox.list({ states: ON_THE_WAY_STATES })) {
      const k = laneKey(item);
      // A parked item waits for the person aside; the lane goes on behind it.
      if (item.state === 'uncertain' && item.lastError?.code === PARKED_CODE) parked.push(item);
      else if (!heads.has(k)) heads.set(k, item);
    }
    for (const item of parked) {
      const key = `parked\u0000${item.seq}`;
      if (this.#busy.has(key) || !connections.canUse(item.profileId)) continue;
      if (item.kind !== 'create_campaign' && item.kind !== 'send_push') continue;
      // Several matches: only the person can choose; there is nothing more to look for.
      if ((this.#d.notes.get(item.seq, sendNoteRef(item))?.candidates?.length ?? 0) > 0) continue;
      const wait = this.#lookAgainAt.get(item.seq);
      if (wait && wait.at > now) next = Math.min(next, wait.at);
      else this.#run(key, () => this.#lookAgainParked(item));
    }
    for (const [k, head] of heads) {
      if (this.#busy.has(k) || !connections.canUse(head.profileId)) continue;
      if (head.state === 'uncertain') {
        // No change holds its lane longer than laneHoldMs: past it, it waits for the person aside.
        const parkAt = this.#parkAt(head);
        if (parkAt !== undefined && parkAt <= now) {
          this.#park(head);
          continue;
        }
        if (parkAt !== undefined) next = Math.min(next, parkAt);
        // Waiting for the person to say which match is theirs: nothing to do until then.
        if (head.lastError?.code === AMBIGUOUS) continue;
        const wait = this.#lookAgainAt.get(head.seq);
        if (wait && wait.at > now) next = Math.min(next, wait.at);
        else this.#run(k, () => this.#resolve(head));
      } else if (head.state === 'queued') {
        const resumed = this.#resumedAt.get(head.profileId);
        const waitedForConnection = WAITING_FOR_CONNECTION.has(head.lastError?.code ?? '') && resumed !== undefined && resumed >= head.updatedAt;
        if (head.nextAttemptAt > now && !waitedForConnection && !this.#forced.has(head.seq)) next = Math.min(next, head.nextAttemptAt);
        else {
          this.#forced.delete(head.seq);
          const claimed = store.outbox.claimNext(head, Math.max(now, head.nextAttemptAt));
          if (claimed) this.#run(k, () => this.#send(claimed));
        }
      }
      // 'sending' and not busy here: another process holds it (it becomes uncertain at restart).
    }
    if (Number.isFinite(next)) this.#timer = clock.setTimer(() => this.#pump(), Math.max(10, next - now));
  }

  /**
   * When (our clock) an uncertain create or push has held its lane for laneHoldMs since its latest
   * send (kept in its note, so a restart does not start the bound again). Undefined without a note:
   * such an item is queued again at its first look, holding nothing.
   */
  #parkAt(item: OutboxItem): number | undefined {
    if (item.kind !== 'create_campaign' && item.kind !== 'send_push') return undefined;
    const stored = this.#d.notes.get(item.seq, sendNoteRef(item));
    if (!stored) return undefined;
    let offset: number | null = null;
    try {
      offset = this.#d.connections.client(item.profileId).serviceClock.offsetMs();
    } catch {
      // No client: the note's own offset.
    }
    const note = noteOnServiceClock(stored, offset);
    const now = this.#d.clock.now();
    return now + (note.lastSentAt + this.#d.laneHoldMs - serviceNowFor(now, offset, note));
  }

  /** The item held its lane as long as it may: it waits for the person aside, saying what to decide. */
  #park(item: OutboxItem): void {
    const candidates = item.kind === 'create_campaign' || item.kind === 'send_push' ? this.#d.notes.get(item.seq, sendNoteRef(item))?.candidates : undefined;
    const minutes = Math.round(this.#d.laneHoldMs / 60_000);
    const what = item.kind === 'create_campaign' ? 'campaigns' : 'tasks';
    const why =
      candidates && candidates.length > 0
        ? `The answer was lost, and the service lists ${candidates.length} ${what} that look like this one (${candidates.join(', ')}). Say which one is yours, or send it again if none is.`
        : `${lostHow(item.lastError)}, and after ${minutes} min the service has not shown whether it arrived. Check the account on the service: if it is not there, send it again; if it is, discard this copy.`;
    const message = `${why} Your other changes to this account go ahead meanwhile; nothing is sent again until you decide.`;
    // Looked for again aside from the lane (#lookAgainParked), a bound from now.
    this.#lookAgainAt.set(item.seq, { at: this.#d.clock.now() + this.#d.laneHoldMs, tries: 0 });
    this.#changed(this.#d.store.outbox.reviseUncertain(item.seq, { code: PARKED_CODE, message }));
    this.#d.note(item.profileId, item.accountId, 'warning', 'outbox.parked', `${describeItem(item)}: ${message}`);
    this.kick();
  }

  #run(key: string, work: () => Promise<void>): void {
    const p = work()
      .catch((e: unknown) => {
        // A bug of ours, not the service's: keep the engine alive and say so.
        this.#d.note(null, null, 'error', 'outbox.internal', `The outbox hit an unexpected problem: ${e instanceof Error ? e.name : 'error'}.`);
      })
      .finally(() => {
        this.#busy.delete(key);
        this.kick();
      });
    this.#busy.set(key, p);
  }

  #changed(item: OutboxItem): void {
    this.#d.hub.emit('outbox.changed', { profileId: item.profileId, accountId: item.accountId ?? '' });
  }

  async #send(item: OutboxItem): Promise<void> {
    const { store, connections, clock, notes } = this.#d;
    let client: ServiceClient;
    try {
      client = connections.client(item.profileId);
    } catch (e) {
      return this.#failed(item, e);
    }
    const offset = client.serviceClock.offsetMs();
    const existing = item.kind === 'create_campaign' || item.kind === 'send_push' ? notes.get(item.seq, sendNoteRef(item)) : undefined;
    // "In the future" is judged on the service's clock, as the service will judge it.
    const now = serviceNowFor(clock.now(), offset, existing);
    const account = item.accountId ? store.accounts.get({ profileId: item.profileId, accountId: item.accountId }) : undefined;
    const task = item.kind === 'update_task' || item.kind === 'cancel_task' ? store.tasks.get(item.profileId, item.payload.taskId) : undefined;
    if (item.kind === 'cancel_task' && isServiceValue(task?.taskStatus, 'cancelled')) {
      return this.#settleSent(item, { alreadyCancelled: true }, 'was already cancelled');
    }
    const blocked = recheck(item, { now, ...(account ? { accountType: account.type } : {}), ...(task ? { task } : {}) });
    if (blocked && (item.kind === 'update_task' || item.kind === 'cancel_task') && item.attempts > 1) {
      // The task ran (or its time passed) since an earlier attempt whose answer was lost: that
      // attempt may have done it. The task on the service decides before anything is blocked.
      const done = await this.#taskAlreadyDone(item, client);
      if (done) return this.#settleTaskDone(item, done);
    }
    if (blocked) {
      this.#changed(store.outbox.markBlocked(item.seq, blocked));
      this.#d.note(item.profileId, item.accountId, 'warning', 'outbox.blocked', blocked.message);
      return;
    }
    if (item.kind === 'create_campaign' || item.kind === 'send_push') {
      const ref = sendNoteRef(item);
      // Times on the service's clock once it has answered; until then ours, moved later (send-notes.ts).
      const clockNote = offset === null ? {} : { clockOffsetMs: offset };
      if (!existing) {
        const baseline = item.kind === 'create_campaign' ? campaignBaseline(store, item) : taskBaseline(store, item);
        const newestKnownId = item.kind === 'create_campaign' ? newestCachedCampaignId(store, item) : undefined;
        notes.put({ seq: item.seq, clientRef: ref, firstSentAt: now, lastSentAt: now, baseline, ...clockNote, ...(newestKnownId ? { newestKnownId } : {}) });
      } else {
        // A new send: what earlier look-ups concluded no longer holds.
        const { absentAt: _absent, candidates: _candidates, ...kept } = noteOnServiceClock(existing, offset);
        notes.put({ ...kept, lastSentAt: now });
      }
    }
    this.#changed(item);
    let result: SendResult;
    try {
      result = await performItem(client, item);
    } catch (e) {
      return this.#failed(item, e);
    }
    connections.noteSuccess(item.profileId);
    if (item.kind === 'create_campaign' && result.kind === 'create_campaign' && result.campaign === null) return this.#postedIdUnknown(item, client);
    let stored: Record<string, unknown> = {};
    try {
      stored = await this.#d.afterSent(item, result);
    } catch {
      // Caches are refreshed again later; the send itself succeeded.
    }
    if (item.kind === 'send_push' && stored.taskIds === undefined) {
      // Learn which tasks are ours so that a later identical push is never taken for this one.
      const fromCache = async (appId: string) => store.tasks.list(item.profileId, appId).filter((t) => isServiceValue(t.taskType, item.payload.mode));
      stored.taskIds = await this.#findPush(item, client, fromCache).then((r) => r?.found ?? [], () => []);
    }
    return this.#settleSent(item, stored, 'was sent');
  }

  /**
   * A create the service took (a 2xx) without saying which campaign it made: it is posted, so it is
   * never sent again, whatever a look-up shows. The look-up that finds lost answers tells its id
   * now; when it cannot (a listing that lags, several alike, a read that failed), the item is sent
   * with its id unknown, and the account's next refresh lists the campaign.
   */
  async #postedIdUnknown(item: Extract<OutboxItem, { kind: 'create_campaign' }>, client: ServiceClient): Promise<void> {
    const note = this.#d.notes.get(item.seq, sendNoteRef(item));
    const found = note ? await this.#lookUp(item, client, note).catch(() => undefined) : undefined;
    if (found?.kind === 'found' && found.campaign) {
      await this.#d.afterSent(item, { kind: 'create_campaign', campaign: found.campaign }).catch(() => ({}));
      return this.#settleSent(item, { campaignId: found.campaign.id, foundAfterPosting: true }, `was sent: campaign ${found.campaign.id} (found on the service; its answer did not name it)`);
    }
    return this.#settleSent(item, { idUnknown: true }, 'was sent; the service did not say which campaign it made, and the next refresh lists it');
  }

  #settleSent(item: OutboxItem, result: Record<string, unknown>, what: string): void {
    const { store, notes } = this.#d;
    const sent = store.outbox.markSent(item.seq, result);
    notes.remove(item.seq);
    this.#lookAgainAt.delete(item.seq);
    if (item.draftId) store.drafts.remove(item.draftId);
    this.#changed(sent);
    this.#d.hub.emit('data.changed', { profileId: item.profileId, accountId: item.accountId, what: 'drafts' });
    // "... was sent: campaign 4100123": the id the service gave it, when the answer named one.
    const posted = what === 'was sent' ? postedAs(result) : undefined;
    this.#d.note(item.profileId, item.accountId, 'info', 'outbox.sent', `${describeItem(item)} ${what}${posted ? `: ${postedWords(posted)}` : ''}.`);
    this.#retention.maybePrune();
  }

  #failed(item: OutboxItem, e: unknown): Promise<void> | void {
    const { store, connections, clock } = this.#d;
    const now = clock.now();
    const later = (err: StoredError, at = now + backoffDelay(item.attempts, this.#d.retryBackoff)) => this.#changed(store.outbox.retryLater(item.seq, at, err));
    if (e instanceof DeskError) {
      // Raised before the request left (no client, no secret, keychain locked): nothing was sent.
      connections.noteFailure(item.profileId, e, { read: false });
      return later({ code: 'SIGN_IN', message: `Waiting: ${e.message}` });
    }
    if (!isServiceError(e)) return this.#uncertain(item, { code: 'UNKNOWN', message: 'Something went wrong while sending; checking the service before sending again.' });
    const err: ServiceError = e;
    switch (err.kind) {
      case 'validation':
        if (!err.requestWritten) {
          this.#changed(store.outbox.markBlocked(item.seq, { code: 'RULES', message: err.message }));
          return;
        }
        if (item.kind === 'cancel_task' || item.kind === 'update_task') return this.#checkTaskAfterRefusal(item, err);
        if (item.kind === 'send_push') {
          // The refusal's Date header taught us the service's clock (it may have moved while we were
          // offline): a time passed on it is the block a person fixes in one click, not a failure.
          const passed = recheck(item, { now: connections.serviceNow(item.profileId) });
          if (passed?.code === 'TIME_PASSED') {
            this.#d.notes.remove(item.seq);
            this.#changed(store.outbox.markBlocked(item.seq, passed));
            return this.#d.note(item.profileId, item.accountId, 'warning', 'outbox.blocked', passed.message);
          }
        }
        return this.#refused(item, err);
      case 'not_found':
        if (item.kind === 'cancel_task' || item.kind === 'update_task') return this.#checkTaskAfterRefusal(item, err);
        return this.#refused(item, err);
      case 'forbidden':
        return this.#refused(item, err);
      case 'unauthorized':
        connections.noteFailure(item.profileId, err, { read: false });
        return later({ code: 'SIGN_IN', message: `Waiting for sign-in: ${err.message}` });
      case 'rate_limited':
        return later({ code: 'RATE_LIMITED', message: err.message }, now + (err.retryAfterMs ?? backoffDelay(item.attempts, this.#d.retryBackoff)));
      case 'network':
        connections.noteFailure(item.profileId, err, { read: false });
        return later({ code: 'OFFLINE', message: OFFLINE_MESSAGE });
      case 'cancelled':
        if (!err.requestWritten) return later({ code: 'CANCELLED', message: 'Sending was interrupted; it will be sent again.' }, now);
        return this.#uncertain(item, { code: 'UNKNOWN', message: err.message });
      case 'server':
        if (isIdempotent(item)) {
          if (item.attempts >= this.#d.maxServerAttempts) return this.#giveUp(item, err.message);
          // Not before the Retry-After the service gave (RFC 9110 10.2.3), however short the backoff.
          return later({ code: 'SERVER', message: err.message }, now + Math.max(backoffDelay(item.attempts, this.#d.retryBackoff), err.retryAfterMs ?? 0));
        }
        if (err.retryAfterMs !== undefined) this.#retryAfterAt.set(item.seq, now + err.retryAfterMs);
        {
          const said = [err.status, err.serverText].filter((x) => x !== undefined && x !== '').join(': ');
          return this.#uncertain(item, { code: 'SERVER', message: err.message, ...(said ? { said } : {}) });
        }
      default:
        // outcome_unknown, timeout, protocol (a 2xx we could not read): it may have happened.
        return this.#uncertain(item, { code: 'UNKNOWN', message: err.message });
    }
  }

  #refused(item: OutboxItem, err: ServiceError): void {
    this.#changed(this.#d.store.outbox.markFailed(item.seq, { code: err.kind === 'forbidden' ? 'FORBIDDEN' : 'REFUSED', message: err.message }));
    this.#d.notes.remove(item.seq);
    this.#d.note(item.profileId, item.accountId, 'error', 'outbox.failed', `${describeItem(item)} was refused: ${err.message}`);
    this.#d.afterRefused?.(item, { message: err.serverText ?? err.message, ...(err.status === undefined ? {} : { status: err.status }), ...(err.problems ? { fields: err.problems.map((p) => p.field) } : {}) });
  }

  #giveUp(item: OutboxItem, message: string): void {
    this.#changed(
      this.#d.store.outbox.markFailed(item.seq, {
        code: 'SERVER',
        message: `The service kept failing (${item.attempts} attempts): ${message} Use Retry to try again.`,
      }),
    );
    this.#d.notes.remove(item.seq);
    this.#d.note(item.profileId, item.accountId, 'error', 'outbox.failed', `${describeItem(item)} failed ${item.attempts} times.`);
  }

  /** `err.said`: the status and words of a 5xx answer ("500: Internal server error"). */
  #uncertain(item: OutboxItem, err: StoredError): void {
    const said = err.said;
    this.#changed(this.#d.store.outbox.markUncertain(item.seq, err));
    // A 5xx is an answer: the service said it failed, in its words; it may still have applied the
    // change, which is why it is looked for all the same. Only a missing answer was "lost".
    const what = err.code === 'SERVER' ? `the service failed${said ? ` (${said})` : ''} and may have made it all the same` : 'the answer was lost';
    this.#d.note(item.profileId, item.accountId, 'warning', 'outbox.uncertain', `${describeItem(item)}: ${what}; checking the service before sending again.`);
  }

  /**
   * A task update or cancel refused (400, 404, 409, 410, 422: services word "no longer a future
   * task" differently). Resent after a lost answer, the refusal may be our own first attempt's
   * doing, so the task on the service decides (#taskAlreadyDone). Otherwise the refusal stands, in
   * the service's words.
   */
  async #checkTaskAfterRefusal(item: Extract<OutboxItem, { kind: 'cancel_task' | 'update_task' }>, err: ServiceError): Promise<void> {
    let client: ServiceClient | undefined;
    try {
      client = this.#d.connections.client(item.profileId);
    } catch {
      // No client: the refusal stands.
    }
    const done = client ? await this.#taskAlreadyDone(item, client) : undefined;
    if (!done) return this.#refused(item, err);
    return this.#settleTaskDone(item, done);
  }

  /**
   * Whether the service already shows what a task update or cancel asked for: the task cancelled,
   * or holding the update; or, for a cancel after an earlier attempt of ours, gone from the
   * service (that attempt may have removed it, and a task that is gone will not run). Undefined
   * when it does not, or when the service could not be asked.
   */
  async #taskAlreadyDone(item: Extract<OutboxItem, { kind: 'cancel_task' | 'update_task' }>, client: ServiceClient): Promise<{ result: Record<string, unknown>; what: string } | undefined> {
    // attempts counts this one: more than one means an earlier attempt may have reached the service.
    const earlierAttempt = item.attempts > 1;
    let tasks: Task[];
    try {
      tasks = await client.listTasks(item.payload.appId, undefined, { priority: 'outbox' });
    } catch {
      return undefined;
    }
    const t = tasks.find((x) => x.taskId === item.payload.taskId);
    if (t) this.#d.store.tasks.upsert(item.profileId, t);
    if (item.kind === 'cancel_task') {
      if (isServiceValue(t?.taskStatus, 'cancelled')) return { result: { alreadyCancelled: true }, what: 'was already cancelled' };
      if (!t && earlierAttempt) return { result: { goneFromService: true }, what: 'is done: the task is no longer on the service (our earlier attempt removed it)' };
      return undefined;
    }
    return t && taskHasUpdate(t, item.payload.update) === true ? { result: { alreadyApplied: true }, what: 'was already applied' } : undefined;
  }

  async #settleTaskDone(item: Extract<OutboxItem, { kind: 'cancel_task' | 'update_task' }>, done: { result: Record<string, unknown>; what: string }): Promise<void> {
    await this.#d.afterSent(item, { kind: item.kind, ack: '' }).catch(() => ({}));
    this.#settleSent(item, done.result, done.what);
  }

  /**
   * The tasks a push made, among those `listTasks` gives per target app (default: the service's
   * list of the push's mode). Read first, then matched: the answers teach the service's clock,
   * which the note's times are moved to before they are compared with the tasks' times.
   */
  async #findPush(
    item: Extract<OutboxItem, { kind: 'send_push' }>,
    client: ServiceClient,
    listTasks?: (appId: string) => Promise<Task[]>,
  ): Promise<PushTasksFound | undefined> {
    const stored = this.#d.notes.get(item.seq, sendNoteRef(item));
    if (!stored) return undefined;
    const read = listTasks ?? ((appId: string) => client.listTasks(appId, item.payload.mode, { priority: 'outbox' }));
    const byApp = new Map<string, Task[]>();
    for (const appId of new Set(item.payload.events.flatMap(targetApps))) byApp.set(appId, await read(appId));
    const note = noteOnServiceClock(stored, client.serviceClock.offsetMs());
    const claimed = claimedTaskIds(this.#d.store, item);
    const excluded = new Set([...note.baseline, ...claimed]);
    const before = new Set(note.baseline);
    const owed = (appId: string, candidates: readonly Task[], listed: readonly Task[]) =>
      tasksOwedElsewhere(this.#d.store, item, appId, candidates, listed.filter((t) => before.has(t.taskId) && !claimed.has(t.taskId)));
    return findPushTasks(async (appId) => byApp.get(appId) ?? [], item, note.firstSentAt, excluded, owed);
  }

  /** Looks for an uncertain create or push on the service: found, absent, or ambiguous. */
  async #lookUp(item: Extract<OutboxItem, { kind: 'create_campaign' | 'send_push' }>, client: ServiceClient, note: SendNote): Promise<LookUpResult> {
    if (item.kind === 'create_campaign') {
      const excluded = new Set([...note.baseline, ...claimedCampaignIds(this.#d.store, item)]);
      const isCandidate = (c: Campaign) => !excluded.has(c.id) && campaignMatchesCreate(c, item.payload.body);
      const listed = await listForMatch(client, item.accountId ?? '', note.newestKnownId, isCandidate);
      const r = matchCampaign(listed, item.payload.body, excluded);
      if (r.kind === 'found') return { kind: 'found', ids: [r.match.id], campaign: r.match };
      if (r.kind === 'ambiguous') return { kind: 'ambiguous', candidates: r.candidates.map((c) => c.id) };
      return r;
    }
    const r = await this.#findPush(item, client);
    if (!r || (r.found.length === 0 && r.ambiguous.length === 0)) return { kind: 'absent' };
    if (r.ambiguous.length > 0) return { kind: 'ambiguous', candidates: r.ambiguous };
    // The service creates all of a push's tasks or none: some found means it was applied.
    return { kind: 'found', ids: r.found };
  }

  /** An uncertain item: look on the service, then sent (found), queued again (provably absent), or the person asked (ambiguous). */
  async #resolve(item: OutboxItem): Promise<void> {
    const { store, connections, clock, notes } = this.#d;
    if (waitsForPerson(item)) return;
    const serverError = item.lastError?.code === 'SERVER';
    const requeue = () => {
      if (serverError && item.attempts >= this.#d.maxServerAttempts) return this.#giveUp(item, item.lastError?.said ? `its last answer was ${item.lastError.said}.` : (item.lastError?.message ?? ''));
      const backoff = serverError ? clock.now() + backoffDelay(item.attempts, this.#d.retryBackoff) : clock.now();
      const at = Math.max(backoff, this.#retryAfterAt.get(item.seq) ?? 0);
      this.#retryAfterAt.delete(item.seq);
      this.#lookAgainAt.delete(item.seq);
      this.#changed(store.outbox.requeue(item.seq, { nextAttemptAt: at }));
    };
    // Updates, cancels and sw-paths are idempotent: simply sent again.
    if (item.kind !== 'create_campaign' && item.kind !== 'send_push') return requeue();
    const stored = notes.get(item.seq, sendNoteRef(item));
    // No note: the crash came before the note was written, so before anything was sent.
    if (!stored) return requeue();
    const lookFailed = (e: unknown) => {
      connections.noteFailure(item.profileId, e, { read: true });
      const tries = (this.#lookAgainAt.get(item.seq)?.tries ?? 0) + 1;
      this.#lookAgainAt.set(item.seq, { at: clock.now() + backoffDelay(tries, this.#d.retryBackoff), tries });
    };
    let client: ServiceClient;
    try {
      client = connections.client(item.profileId);
    } catch (e) {
      return lookFailed(e);
    }
    const waitUntil = (serviceTime: number, now: number) => {
      this.#lookAgainAt.set(item.seq, { at: clock.now() + (serviceTime - now), tries: this.#lookAgainAt.get(item.seq)?.tries ?? 0 });
    };
    {
      const note = noteOnServiceClock(stored, client.serviceClock.offsetMs());
      const now = serviceNowFor(clock.now(), client.serviceClock.offsetMs(), note);
      // A grace period after the latest send, or after the look-up that last found nothing.
      const due = (note.absentAt ?? note.lastSentAt) + this.#d.uncertainGraceMs;
      if (due > now) return waitUntil(due, now);
    }
    let found: LookUpResult;
    try {
      found = await this.#lookUp(item, client, stored);
    } catch (e) {
      return lookFailed(e);
    }
    connections.noteSuccess(item.profileId);
    // The look-up's answers may have taught the service's clock: the note's times move onto it.
    const offset = client.serviceClock.offsetMs();
    const note = noteOnServiceClock(stored, offset);
    const now = serviceNowFor(clock.now(), offset, note);
    if (found.kind === 'found') return this.#settleFound(item, found);
    if (found.kind === 'ambiguous') return this.#askPerson(item, note, found.candidates);
    // Lists may lag: nothing is absent before the listing had time to show it.
    const listedBy = note.lastSentAt + this.#d.listingLagMs;
    if (note.absentAt === undefined || now < listedBy) {
      // One "not found" is not proof: a service may still apply the request, or list it late. Look
      // again a fresh grace period from now and not before the listing lag has passed; the first
      // look-up is remembered across a restart.
      notes.put({ ...note, absentAt: note.absentAt ?? now });
      const at = Math.max(now + this.#d.uncertainGraceMs, listedBy);
      const seconds = Math.ceil((at - now) / 1000);
      this.#changed(
        store.outbox.reviseUncertain(item.seq, {
          code: item.lastError?.code ?? 'UNKNOWN',
          message: `Not found on the service yet; looking once more in ${seconds} s before sending it again (a slow service may still be applying it or listing it).`,
        }),
      );
      return waitUntil(at, now);
    }
    // Not found twice, a grace period apart, the second after the listing lag: provably absent.
    return requeue();
  }

  /** The look-up found the item on the service: sent, with the id it has there. */
  async #settleFound(item: Extract<OutboxItem, { kind: 'create_campaign' | 'send_push' }>, found: Extract<LookUpResult, { kind: 'found' }>): Promise<void> {
    if (item.kind === 'create_campaign' && found.campaign) {
      await this.#d.afterSent(item, { kind: 'create_campaign', campaign: found.campaign }).catch(() => ({}));
      return this.#settleSent(item, { campaignId: found.campaign.id, foundAfterLostAnswer: true }, `was found on the service (campaign ${found.campaign.id})`);
    }
    await this.#d.afterSent(item, { kind: 'send_push', ack: '' }).catch(() => ({}));
    return this.#settleSent(item, { taskIds: found.ids, foundAfterLostAnswer: true }, 'was found on the service');
  }

  /**
   * A parked item with no candidates (its look-ups could not decide) is still looked for, aside from
   * its lane, once per laneHoldMs: found, it is sent with its id; several matches or provably absent,
   * its words say so, and it keeps waiting for the person (nothing parked is sent again on its own).
   */
  async #lookAgainParked(item: Extract<OutboxItem, { kind: 'create_campaign' | 'send_push' }>): Promise<void> {
    const { store, connections, clock, notes } = this.#d;
    this.#lookAgainAt.set(item.seq, { at: clock.now() + this.#d.laneHoldMs, tries: 0 });
    const stored = notes.get(item.seq, sendNoteRef(item));
    if (!stored) return;
    let found: LookUpResult;
    let client: ServiceClient;
    try {
      client = connections.client(item.profileId);
      found = await this.#lookUp(item, client, stored);
    } catch {
      return; // Looked for again at the next turn.
    }
    // The person may have answered meanwhile: then their answer stands.
    const current = store.outbox.get(item.seq);
    if (!current || current.state !== 'uncertain' || current.lastError?.code !== PARKED_CODE) return;
    if (found.kind === 'found') return this.#settleFound(item, found);
    const offset = client.serviceClock.offsetMs();
    const note = noteOnServiceClock(stored, offset);
    const now = serviceNowFor(clock.now(), offset, note);
    let message: string;
    if (found.kind === 'ambiguous') {
      notes.put({ ...note, candidates: found.candidates });
      const what = item.kind === 'create_campaign' ? 'campaigns' : 'tasks';
      message = `The answer was lost, and the service now lists ${found.candidates.length} ${what} that look like this one (${found.candidates.join(', ')}). Say which one is yours, or send it again if none is.`;
    } else {
      notes.put({ ...note, absentAt: note.absentAt ?? now });
      if (note.absentAt === undefined || now < note.lastSentAt + this.#d.listingLagMs) return;
      // Not found twice, a look apart, the second after the listing lag: provably absent, which is
      // exactly when a change is sent again (DECISIONS client 8); the person need not decide that.
      this.#lookAgainAt.delete(item.seq);
      this.#d.note(item.profileId, item.accountId, 'info', 'outbox.absent', `${describeItem(item)}: not found on the service after its answer was lost; sent again.`);
      this.#changed(store.outbox.requeue(item.seq, { nextAttemptAt: clock.now() }));
      return;
    }
    const words = `${message} Your other changes to this account go ahead meanwhile; nothing is sent again until you decide.`;
    if (current.lastError?.message === words) return;
    this.#changed(store.outbox.reviseUncertain(item.seq, { code: PARKED_CODE, message: words }));
  }

  /** More than one match: the person says which one is theirs, or that none is (drafts-handlers: outbox.*). */
  #askPerson(item: Extract<OutboxItem, { kind: 'create_campaign' | 'send_push' }>, note: SendNote, candidates: string[]): void {
    this.#d.notes.put({ ...note, candidates });
    this.#lookAgainAt.delete(item.seq);
    const what = item.kind === 'create_campaign' ? 'campaigns' : 'tasks';
    const message =
      `The answer was lost, and the service now lists ${candidates.length} ${what} that look like this one ` +
      `(${candidates.join(', ')}). Say which one is yours, or send it again if none is; nothing is sent until you do.`;
    this.#changed(this.#d.store.outbox.reviseUncertain(item.seq, { code: AMBIGUOUS, message }));
    this.#d.note(item.profileId, item.accountId, 'warning', 'outbox.ambiguous', `${describeItem(item)}: ${message}`);
  }

  /** The candidates an ambiguous item waits on, or undefined when the item is not waiting for the person. */
  candidates(seq: number): { kind: 'campaign' | 'task'; ids: string[] } | undefined {
    const item = this.#d.store.outbox.get(seq);
    if (!item || !waitsForPerson(item)) return undefined;
    if (item.kind !== 'create_campaign' && item.kind !== 'send_push') return undefined;
    const note = this.#d.notes.get(seq, sendNoteRef(item));
    return { kind: item.kind === 'create_campaign' ? 'campaign' : 'task', ids: note?.candidates ?? [] };
  }

  /** The person says which candidate is theirs: the item is sent, with that id as its result. */
  confirmMatch(seq: number, candidateId: string): OutboxItem {
    const item = this.#waitingForPerson(seq);
    const offered = this.candidates(seq)?.ids ?? [];
    if (!offered.includes(candidateId)) {
      throw new DeskError('validation', `${candidateId} is not one of the matches found (${offered.join(', ') || 'none'}).`);
    }
    const result = item.kind === 'create_campaign' ? { campaignId: candidateId, confirmedByPerson: true } : { taskIds: [candidateId], confirmedByPerson: true };
    const what = item.kind === 'create_campaign' ? `campaign ${candidateId}` : `task ${candidateId}`;
    this.#settleSent(item, result, `was posted: you said it is ${what}`);
    return this.#d.store.outbox.get(seq) ?? item;
  }

  /**
   * The person says none of the candidates is theirs: the item is sent again, now, and only on
   * this explicit choice. The candidates join the baseline (they are someone else's), so a later
   * look-up for this item never takes them for its own.
   */
  sendAgain(seq: number): OutboxItem {
    const item = this.#waitingForPerson(seq);
    const note = this.#d.notes.get(seq, sendNoteRef(item));
    if (note) {
      const { candidates = [], absentAt: _absentAt, ...kept } = note;
      this.#d.notes.put({ ...kept, baseline: [...new Set([...kept.baseline, ...candidates])] });
    }
    const queued = this.#d.store.outbox.requeue(seq, { nextAttemptAt: this.#d.clock.now() });
    this.#d.note(item.profileId, item.accountId, 'info', 'outbox.send_again', `${describeItem(item)}: you said it was not posted; sending it again.`);
    this.#changed(queued);
    this.retryNow(seq);
    return queued;
  }

  #waitingForPerson(seq: number): Extract<OutboxItem, { kind: 'create_campaign' | 'send_push' }> {
    const item = this.#d.store.outbox.get(seq);
    if (!item) throw new DeskError('not_found', 'This change is no longer in the outbox. Refresh the list.');
    if (!waitsForPerson(item) || (item.kind !== 'create_campaign' && item.kind !== 'send_push')) {
      throw new DeskError('conflict', 'This change is not waiting for you to say whether it was posted.');
    }
    return item;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#timer?.cancel();
    await Promise.allSettled([...this.#busy.values()]);
  }
}

function isIdempotent(item: OutboxItem): boolean {
  return item.kind === 'update_task' || item.kind === 'cancel_task' || item.kind === 'set_sw_path';
}

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
