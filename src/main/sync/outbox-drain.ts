// Drains the outbox: per lane (one account of one profile) one item at a time in seq order,
// lanes independently of each other, through the scheduler at outbox priority.
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
import type { Clock, TimerHandle } from '../ratelimit/clock';
import { isServiceError, type ServiceError } from '../service';
import type { OutboxItem, OutboxLane, Store, StoredError } from '../store';
import { DeskError } from '../../shared/errors';
import type { Task } from '../../shared/domain/push';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { campaignBaseline, claimedCampaignIds, claimedTaskIds, taskBaseline } from './baseline';
import type { Connections } from './connections';
import type { EventHub } from './event-hub';
import { recheck } from './recheck';
import { findPushTasks, listAllForMatch, performItem, pickCampaign, type SendResult } from './send-item';
import { sendNoteRef, type SendNotes } from './send-notes';

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
  note(profileId: string | null, accountId: string | null, level: 'info' | 'warning' | 'error', kind: string, message: string): void;
  /** After a send: update caches (campaign row, task lists, sw-path). Awaited inside the lane. */
  afterSent(item: OutboxItem, result: SendResult): Promise<Record<string, unknown>>;
}

/** Items that wait only for the connection or a sign-in, not for a backoff of their own. */
const WAITING_FOR_CONNECTION = new Set(['OFFLINE', 'SIGN_IN']);

const laneKey = (l: OutboxLane) => `${l.profileId}\u0000${l.accountId ?? ''}`;
export const OFFLINE_MESSAGE = 'The service could not be reached; your change is queued and will be sent when it is back.';

export class OutboxDrainer {
  readonly #d: DrainDeps;
  readonly #busy = new Map<string, Promise<void>>();
  /** Uncertain items whose look-up failed wait until then (ms) before the next look-up. */
  readonly #lookAgainAt = new Map<number, { at: number; tries: number }>();
  /** Items the person asked to send now, whatever their retry time. */
  readonly #forced = new Set<number>();
  /** When each profile last came back (online again, or signed in again). */
  readonly #resumedAt = new Map<string, number>();
  #timer?: TimerHandle;
  #kickQueued = false;
  #closed = false;

  constructor(deps: DrainDeps) {
    this.#d = deps;
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

  /** Items still on their way (queued, sending or uncertain). */
  pendingCount(): number {
    return this.#d.store.outbox.list({ states: ['queued', 'sending', 'uncertain'] }).length;
  }

  #pump(): void {
    if (this.#closed) return;
    const { store, connections, clock } = this.#d;
    const now = clock.now();
    this.#timer?.cancel();
    this.#timer = undefined;
    let next = Infinity;
    const heads = new Map<string, OutboxItem>();
    for (const item of store.outbox.list({ states: ['queued', 'sending', 'uncertain'] })) {
      const k = laneKey(item);
      if (!heads.has(k)) heads.set(k, item);
    }
    for (const [k, head] of heads) {
      if (this.#busy.has(k) || !connections.canUse(head.profileId)) continue;
      if (head.state === 'uncertain') {
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
    const now = clock.now();
    const account = item.accountId ? store.accounts.get({ profileId: item.profileId, accountId: item.accountId }) : undefined;
    const task = item.kind === 'update_task' || item.kind === 'cancel_task' ? store.tasks.get(item.profileId, item.payload.taskId) : undefined;
    if (item.kind === 'cancel_task' && task?.taskStatus === 'cancelled') {
      return this.#settleSent(item, { alreadyCancelled: true }, 'was already cancelled');
    }
    const blocked = recheck(item, { now, ...(account ? { accountType: account.type } : {}), ...(task ? { task } : {}) });
    if (blocked) {
      this.#changed(store.outbox.markBlocked(item.seq, blocked));
      this.#d.note(item.profileId, item.accountId, 'warning', 'outbox.blocked', blocked.message);
      return;
    }
    if (item.kind === 'create_campaign' || item.kind === 'send_push') {
      const ref = sendNoteRef(item);
      const note = notes.get(item.seq, ref);
      if (!note) {
        const baseline = item.kind === 'create_campaign' ? campaignBaseline(store, item) : taskBaseline(store, item);
        notes.put({ seq: item.seq, clientRef: ref, firstSentAt: now, lastSentAt: now, baseline });
      } else {
        notes.put({ ...note, lastSentAt: now });
      }
    }
    this.#changed(item);
    let result: SendResult;
    try {
      result = await performItem(connections.client(item.profileId), item);
    } catch (e) {
      return this.#failed(item, e);
    }
    connections.noteSuccess(item.profileId);
    let stored: Record<string, unknown> = {};
    try {
      stored = await this.#d.afterSent(item, result);
    } catch {
      // Caches are refreshed again later; the send itself succeeded.
    }
    if (item.kind === 'send_push' && stored.taskIds === undefined) {
      // Learn which tasks are ours so that a later identical push is never taken for this one.
      const fromCache = async (appId: string) => store.tasks.list(item.profileId, appId).filter((t) => t.taskType === item.payload.mode);
      stored.taskIds = await this.#lookUpPush(item, fromCache).then((r) => r?.found ?? [], () => []);
    }
    return this.#settleSent(item, stored, 'was sent');
  }

  #settleSent(item: OutboxItem, result: Record<string, unknown>, what: string): void {
    const { store, notes } = this.#d;
    const sent = store.outbox.markSent(item.seq, result);
    notes.remove(item.seq);
    this.#lookAgainAt.delete(item.seq);
    if (item.draftId) store.drafts.remove(item.draftId);
    this.#changed(sent);
    this.#d.hub.emit('data.changed', { profileId: item.profileId, accountId: item.accountId, what: 'drafts' });
    this.#d.note(item.profileId, item.accountId, 'info', 'outbox.sent', `${describeItem(item)} ${what}.`);
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
        if (item.kind === 'cancel_task' && err.status === 400) return this.#checkCancelled(item, err);
        return this.#refused(item, err);
      case 'forbidden':
      case 'not_found':
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
          return later({ code: 'SERVER', message: err.message });
        }
        return this.#uncertain(item, { code: 'SERVER', message: err.message });
      default:
        // outcome_unknown, timeout, protocol (a 2xx we could not read): it may have happened.
        return this.#uncertain(item, { code: 'UNKNOWN', message: err.message });
    }
  }

  #refused(item: OutboxItem, err: ServiceError): void {
    this.#changed(this.#d.store.outbox.markFailed(item.seq, { code: err.kind === 'forbidden' ? 'FORBIDDEN' : 'REFUSED', message: err.message }));
    this.#d.notes.remove(item.seq);
    this.#d.note(item.profileId, item.accountId, 'error', 'outbox.failed', `${describeItem(item)} was refused: ${err.message}`);
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

  #uncertain(item: OutboxItem, err: StoredError): void {
    this.#changed(this.#d.store.outbox.markUncertain(item.seq, err));
    this.#d.note(item.profileId, item.accountId, 'warning', 'outbox.uncertain', `${describeItem(item)}: the answer was lost; checking the service before sending again.`);
  }

