// Sends one outbox item and settles it by what the answer means (the drainer, outbox-drain.ts,
// picks which item and when). First the item is checked again with the shared rules (blocked if it
// no longer passes), and a create or push gets its send note (what already looked like it, when it
// was sent); then:
//   2xx                    -> sent (caches updated)
//   4xx                    -> failed with the server's words; the lane moves on (a refused item
//                             has no effect later items could depend on, and holding the lane
//                             would let one typo stall every change of the account)
//   401 / sign-in needed   -> back to queued, waiting for sign-in (never failed)
//   429 (retries spent)    -> back to queued after Retry-After
//   network (not sent)     -> back to queued with backoff; the profile goes offline and is probed
//   lost answer, timeout,
//   5xx, unreadable 2xx    -> uncertain: looked for on the service before anything is resent
//                             (lost-answers.ts; 5xx: given up as failed after maxServerAttempts)
//   a failure that did not
//   reach the service      -> back to queued with backoff (a 408, a token the authorization server
//                             could not give): nothing to look for (5xx-like: given up the same way)
// Idempotent items (task update and cancel, sw-path) are simply sent again; a refusal of such a
// resend is checked against the task on the service, since our lost first attempt may be the
// reason for it (the task is cancelled already, or already holds the update).
import { DeskError } from '../../shared/errors';
import { POSTED_ID_UNKNOWN_CODE } from '../../shared/domain/outbox';
import { isServiceValue } from '../../shared/domain/service-values';
import { backoffDelay } from '../connections/backoff';
import { isServiceError, type ServiceClient, type ServiceError } from '../service';
import type { OutboxItem, StoredError } from '../store';
import { campaignBaseline, newestCachedCampaignId, taskBaseline } from './baseline';
import { findPush, lookUp } from './lookup';
import { describeItem, POSTED_ID_UNKNOWN_WORDS, type SendResult, type DrainDeps, type Settler } from './outbox-settle';
import { recheck } from './recheck';
import { noteOnServiceClock, sendNoteRef, serviceNowFor } from './send-notes';
import { targetApps } from './signature';
import { taskAlreadyDone } from './task-already-done';

export const OFFLINE_MESSAGE = 'The service could not be reached; your change is queued and will be sent when it is back.';

const PRIORITY = { priority: 'outbox' as const };

/** One item as one service call, at outbox priority. */
export async function performItem(client: ServiceClient, item: OutboxItem): Promise<SendResult> {
  switch (item.kind) {
    case 'create_campaign':
      return { kind: item.kind, campaign: await client.createCampaign(item.accountId ?? '', item.payload.body, PRIORITY) };
    case 'send_push': {
      const answer = await client.sendPush(item.payload.mode, item.payload.events, PRIORITY);
      return { kind: item.kind, ack: answer.text, tasks: answer.tasks };
    }
    case 'update_task':
      return { kind: item.kind, ack: await client.updateTask(item.payload.taskId, item.payload.update, PRIORITY) };
    case 'cancel_task':
      return { kind: item.kind, ack: await client.deleteTask(item.payload.taskId, PRIORITY) };
    case 'set_sw_path':
      await client.setSwPath(item.payload, PRIORITY);
      return { kind: item.kind };
  }
}

/** Sends items claimed by the drainer and writes what each answer means. */
export class ItemSender {
  readonly #s: Settler;
  readonly #d: DrainDeps;

  constructor(settler: Settler) {
    this.#s = settler;
    this.#d = settler.d;
  }

