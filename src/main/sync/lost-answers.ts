// Deciding a create or push whose answer was lost (DECISIONS client 8 and 16). The drainer
// (outbox-drain.ts) hands over an uncertain item when its wait is over; the look-up itself, the
// reads and the matching, is lookup.ts.
//   - a grace period after its latest send (a slow server may still be applying it), the service
//     is asked for what the item sent, in the form it may store it (signature.ts): newest
//     campaigns first, the whole listing when that proves nothing;
//   - one match: sent. Several: the person is asked which one it is ('AMBIGUOUS'; the engine no
//     longer resolves it alone, and never resends while in doubt), and answers with
//     confirmMatch or sendAgain;
//   - none: not yet proof, since a service may apply a request seconds after its connection
//     closed, or list it late. A second look-up a fresh grace period after the first, and not
//     before listingLagMs after the latest send, must also find nothing: only then is the item
//     provably absent and sent again. Both look-ups and the send times are on the service's clock
//     (DECISIONS client 10) and kept in the send note across restarts;
//   - still undecided laneHoldMs after its latest send (the person has not answered, or look-ups
//     keep failing): parked ('PARKED', saying what to decide), and the lane goes on without it; a
//     parked item without candidates is still looked for, aside from its lane.
// Idempotent items (task update and cancel, sw-path) in doubt are simply queued again.
import {
  AMBIGUOUS_CODE,
  ITEM_GONE_WORDS,
  NOT_WAITING_WORDS,
  PARKED_CODE,
  POSTED_ID_SEARCH_MS,
  waitsForPerson,
} from '../../shared/domain/outbox';
import { DeskError } from '../../shared/errors';
import { backoffDelay } from '../connections/backoff';
import { isServiceError, type ServiceClient } from '../service';
import type { OutboxItem, SendNote, StoredError } from '../store';
import { lookUp, type LookUpResult } from './lookup';
import { describeItem, POSTED_ID_UNKNOWN_WORDS, type LookedForItem, type DrainDeps, type Settler } from './outbox-settle';
import { noteOnServiceClock, sendNoteRef, serviceNowFor } from './send-notes';

/**
 * How a change came to be in doubt, as the person is told when it is parked: a 5xx is the
 * service's own answer (in its words), only a missing answer was lost.
 */
const lostHow = (e: StoredError | null) => (e?.said ? `The service answered with an error (${e.said})` : 'The answer was lost');

/** Looks for uncertain items, parks the undecided, and takes the person's answer about one. */
export class LostAnswers {
  readonly #s: Settler;
  readonly #d: DrainDeps;

  constructor(settler: Settler) {
    this.#s = settler;
    this.#d = settler.d;
  }

