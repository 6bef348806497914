// Drains the outbox: per lane (one account of one profile) one item at a time in the lane's order
// (the order of queueing, unless the person moved a queued item), lanes independently of each other,
// through the scheduler at outbox priority. This file decides what goes next and when: which item
// heads each lane, what it waits for (its retry time, the connection, a sign-in, the person), and
// the kicks and timers that look again. The work itself is elsewhere:
//   send-item.ts      sending one item and settling it by its answer;
//   lost-answers.ts   an uncertain item (its answer lost): looked for, found, absent, parked, or
//                     the person's answer (candidates, confirmMatch, sendAgain);
//   outbox-settle.ts  what both share: the dependencies, an item's waits, its endings.
// An uncertain item holds its lane (the next item may depend on whether it happened), at most
// laneHoldMs after its latest send: then it is parked, waits for the person aside, and the lane goes
// on. DECISIONS client 8 and 16.
import { AMBIGUOUS_CODE, ON_THE_WAY_STATES, PARKED_CODE, POSTED_ID_UNKNOWN_CODE } from '../../shared/domain/outbox';
import type { TimerHandle } from '../clock/clock';
import type { OutboxItem, OutboxLane } from '../store';
import { LostAnswers } from './lost-answers';
import { Settler, type DrainDeps } from './outbox-settle';
import { ItemSender } from './send-item';
import { sendNoteRef } from './send-notes';

/** Items that wait only for the connection or a sign-in, not for a backoff of their own. */
const WAITING_FOR_CONNECTION = new Set(['OFFLINE', 'SIGN_IN']);

const laneKey = (l: OutboxLane) => `${l.profileId}\u0000${l.accountId ?? ''}`;

export class OutboxDrainer {
  readonly #d: DrainDeps;
  readonly #busy = new Map<string, Promise<void>>();
  /** Waits and endings shared with the sender and the look-ups. */
  readonly #s: Settler;
  readonly #sender: ItemSender;
  readonly #lost: LostAnswers;
  /** Items the person asked to send now, whatever their retry time. */
  readonly #forced = new Set<number>();
  /** When each profile last came back (online again, or signed in again). */
  readonly #resumedAt = new Map<string, number>();
  #timer?: TimerHandle;
  #kickQueued = false;
  #closed = false;

  constructor(deps: DrainDeps) {
    this.#d = deps;
    // Made once per drainer: it prunes old history now, at start-up, and after sends.
    this.#s = new Settler(deps);
    this.#sender = new ItemSender(this.#s);
    this.#lost = new LostAnswers(this.#s);
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
    this.#s.lookAgainAt.delete(seq);
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
    const posted: OutboxItem[] = [];
    for (const item of store.outbox.list({ states: ON_THE_WAY_STATES })) {
      const k = laneKey(item);
      // A parked item waits for the person aside; the lane goes on behind it.
      if (item.state === 'uncertain' && item.lastError?.code === PARKED_CODE) parked.push(item);
      // A create the service took without naming it happened: nothing behind it depends on its id.
      else if (item.state === 'uncertain' && item.lastError?.code === POSTED_ID_UNKNOWN_CODE) posted.push(item);
      else if (!heads.has(k)) heads.set(k, item);
    }
    for (const item of posted) {
      const key = `posted\u0000${item.seq}`;
      if (this.#busy.has(key) || !connections.canUse(item.profileId)) continue;
      const wait = this.#s.lookAgainAt.get(item.seq);
      if (wait && wait.at > now) next = Math.min(next, wait.at);
      else this.#run(key, () => this.#lost.resolve(item));
    }
    for (const item of parked) {
      const key = `parked\u0000${item.seq}`;
      if (this.#busy.has(key) || !connections.canUse(item.profileId)) continue;
      if (item.kind !== 'create_campaign' && item.kind !== 'send_push') continue;
      // Several matches: only the person can choose; there is nothing more to look for.
      if ((this.#d.notes.get(item.seq, sendNoteRef(item))?.candidates?.length ?? 0) > 0) continue;
      const wait = this.#s.lookAgainAt.get(item.seq);
      if (wait && wait.at > now) next = Math.min(next, wait.at);
      else this.#run(key, () => this.#lost.lookAgainParked(item));
    }
    for (const [k, head] of heads) {
      if (this.#busy.has(k) || !connections.canUse(head.profileId)) continue;
      if (head.state === 'uncertain') {
        // No change holds its lane longer than laneHoldMs: past it, it waits for the person aside.
        const parkAt = this.#lost.parkAt(head);
        if (parkAt !== undefined && parkAt <= now) {
          this.#lost.park(head);
          this.kick();
          continue;
        }
        if (parkAt !== undefined) next = Math.min(next, parkAt);
        // Waiting for the person to say which match is theirs: nothing to do until then.
        if (head.lastError?.code === AMBIGUOUS_CODE) continue;
        const wait = this.#s.lookAgainAt.get(head.seq);
        if (wait && wait.at > now) next = Math.min(next, wait.at);
        else this.#run(k, () => this.#lost.resolve(head));
      } else if (head.state === 'queued') {
        const resumed = this.#resumedAt.get(head.profileId);
        const waitedForConnection =
          WAITING_FOR_CONNECTION.has(head.lastError?.code ?? '') && resumed !== undefined && resumed >= head.updatedAt;
        if (head.nextAttemptAt > now && !waitedForConnection && !this.#forced.has(head.seq)) next = Math.min(next, head.nextAttemptAt);
        else {
          this.#forced.delete(head.seq);
          const claimed = store.outbox.claimNext(head, Math.max(now, head.nextAttemptAt));
          if (claimed) this.#run(k, () => this.#sender.send(claimed));
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
        this.#d.note(
          null,
          null,
          'error',
          'outbox.internal',
          `The outbox hit an unexpected problem: ${e instanceof Error ? e.name : 'error'}.`,
        );
      })
      .finally(() => {
        this.#busy.delete(key);
        this.kick();
      });
    this.#busy.set(key, p);
  }

  /** The candidates an ambiguous or parked item waits on (lost-answers.ts). */
  candidates(seq: number): { kind: 'campaign' | 'task'; ids: string[] } | undefined {
    return this.#lost.candidates(seq);
  }

  /** The person says which candidate is theirs (lost-answers.ts). */
  confirmMatch(seq: number, candidateId: string): OutboxItem {
    return this.#lost.confirmMatch(seq, candidateId);
  }

  /** The person says none of the candidates is theirs: sent again, now (lost-answers.ts). */
  sendAgain(seq: number): OutboxItem {
    const queued = this.#lost.sendAgain(seq);
    this.retryNow(seq);
    return queued;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#s.closing.abort();
    this.#timer?.cancel();
    await Promise.allSettled([...this.#busy.values()]);
  }
}