  async send(item: OutboxItem): Promise<void> {
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
    const task =
      item.kind === 'update_task' || item.kind === 'cancel_task' ? store.tasks.get(item.profileId, item.payload.taskId) : undefined;
    if (item.kind === 'cancel_task' && isServiceValue(task?.taskStatus, 'cancelled')) {
      return this.#s.sent(item, { alreadyCancelled: true }, 'was already cancelled');
    }
    const blocked = recheck(item, { now, ...(account ? { accountType: account.type } : {}), ...(task ? { task } : {}) });
    if (blocked && (item.kind === 'update_task' || item.kind === 'cancel_task') && item.attempts > 1) {
      // The task ran (or its time passed) since an earlier attempt whose answer was lost: that
      // attempt may have done it. The task on the service decides before anything is blocked.
      const done = await taskAlreadyDone(store, item, client);
      if (done) return this.#settleTaskDone(item, done);
    }
    if (blocked) {
      this.#s.changed(store.outbox.markBlocked(item.seq, blocked));
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
        notes.put({
          seq: item.seq,
          clientRef: ref,
          firstSentAt: now,
          lastSentAt: now,
          baseline,
          ...clockNote,
          ...(newestKnownId ? { newestKnownId } : {}),
        });
      } else {
        // A new send: what earlier look-ups concluded no longer holds.
        const { absentAt: _absent, candidates: _candidates, ...kept } = noteOnServiceClock(existing, offset);
        notes.put({ ...kept, lastSentAt: now });
      }
    }
    this.#s.changed(item);
    let result: SendResult;
    try {
      result = await performItem(client, item);
    } catch (e) {
      this.#sendEnded(item, client, e);
      return this.#failed(item, e);
    }
    this.#sendEnded(item, client);
    connections.noteSuccess(item.profileId);
    if (item.kind === 'create_campaign' && result.kind === 'create_campaign' && result.campaign === null)
      return this.#postedIdUnknown(item, client);
    let stored: Record<string, unknown> = {};
    try {
      stored = await this.#d.afterSent(item, result);
    } catch {
      // Caches are refreshed again later; the send itself succeeded.
    }
    if (item.kind === 'send_push' && result.kind === 'send_push' && stored.taskIds === undefined) {
      // An answer that lists the tasks it made names ours at once, with no look-up that a listing
      // slow to show them could miss; only tasks of the apps this push targeted are taken.
      const targeted = new Set(item.payload.events.flatMap(targetApps));
      const answered = result.tasks.filter((t) => targeted.has(t.tagId)).map((t) => t.taskId);
      if (answered.length > 0) stored.taskIds = answered;
    }
    if (item.kind === 'send_push' && stored.taskIds === undefined) {
      // Learn which tasks are ours so that a later identical push is never taken for this one.
      const fromCache = async (appId: string) =>
        store.tasks.list(item.profileId, appId).filter((t) => isServiceValue(t.taskType, item.payload.mode));
      stored.taskIds = await findPush(store, notes, item, client, fromCache).then(
        (r) => r?.found ?? [],
        () => [],
      );
    }
    return this.#s.sent(item, stored, 'was sent');
  }

  /**
   * The latest send of a create or push has ended (answered, or failed after it may have left). Its
   * note says when it started, but a request may wait in the rate-limit queue first (a minute on a
   * spent budget): the grace period, the listing lag and the lane's bound count from the latest
   * moment the service can have applied it, or a look-up calls a create absent (or posted without
   * an id) before the listing could show it.
   */
  #sendEnded(item: OutboxItem, client: ServiceClient, failure?: unknown): void {
    if (item.kind !== 'create_campaign' && item.kind !== 'send_push') return;
    // Nothing of it left (its token could not be had, a 408): the next send starts a new count.
    if (isServiceError(failure) && !failure.requestWritten) return;
    const { notes, clock } = this.#d;
    const stored = notes.get(item.seq, sendNoteRef(item));
    if (!stored) return;
    const offset = client.serviceClock.offsetMs();
    const note = noteOnServiceClock(stored, offset);
    const now = serviceNowFor(clock.now(), offset, note);
    if (now > note.lastSentAt || note !== stored) notes.put({ ...note, lastSentAt: Math.max(now, note.lastSentAt) });
  }

  /**
   * A create the service took (a 2xx) without saying which campaign it made: it is posted, so it is
   * never sent again, whatever a look-up shows. The look-up that finds lost answers tells its id
   * now; when it cannot yet (a listing that lags, a read that failed), the item waits as uncertain
   * with its note marked `applied`, and lost-answers.ts looks again until the listing shows it (or
   * the listing lag has passed: then it is sent with its id unknown, never sent again).
   */
  async #postedIdUnknown(item: Extract<OutboxItem, { kind: 'create_campaign' }>, client: ServiceClient): Promise<void> {
    const { store, notes } = this.#d;
    const note = notes.get(item.seq, sendNoteRef(item));
    const found = note ? await lookUp(store, notes, item, client, note, this.#s.closing.signal).catch(() => undefined) : undefined;
    if (found?.kind === 'found' && found.campaign) {
      await this.#d.afterSent(item, { kind: 'create_campaign', campaign: found.campaign }).catch(() => ({}));
      return this.#s.sent(
        item,
        { campaignId: found.campaign.id, foundAfterPosting: true },
        `was sent: campaign ${found.campaign.id} (found on the service; its answer did not name it)`,
      );
    }
    if (!note) return this.#s.sent(item, { idUnknown: true }, POSTED_ID_UNKNOWN_WORDS);
    notes.put({ ...note, applied: true });
    this.#s.changed(
      store.outbox.markUncertain(item.seq, {
        code: POSTED_ID_UNKNOWN_CODE,
        message: 'Posted: the service took it without naming the campaign; finding its id in the listing.',
      }),
    );
  }

  #failed(item: OutboxItem, e: unknown): Promise<void> | void {
    const { store, connections, clock } = this.#d;
    const now = clock.now();
    const later = (err: StoredError, at = now + backoffDelay(item.attempts, this.#d.retryBackoff)) =>
      this.#s.changed(store.outbox.retryLater(item.seq, at, err));
    if (e instanceof DeskError) {
      // Raised before the request left (no client, no secret, keychain locked): nothing was sent.
      connections.noteFailure(item.profileId, e, { read: false });
      return later({ code: 'SIGN_IN', message: `Waiting: ${e.message}` });
    }
    if (!isServiceError(e))
      return this.#uncertain(item, {
        code: 'UNKNOWN',
        message: 'Something went wrong while sending; checking the service before sending again.',
      });
    const err: ServiceError = e;
    switch (err.kind) {
      case 'validation':
        // Refused by our own rules before sending (no answer, so no status). The authorization
        // server refusing its token request (a status, nothing of the change sent) is a refusal in
        // its words, below.
        if (!err.requestWritten && err.status === undefined) {
          this.#s.changed(store.outbox.markBlocked(item.seq, { code: 'RULES', message: err.message }));
          return;
        }
        if (item.kind === 'cancel_task' || item.kind === 'update_task') return this.#checkTaskAfterRefusal(item, err);
        if (item.kind === 'send_push') {
          // The refusal's Date header taught us the service's clock (it may have moved while we were
          // offline): a time passed on it is the block a person fixes in one click, not a failure.
          const passed = recheck(item, { now: connections.serviceNow(item.profileId) });
          if (passed?.code === 'TIME_PASSED') {
            this.#d.notes.remove(item.seq);
            this.#s.changed(store.outbox.markBlocked(item.seq, passed));
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
        return later(
          { code: 'RATE_LIMITED', message: err.message },
          now + (err.retryAfterMs ?? backoffDelay(item.attempts, this.#d.retryBackoff)),
        );
      case 'network':
        connections.noteFailure(item.profileId, err, { read: false });
        return later({ code: 'OFFLINE', message: OFFLINE_MESSAGE });
      case 'cancelled':
        if (!err.requestWritten) return later({ code: 'CANCELLED', message: 'Sending was interrupted; it will be sent again.' }, now);
        return this.#uncertain(item, { code: 'UNKNOWN', message: err.message });
      case 'server':
        // Sent again like an idempotent change when the service certainly did not apply it (a 408,
        // or its token could not be had): looking for it would only delay it.
        if (isIdempotent(item) || !err.requestWritten) {
          if (item.attempts >= this.#d.maxServerAttempts) return this.#s.giveUp(item, err.message);
          // Not before the Retry-After the service gave (RFC 9110 10.2.3), however short the backoff.
          return later(
            { code: 'SERVER', message: err.message },
            now + Math.max(backoffDelay(item.attempts, this.#d.retryBackoff), err.retryAfterMs ?? 0),
          );
        }
        if (err.retryAfterMs !== undefined) this.#s.retryAfterAt.set(item.seq, now + err.retryAfterMs);
        {
          const said = [err.status, err.serverText].filter((x) => x !== undefined && x !== '').join(': ');
          return this.#uncertain(item, { code: 'SERVER', message: err.message, ...(said ? { said } : {}) });
        }
      default:
        // Failed before any of it left (its token request timed out or was cut): sent again.
        if (!err.requestWritten) {
          if (item.attempts >= this.#d.maxServerAttempts) return this.#s.giveUp(item, err.message);
          return later({ code: 'SERVER', message: err.message });
        }
        // outcome_unknown, timeout, protocol (a 2xx we could not read): it may have happened.
        return this.#uncertain(item, { code: 'UNKNOWN', message: err.message });
    }
  }

  #refused(item: OutboxItem, err: ServiceError): void {
    this.#s.changed(
      this.#d.store.outbox.markFailed(item.seq, { code: err.kind === 'forbidden' ? 'FORBIDDEN' : 'REFUSED', message: err.message }),
    );
    this.#d.notes.remove(item.seq);
    this.#d.note(item.profileId, item.accountId, 'error', 'outbox.failed', `${describeItem(item)} was refused: ${err.message}`);
    this.#d.afterRefused?.(item, {
      message: err.serverText ?? err.message,
      ...(err.status === undefined ? {} : { status: err.status }),
      ...(err.problems ? { fields: err.problems.map((p) => p.field) } : {}),
    });
  }

  /** `err.said`: the status and words of a 5xx answer ("500: Internal server error"). */
  #uncertain(item: OutboxItem, err: StoredError): void {
    const said = err.said;
    this.#s.changed(this.#d.store.outbox.markUncertain(item.seq, err));
    // A 5xx is an answer: the service said it failed, in its words; it may still have applied the
    // change, which is why it is looked for all the same. Only a missing answer was "lost".
    const what =
      err.code === 'SERVER' ? `the service failed${said ? ` (${said})` : ''} and may have made it all the same` : 'the answer was lost';
    this.#d.note(
      item.profileId,
      item.accountId,
      'warning',
      'outbox.uncertain',
      `${describeItem(item)}: ${what}; checking the service before sending again.`,
    );
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
    const done = client ? await taskAlreadyDone(this.#d.store, item, client) : undefined;
    if (!done) return this.#refused(item, err);
    return this.#settleTaskDone(item, done);
  }

  async #settleTaskDone(
    item: Extract<OutboxItem, { kind: 'cancel_task' | 'update_task' }>,
    done: { result: Record<string, unknown>; what: string },
  ): Promise<void> {
    await this.#d.afterSent(item, { kind: item.kind, ack: '' }).catch(() => ({}));
    this.#s.sent(item, done.result, done.what);
  }
}

function isIdempotent(item: OutboxItem): boolean {
  return item.kind === 'update_task' || item.kind === 'cancel_task' || item.kind === 'set_sw_path';
}