  /**
   * When (our clock) an uncertain create or push has held its lane for laneHoldMs since its latest
   * send (kept in its note, so a restart does not start the bound again). Undefined without a note:
   * such an item is queued again at its first look, holding nothing.
   */
  parkAt(item: OutboxItem): number | undefined {
    if (item.kind !== 'create_campaign' && item.kind !== 'send_push') return undefined;
    const stored = this.#d.notes.get(item.seq, sendNoteRef(item));
    // Posted already (only its id is looked for): nothing to ask the person.
    if (!stored || stored.applied) return undefined;
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
  park(item: OutboxItem): void {
    const candidates =
      item.kind === 'create_campaign' || item.kind === 'send_push' ? this.#d.notes.get(item.seq, sendNoteRef(item))?.candidates : undefined;
    const minutes = Math.round(this.#d.laneHoldMs / 60_000);
    const what = item.kind === 'create_campaign' ? 'campaigns' : 'tasks';
    const why =
      candidates && candidates.length > 0
        ? `The answer was lost, and the service lists ${candidates.length} ${what} that look like this one (${candidates.join(', ')}). Say which one is yours, or send it again if none is.`
        : `${lostHow(item.lastError)}, and after ${minutes} min the service has not shown whether it arrived. Check the account on the service: if it is not there, send it again; if it is, discard this copy.`;
    const message = `${why} Your other changes to this account go ahead meanwhile; nothing is sent again until you decide.`;
    // Looked for again aside from the lane (lookAgainParked), a bound from now, and not before a
    // Retry-After the last failed look-up was given.
    const asked = this.#s.lookAgainAt.get(item.seq)?.at ?? 0;
    this.#s.lookAgainAt.set(item.seq, { at: Math.max(this.#d.clock.now() + this.#d.laneHoldMs, asked), tries: 0 });
    this.#s.changed(this.#d.store.outbox.reviseUncertain(item.seq, { code: PARKED_CODE, message }));
    this.#d.note(item.profileId, item.accountId, 'warning', 'outbox.parked', `${describeItem(item)}: ${message}`);
  }

  /** An uncertain item: look on the service, then sent (found), queued again (provably absent), or the person asked (ambiguous). */
  async resolve(item: OutboxItem): Promise<void> {
    const { store, connections, clock, notes } = this.#d;
    if (waitsForPerson(item)) return;
    const serverError = item.lastError?.code === 'SERVER';
    const requeue = () => {
      if (serverError && item.attempts >= this.#d.maxServerAttempts)
        return this.#s.giveUp(item, item.lastError?.said ? `its last answer was ${item.lastError.said}.` : (item.lastError?.message ?? ''));
      const backoff = serverError ? clock.now() + backoffDelay(item.attempts, this.#d.retryBackoff) : clock.now();
      const at = Math.max(backoff, this.#s.retryAfterAt.get(item.seq) ?? 0);
      this.#s.retryAfterAt.delete(item.seq);
      this.#s.lookAgainAt.delete(item.seq);
      this.#s.changed(store.outbox.requeue(item.seq, { nextAttemptAt: at }));
    };
    // Updates, cancels and sw-paths are idempotent: simply sent again.
    if (item.kind !== 'create_campaign' && item.kind !== 'send_push') return requeue();
    const stored = notes.get(item.seq, sendNoteRef(item));
    // No note: the crash came before the note was written, so before anything was sent.
    if (!stored) return requeue();
    const lookFailed = (e: unknown) => {
      // Stopped by the close, not failed: nothing to note (looked for again at the next start).
      if (this.#s.closing.signal.aborted) return;
      connections.noteFailure(item.profileId, e, { read: true });
      const tries = (this.#s.lookAgainAt.get(item.seq)?.tries ?? 0) + 1;
      // Not sooner than the service asked (a 429 or 503 whose Retry-After outlasts the backoff).
      const asked = isServiceError(e) ? (e.retryAfterMs ?? 0) : 0;
      this.#s.lookAgainAt.set(item.seq, { at: clock.now() + Math.max(backoffDelay(tries, this.#d.retryBackoff), asked), tries });
    };
    let client: ServiceClient;
    try {
      client = connections.client(item.profileId);
    } catch (e) {
      return lookFailed(e);
    }
    const waitUntil = (serviceTime: number, now: number) => {
      this.#s.lookAgainAt.set(item.seq, { at: clock.now() + (serviceTime - now), tries: this.#s.lookAgainAt.get(item.seq)?.tries ?? 0 });
    };
    // A posted create's search for its id ends at this time (our clock), even mid-look-up.
    let searchEndsAt = Infinity;
    // Any other look-up holds the lane, which it may do only until the item's park time, even
    // mid-look-up: one look-up can outlast the bound by far (a listing of one-row pages whose order
    // moves, read on a budget of 150 reads an hour, took over an hour: issue #25, chaos seed
    // 2138484777), and the drainer cannot park an item while its look-up runs. Stopped there, the
    // item is parked (the drainer looks again when this ends) and looked for aside from its lane.
    let holdEndsAt = Infinity;
    {
      const note = noteOnServiceClock(stored, client.serviceClock.offsetMs());
      const now = serviceNowFor(clock.now(), client.serviceClock.offsetMs(), note);
      // A grace period after the latest send, or after the look-up that last found nothing.
      const due = (note.absentAt ?? note.lastSentAt) + this.#d.uncertainGraceMs;
      if (due > now) return waitUntil(due, now);
      if (note.applied) {
        // Posted, and its id still not found after a bounded search (the listing keeps failing, or
        // another user deleted it before any listing showed it): sent, with its id unknown.
        if (now >= note.lastSentAt + POSTED_ID_SEARCH_MS) return this.#s.sent(item, { idUnknown: true }, POSTED_ID_UNKNOWN_WORDS);
        searchEndsAt = clock.now() + (note.lastSentAt + POSTED_ID_SEARCH_MS - now);
      } else holdEndsAt = this.parkAt(item) ?? Infinity;
    }
    let found: LookUpResult;
    const searchOver = new AbortController();
    const holdOver = new AbortController();
    const timers = [
      Number.isFinite(searchEndsAt) ? clock.setTimer(() => searchOver.abort(), searchEndsAt - clock.now()) : undefined,
      Number.isFinite(holdEndsAt) ? clock.setTimer(() => holdOver.abort(), Math.max(0, holdEndsAt - clock.now())) : undefined,
    ];
    try {
      const stop = AbortSignal.any([this.#s.closing.signal, searchOver.signal, holdOver.signal]);
      found = await lookUp(store, notes, item, client, stored, stop);
    } catch (e) {
      if (searchOver.signal.aborted) return this.#s.sent(item, { idUnknown: true }, POSTED_ID_UNKNOWN_WORDS);
      // Its time to hold the lane is over: parked by the drainer, nothing failed.
      if (holdOver.signal.aborted) return;
      return lookFailed(e);
    } finally {
      for (const t of timers) t?.cancel();
    }
    connections.noteSuccess(item.profileId);
    // The look-up's answers may have taught the service's clock: the note's times move onto it.
    const offset = client.serviceClock.offsetMs();
    const note = noteOnServiceClock(stored, offset);
    const now = serviceNowFor(clock.now(), offset, note);
    if (found.kind === 'found') return this.#settleFound(item, found);
    // Lists may lag: nothing is absent before the listing had time to show it.
    const listedBy = note.lastSentAt + this.#d.listingLagMs;
    if (note.applied) {
      // Posted (the service took it without naming it): only its id is looked for, until the
      // listing lag has passed; it is never sent again.
      if (found.kind === 'absent' && now < listedBy) return waitUntil(Math.max(now + this.#d.uncertainGraceMs, listedBy), now);
      return this.#s.sent(item, { idUnknown: true }, POSTED_ID_UNKNOWN_WORDS);
    }
    if (found.kind === 'ambiguous') return this.#askPerson(item, note, found.candidates);
    if (note.absentAt === undefined || now < listedBy) {
      // One "not found" is not proof: a service may still apply the request, or list it late. Look
      // again a fresh grace period from now and not before the listing lag has passed; the first
      // look-up is remembered across a restart.
      notes.put({ ...note, absentAt: note.absentAt ?? now });
      const at = Math.max(now + this.#d.uncertainGraceMs, listedBy);
      const seconds = Math.ceil((at - now) / 1000);
      this.#s.changed(
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
  async #settleFound(item: LookedForItem, found: Extract<LookUpResult, { kind: 'found' }>): Promise<void> {
    if (item.kind === 'create_campaign' && found.campaign) {
      await this.#d.afterSent(item, { kind: 'create_campaign', campaign: found.campaign }).catch(() => ({}));
      return this.#s.sent(
        item,
        { campaignId: found.campaign.id, foundAfterLostAnswer: true },
        `was found on the service (campaign ${found.campaign.id})`,
      );
    }
    await this.#d.afterSent(item, { kind: 'send_push', ack: '', tasks: [] }).catch(() => ({}));
    return this.#s.sent(item, { taskIds: found.ids, foundAfterLostAnswer: true }, 'was found on the service');
  }

  /**
   * A parked item with no candidates (its look-ups could not decide) is still looked for, aside from
   * its lane, once per laneHoldMs: found, it is sent with its id; several matches or provably absent,
   * its words say so, and it keeps waiting for the person (nothing parked is sent again on its own).
   */
  async lookAgainParked(item: LookedForItem): Promise<void> {
    const { store, connections, clock, notes } = this.#d;
    this.#s.lookAgainAt.set(item.seq, { at: clock.now() + this.#d.laneHoldMs, tries: 0 });
    const stored = notes.get(item.seq, sendNoteRef(item));
    if (!stored) return;
    let found: LookUpResult;
    let client: ServiceClient;
    try {
      client = connections.client(item.profileId);
      found = await lookUp(store, notes, item, client, stored, this.#s.closing.signal);
    } catch (e) {
      // Looked for again at the next turn, not before the service asked.
      const asked = isServiceError(e) ? (e.retryAfterMs ?? 0) : 0;
      this.#s.lookAgainAt.set(item.seq, { at: Math.max(clock.now() + this.#d.laneHoldMs, clock.now() + asked), tries: 0 });
      return;
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
      this.#s.lookAgainAt.delete(item.seq);
      this.#d.note(
        item.profileId,
        item.accountId,
        'info',
        'outbox.absent',
        `${describeItem(item)}: not found on the service after its answer was lost; sent again.`,
      );
      this.#s.changed(store.outbox.requeue(item.seq, { nextAttemptAt: clock.now() }));
      return;
    }
    const words = `${message} Your other changes to this account go ahead meanwhile; nothing is sent again until you decide.`;
    if (current.lastError?.message === words) return;
    this.#s.changed(store.outbox.reviseUncertain(item.seq, { code: PARKED_CODE, message: words }));
  }

  /** More than one match: the person says which one is theirs, or that none is (drafts-handlers: outbox.*). */
  #askPerson(item: LookedForItem, note: SendNote, candidates: string[]): void {
    this.#d.notes.put({ ...note, candidates });
    this.#s.lookAgainAt.delete(item.seq);
    const what = item.kind === 'create_campaign' ? 'campaigns' : 'tasks';
    const message =
      `The answer was lost, and the service now lists ${candidates.length} ${what} that look like this one ` +
      `(${candidates.join(', ')}). Say which one is yours, or send it again if none is; nothing is sent until you do.`;
    this.#s.changed(this.#d.store.outbox.reviseUncertain(item.seq, { code: AMBIGUOUS_CODE, message }));
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
    const result =
      item.kind === 'create_campaign'
        ? { campaignId: candidateId, confirmedByPerson: true }
        : { taskIds: [candidateId], confirmedByPerson: true };
    const what = item.kind === 'create_campaign' ? `campaign ${candidateId}` : `task ${candidateId}`;
    this.#s.sent(item, result, `was posted: you said it is ${what}`);
    return this.#d.store.outbox.get(seq) ?? item;
  }

  /**
   * The person says none of the candidates is theirs: the item is sent again, now, and only on
   * this explicit choice. The candidates join the baseline (they are someone else's), so a later
   * look-up for this item never takes them for its own. The drainer sends it at once (retryNow).
   */
  sendAgain(seq: number): OutboxItem {
    const item = this.#waitingForPerson(seq);
    const note = this.#d.notes.get(seq, sendNoteRef(item));
    if (note) {
      const { candidates = [], absentAt: _absentAt, ...kept } = note;
      this.#d.notes.put({ ...kept, baseline: [...new Set([...kept.baseline, ...candidates])] });
    }
    const queued = this.#d.store.outbox.requeue(seq, { nextAttemptAt: this.#d.clock.now() });
    this.#d.note(
      item.profileId,
      item.accountId,
      'info',
      'outbox.send_again',
      `${describeItem(item)}: you said it was not posted; sending it again.`,
    );
    this.#s.changed(queued);
    return queued;
  }

  #waitingForPerson(seq: number): LookedForItem {
    const item = this.#d.store.outbox.get(seq);
    if (!item) throw new DeskError('not_found', ITEM_GONE_WORDS);
    if (!waitsForPerson(item) || (item.kind !== 'create_campaign' && item.kind !== 'send_push')) {
      throw new DeskError('conflict', NOT_WAITING_WORDS);
    }
    return item;
  }
}