  /** After a 400 on cancel: if the task is cancelled already (our earlier attempt), it is done. */
  async #checkCancelled(item: Extract<OutboxItem, { kind: 'cancel_task' }>, err: ServiceError): Promise<void> {
    try {
      const tasks = await this.#d.connections.client(item.profileId).listTasks(item.payload.appId, undefined, { priority: 'outbox' });
      const t = tasks.find((x) => x.taskId === item.payload.taskId);
      if (t) this.#d.store.tasks.upsert(item.profileId, t);
      if (t?.taskStatus === 'cancelled') return this.#settleSent(item, { alreadyCancelled: true }, 'was already cancelled');
    } catch {
      // Could not look: the refusal stands.
    }
    this.#refused(item, err);
  }

  async #lookUpPush(
    item: Extract<OutboxItem, { kind: 'send_push' }>,
    listTasks?: (appId: string) => Promise<Task[]>,
  ): Promise<{ found: string[]; expected: number } | undefined> {
    const note = this.#d.notes.get(item.seq, sendNoteRef(item));
    if (!note) return undefined;
    const excluded = new Set([...note.baseline, ...claimedTaskIds(this.#d.store, item)]);
    const fromService = (appId: string) =>
      this.#d.connections.client(item.profileId).listTasks(appId, item.payload.mode, { priority: 'outbox' });
    return findPushTasks(listTasks ?? fromService, item, note.firstSentAt, excluded);
  }

  /** An uncertain item: look on the service, then sent (found) or queued again (provably absent). */
  async #resolve(item: OutboxItem): Promise<void> {
    const { store, connections, clock, notes } = this.#d;
    const now = clock.now();
    const serverError = item.lastError?.code === 'SERVER';
    const requeue = () => {
      if (serverError && item.attempts >= this.#d.maxServerAttempts) return this.#giveUp(item, item.lastError?.message ?? '');
      const at = serverError ? now + backoffDelay(item.attempts, this.#d.retryBackoff) : now;
      this.#lookAgainAt.delete(item.seq);
      this.#changed(store.outbox.requeue(item.seq, { nextAttemptAt: at }));
    };
    if (isIdempotent(item)) return requeue();
    const note = notes.get(item.seq, sendNoteRef(item));
    // No note: the crash came before the note was written, so before anything was sent.
    if (!note) return requeue();
    const lookAt = note.lastSentAt + this.#d.uncertainGraceMs;
    if (lookAt > now) {
      this.#lookAgainAt.set(item.seq, { at: lookAt, tries: this.#lookAgainAt.get(item.seq)?.tries ?? 0 });
      return;
    }
    try {
      const client = connections.client(item.profileId);
      if (item.kind === 'create_campaign') {
        const listed = await listAllForMatch(client, item.accountId ?? '');
        connections.noteSuccess(item.profileId);
        const excluded = new Set([...note.baseline, ...claimedCampaignIds(store, item)]);
        const mine = pickCampaign(listed, item.payload.body, excluded);
        if (!mine) return requeue();
        await this.#d.afterSent(item, { kind: 'create_campaign', campaign: mine }).catch(() => ({}));
        return this.#settleSent(item, { campaignId: mine.id, foundAfterLostAnswer: true }, `was found on the service (campaign ${mine.id})`);
      }
      if (item.kind === 'send_push') {
        const r = await this.#lookUpPush(item);
        connections.noteSuccess(item.profileId);
        if (!r || r.found.length === 0) return requeue();
        // The service creates all of a push's tasks or none: some found means it was applied.
        await this.#d.afterSent(item, { kind: 'send_push', ack: '' }).catch(() => ({}));
        return this.#settleSent(item, { taskIds: r.found, foundAfterLostAnswer: true }, 'was found on the service');
      }
    } catch (e) {
      connections.noteFailure(item.profileId, e, { read: true });
      const prev = this.#lookAgainAt.get(item.seq);
      const tries = (prev?.tries ?? 0) + 1;
      this.#lookAgainAt.set(item.seq, { at: clock.now() + backoffDelay(tries, this.#d.retryBackoff), tries });
    }
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
