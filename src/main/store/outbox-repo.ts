// The durable outbox: every change a person makes is one row, committed with the draft it came
// from, then drained by the sync engine in order per lane (one account of one profile; push work
// that names no account uses the profile's own lane).
//
// States:  queued -> sending -> sent | failed | uncertain | blocked, or back to queued (retry later)
//          uncertain -> sent (found on the service) | queued (provably absent) | failed | blocked,
//                       or stays uncertain with a new reason (AMBIGUOUS: the person decides)
//          blocked -> queued (fixed by the person) | failed;   failed -> queued (retry by hand)
// The head of a lane is its item in flight (sending or uncertain) if it has one, else its first
// queued item in the lane's order: only the head is claimed, so a lane sends one item at a time.
// The order is the order of queueing until the person moves a queued item (move()); an item in
// flight is never moved and always stays the head, because it must be settled first. Failed and
// blocked items are parked and do not hold the lane up (a 4xx stops only that item); an uncertain
// head does, because the next item may depend on whether it happened, until the engine parks it
// (lastError code PARKED: it waits for the person aside, and the lane goes on without it).
import { z } from 'zod';
import type { RepoContext } from './context';
import { StoreError, describeIssues } from './errors';
import { parseJsonColumn, toJson, toJsonOrNull } from './json';
import { ACCOUNT_BOUND_KINDS, outboxPayloadSchemas, type OutboxPayload, type OutboxWork } from './outbox-payloads';
import {
  OUTBOX_KINDS,
  OUTBOX_STATES,
  OUTBOX_TRANSITIONS,
  PARKED_CODE,
  POSTED_ID_UNKNOWN_CODE,
  type OutboxKind,
  type OutboxState,
} from '../../shared/domain/outbox';
import type { QuarantineRepo } from './quarantine-repo';
import type { StoredError } from './types';
import { placeholders, when, whereClause } from './where';

/** An item whose stored row failed its check when read back (it is quarantined, not lost). */
const unreadable = (seq: number) => new StoreError('NOT_FOUND', `Outbox item ${seq} could not be read back and was quarantined`);

export interface OutboxLane {
  profileId: string;
  /** null: the profile's lane for push work that belongs to no account. */
  accountId: string | null;
}

interface OutboxItemBase<K extends OutboxKind> extends OutboxLane {
  seq: number;
  kind: K;
  payload: OutboxPayload<K>;
  draftId: string | null;
  state: OutboxState;
  attempts: number;
  nextAttemptAt: number;
  lastError: StoredError | null;
  result: unknown;
  createdAt: number;
  updatedAt: number;
}
export type OutboxItem = { [K in OutboxKind]: OutboxItemBase<K> }[OutboxKind];

/** Where the person moves a queued item within its lane: one place, to an end, or before another queued item. */
export type OutboxMove = 'up' | 'down' | 'first' | 'last' | { before: number };

export type EnqueueInput = OutboxWork & {
  profileId: string;
  accountId?: string | null;
  draftId?: string | null;
  /** Not before this time (ms); default now. */
  notBefore?: number;
};

const errorSchema = z.object({ code: z.string().min(1), message: z.string(), said: z.string().optional() });

const rowSchema = z.object({
  seq: z.number().int(),
  profile_id: z.string(),
  account_id: z.string().nullable(),
  kind: z.enum(OUTBOX_KINDS),
  payload: z.string(),
  draft_id: z.string().nullable(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.number().int(),
  next_attempt_at: z.number().int(),
  last_error: z.string().nullable(),
  result: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

export interface OutboxRepo {
  enqueue(input: EnqueueInput): OutboxItem;
  get(seq: number): OutboxItem | undefined;
  list(filter?: { profileId?: string; accountId?: string | null; states?: readonly OutboxState[] }): OutboxItem[];
  /** The lane's current head (its sending or uncertain item, else its first queued one in the lane's order). */
  head(lane: OutboxLane): OutboxItem | undefined;
  /** Lanes whose head is queued and due at `now`, oldest head first. */
  readyLanes(now: number): OutboxLane[];
  /** Heads left uncertain: to be resolved by looking on the service before anything is re-sent. */
  uncertainHeads(): OutboxItem[];
  /** Earliest time a queued head becomes due, for the engine's timer; null when nothing waits. */
  nextDueAt(): number | null;
  /** Claims the lane's head if it is queued and due: it becomes sending and attempts grows by one. */
  claimNext(lane: OutboxLane, now: number): OutboxItem | undefined;
  markSent(seq: number, result?: unknown): OutboxItem;
  markFailed(seq: number, error: StoredError): OutboxItem;
  markUncertain(seq: number, error: StoredError): OutboxItem;
  /**
   * An uncertain item stays uncertain with a new reason: e.g. 'AMBIGUOUS', more than one match was
   * found and the person must say which one is theirs (the engine no longer resolves it alone).
   */
  reviseUncertain(seq: number, error: StoredError): OutboxItem;
  /** Needs the person to fix it (e.g. a scheduled time that has passed); never sent as it is. */
  markBlocked(seq: number, error: StoredError): OutboxItem;
  /** sending -> queued after a 5xx, a timeout or a 429: due again at `nextAttemptAt`. */
  retryLater(seq: number, nextAttemptAt: number, error: StoredError): OutboxItem;
  /** Back to queued (after a fix, a manual retry, or a resolution that found nothing on the service). */
  requeue(seq: number, opts?: { work?: OutboxWork; nextAttemptAt?: number }): OutboxItem;
  /**
   * The person changes which queued change of the lane goes first. Only queued items move, among
   * the lane's queued items; anything else is refused (BAD_TRANSITION, with why). Returns the moved item.
   */
  move(seq: number, to: OutboxMove): OutboxItem;
  /** Deletes an item that is not in flight (a person discarded it). */
  remove(seq: number): boolean;
  /** At start-up: items left sending by a crash may or may not have reached the service. */
  recoverInterrupted(): number;
  /** Deletes sent items older than `before` (history only). */
  pruneSent(before: number): number;
}

function parseWork(kind: OutboxKind, payload: unknown): { ok: true; work: OutboxWork } | { ok: false; reason: string } {
  const r = outboxPayloadSchemas[kind].safeParse(payload);
  if (!r.success) return { ok: false, reason: describeIssues(r.error.issues) };
  return { ok: true, work: { kind, payload: r.data } as OutboxWork };
}

const NOT_MOVABLE: Partial<Record<OutboxState, string>> = {
  sending: 'it is being sent right now, and the changes behind it wait until its answer is in',
  uncertain: 'its answer was lost and the service is being checked for it; the changes behind it wait until that is settled',
  sent: 'it has already been sent',
  failed: 'the service refused it; Retry puts it back in the queue, where it can then be moved',
  blocked: 'it needs a fix first; once it is queued again it can be moved',
};

function notMovable(state: OutboxState): string {
  return `Only a queued change can be moved: ${NOT_MOVABLE[state] ?? `it is ${state}`}.`;
}

/**
 * Where the moved item goes in `rest` (the lane's other queued items, in order), given where it
 * was (`from`). Moving past either end stays at that end.
 */
function targetIndex(to: OutboxMove, from: number, rest: readonly number[], lookup: (seq: number) => OutboxItem | undefined): number {
  if (to === 'first') return 0;
  if (to === 'last') return rest.length;
  if (to === 'up') return Math.max(0, from - 1);
  if (to === 'down') return Math.min(rest.length, from + 1);
  const at = rest.indexOf(to.before);
  if (at >= 0) return at;
  const other = lookup(to.before);
  if (!other) throw new StoreError('NOT_FOUND', `No outbox item ${to.before} to move it before`);
  if (other.state === 'queued')
    throw new StoreError('INVALID_INPUT', 'A change can only be moved among the queued changes of its own account');
  throw new StoreError('BAD_TRANSITION', `It cannot go before that change: ${NOT_MOVABLE[other.state] ?? `it is ${other.state}`}.`);
}

export function createOutboxRepo(ctx: RepoContext, quarantine: QuarantineRepo): OutboxRepo {
  const { db } = ctx;
  // In flight: sending, or uncertain and not parked (a parked item waits for the person, aside).
  // Aside, not in flight: a parked item (waits for the person) and a create posted without its id
  // (it happened; only its id is looked for). The lane goes on without either.
  const IN_FLIGHT = `(state = 'sending' OR (state = 'uncertain' AND coalesce(json_extract(last_error, '$.code'), '') NOT IN ('${PARKED_CODE}', '${POSTED_ID_UNKNOWN_CODE}')))`;
  const ACTIVE = `(state = 'queued' OR ${IN_FLIGHT})`;
  // The lane's order: an item in flight first (it must be settled before anything behind it, even
  // when a failed item placed earlier was queued again meanwhile), then the person's order.
  const IN_LANE_ORDER = `CASE WHEN ${IN_FLIGHT} THEN 0 ELSE 1 END, lane_order, seq`;
  // A new item's place is its own seq: after every item of its lane, since seqs only grow and a
  // move only exchanges places among items already there.
  const insert = db.prepare(`INSERT INTO outbox (profile_id, account_id, kind, payload, draft_id, state, attempts,
      next_attempt_at, created_at, updated_at)
    VALUES (@profileId, @accountId, @kind, @payload, @draftId, 'queued', 0, @notBefore, @now, @now)`);
  const placeNew = db.prepare('UPDATE outbox SET lane_order = seq WHERE seq = ?');
  const getStmt = db.prepare('SELECT * FROM outbox WHERE seq = ?');
  const headStmt = db.prepare(
    `SELECT * FROM outbox WHERE profile_id = ? AND account_id IS ? AND ${ACTIVE} ORDER BY ${IN_LANE_ORDER} LIMIT 1`,
  );
  const headsSql = `SELECT * FROM (SELECT o.*, row_number() OVER (PARTITION BY profile_id, account_id ORDER BY ${IN_LANE_ORDER}) AS lane_rank
      FROM outbox o WHERE ${ACTIVE}) WHERE lane_rank = 1`;
  const queuedInLane = db.prepare(
    `SELECT seq, lane_order FROM outbox WHERE profile_id = ? AND account_id IS ? AND state = 'queued' ORDER BY ${IN_LANE_ORDER}`,
  );
  // updated_at is left alone: the place is not part of the change, and the engine reads
  // updated_at to tell whether an item waited for the connection before it came back.
  const setPlace = db.prepare('UPDATE outbox SET lane_order = ? WHERE seq = ?');
  const readyStmt = db.prepare(
    `SELECT profile_id, account_id FROM (${headsSql}) WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY seq`,
  );
  const uncertainStmt = db.prepare(`SELECT * FROM (${headsSql}) WHERE state = 'uncertain' ORDER BY seq`);
  const nextDueStmt = db.prepare(`SELECT min(next_attempt_at) FROM (${headsSql}) WHERE state = 'queued'`).pluck();
  const claimStmt = db.prepare(
    "UPDATE outbox SET state = 'sending', attempts = attempts + 1, updated_at = ? WHERE seq = ? AND state = 'queued'",
  );
  const recoverStmt = db.prepare(
    `UPDATE outbox SET state = 'uncertain', updated_at = ?,
       last_error = json_object('code', 'INTERRUPTED', 'message', 'The app stopped while this was being sent; checking the service before sending again')
     WHERE state = 'sending'`,
  );
  const del = db.prepare("DELETE FROM outbox WHERE seq = ? AND state <> 'sending'");
  const reviseStmt = db.prepare("UPDATE outbox SET last_error = ?, updated_at = ? WHERE seq = ? AND state = 'uncertain'");
  const pruneStmt = db.prepare("DELETE FROM outbox WHERE state = 'sent' AND updated_at < ?");

  const delAny = db.prepare('DELETE FROM outbox WHERE seq = ?');

  /** Row -> item; a row that no longer parses goes to quarantine and yields undefined. */
  function fromRow(r: unknown): OutboxItem | undefined {
    const raw = r as { seq?: unknown; profile_id?: unknown };
    const quarantineIt = (reason: string) => {
      const seq = Number(raw.seq);
      quarantine.add(
        { source: 'outbox', sourceKey: String(seq), profileId: typeof raw.profile_id === 'string' ? raw.profile_id : null, row: r, reason },
        () => delAny.run(seq),
      );
      return undefined;
    };
    const row = rowSchema.safeParse(r);
    if (!row.success) return quarantineIt(describeIssues(row.error.issues));
    const d = row.data;
    const payload = parseJsonColumn(z.unknown(), d.payload);
    const work = payload.ok ? parseWork(d.kind, payload.value) : payload;
    if (!work.ok) return quarantineIt(`payload: ${work.reason}`);
    const lastError = parseJsonColumn(errorSchema.nullable(), d.last_error);
    if (!lastError.ok) return quarantineIt(`last_error: ${lastError.reason}`);
    const result = parseJsonColumn(z.unknown(), d.result);
    if (!result.ok) return quarantineIt(`result: ${result.reason}`);
    return {
      seq: d.seq,
      profileId: d.profile_id,
      accountId: d.account_id,
      ...work.work,
      draftId: d.draft_id,
      state: d.state,
      attempts: d.attempts,
      nextAttemptAt: d.next_attempt_at,
      lastError: lastError.value,
      result: result.value,
      createdAt: d.created_at,
      updatedAt: d.updated_at,
    } as OutboxItem;
  }

  function head(lane: OutboxLane): OutboxItem | undefined {
    // A quarantined head is gone from the table: look again for the next one.
    for (;;) {
      const r = headStmt.get(lane.profileId, lane.accountId);
      if (r === undefined) return undefined;
      const item = fromRow(r);
      if (item) return item;
    }
  }

  const rowsToItems = (rows: unknown[]): OutboxItem[] => rows.map(fromRow).filter((i): i is OutboxItem => i !== undefined);

  const get = (seq: number): OutboxItem | undefined => {
    const r = getStmt.get(seq);
    return r === undefined ? undefined : fromRow(r);
  };

  /** Moves seq to `to` if its current state allows it; sets the extra columns given. */
  function transition(seq: number, to: OutboxState, set: Record<string, unknown> = {}): OutboxItem {
    return ctx.tx(() => {
      const from = OUTBOX_STATES.filter((s) => OUTBOX_TRANSITIONS[s].includes(to));
      const cols = Object.keys(set);
      const sql =
        `UPDATE outbox SET state = ?, updated_at = ?${cols.map((c) => `, ${c} = ?`).join('')} ` +
        `WHERE seq = ? AND state IN (${from.map(() => '?').join(', ')})`;
      const changes = db.prepare(sql).run(to, ctx.clock.now(), ...Object.values(set), seq, ...from).changes;
      if (changes === 0) {
        const current = getStmt.get(seq) as { state?: string } | undefined;
        if (!current) throw new StoreError('NOT_FOUND', `No outbox item ${seq}`);
        throw new StoreError('BAD_TRANSITION', `Outbox item ${seq} is ${current.state}; it cannot become ${to}`);
      }
      const item = get(seq);
      if (!item) throw unreadable(seq);
      return item;
    });
  }

  const errorCols = (e: StoredError) => ({ last_error: toJson(errorSchema.parse(e)) });

  return {
    enqueue(input) {
      const { profileId, accountId = null, draftId = null, notBefore, ...rest } = input;
      const w = parseWork(rest.kind, rest.payload);
      if (!w.ok) throw new StoreError('INVALID_INPUT', `${rest.kind}: ${w.reason}`);
      if (accountId === null && ACCOUNT_BOUND_KINDS.includes(rest.kind)) {
        throw new StoreError('INVALID_INPUT', `${rest.kind} must name the account it is for`);
      }
      return ctx.tx(() => {
        const now = ctx.clock.now();
        let seq: number;
        try {
          seq = Number(
            insert.run({
              profileId,
              accountId,
              kind: w.work.kind,
              payload: toJson(w.work.payload),
              draftId,
              notBefore: notBefore ?? now,
              now,
            }).lastInsertRowid,
          );
        } catch (e) {
          if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
            throw new StoreError('NOT_FOUND', 'The outbox item names a profile, account or draft that does not exist');
          }
          throw e;
        }
        placeNew.run(seq);
        return get(seq) as OutboxItem;
      });
    },
    get,
    list(filter = {}) {
      const states = (filter.states ?? []).map((s) => z.enum(OUTBOX_STATES).parse(s));
      const where = whereClause([
        when(filter.profileId !== undefined, 'profile_id = ?', filter.profileId),
        when(filter.accountId !== undefined, 'account_id IS ?', filter.accountId),
        when(states.length > 0, `state IN (${placeholders(states.length)})`, ...states),
      ]);
      const sql = `SELECT * FROM outbox ${where.sql} ORDER BY ${IN_LANE_ORDER}`;
      return rowsToItems(db.prepare(sql).all(...where.params));
    },
    head,
    readyLanes(now) {
      return (readyStmt.all(now) as { profile_id: string; account_id: string | null }[]).map((r) => ({
        profileId: r.profile_id,
        accountId: r.account_id,
      }));
    },
    uncertainHeads() {
      return rowsToItems(uncertainStmt.all());
    },
    nextDueAt() {
      const v = nextDueStmt.get();
      return typeof v === 'number' ? v : null;
    },
    claimNext(lane, now) {
      return ctx.tx(() => {
        const current = head(lane);
        if (!current || current.state !== 'queued' || current.nextAttemptAt > now) return undefined;
        claimStmt.run(ctx.clock.now(), current.seq);
        return get(current.seq);
      });
    },
    markSent(seq, result) {
      return transition(seq, 'sent', { result: toJsonOrNull(result), last_error: null });
    },
    markFailed(seq, error) {
      return transition(seq, 'failed', errorCols(error));
    },
    markUncertain(seq, error) {
      return transition(seq, 'uncertain', errorCols(error));
    },
    reviseUncertain(seq, error) {
      return ctx.tx(() => {
        // A new note about the look-up; what the service said stays beside it.
        const said = error.said ?? get(seq)?.lastError?.said;
        const revised = said === undefined ? error : { ...error, said };
        if (reviseStmt.run(errorCols(revised).last_error, ctx.clock.now(), seq).changes === 0) {
          const current = getStmt.get(seq) as { state?: string } | undefined;
          if (!current) throw new StoreError('NOT_FOUND', `No outbox item ${seq}`);
          throw new StoreError('BAD_TRANSITION', `Outbox item ${seq} is ${current.state}; only an uncertain item can be revised`);
        }
        const item = get(seq);
        if (!item) throw unreadable(seq);
        return item;
      });
    },
    markBlocked(seq, error) {
      return transition(seq, 'blocked', errorCols(error));
    },
    retryLater(seq, nextAttemptAt, error) {
      const current = get(seq);
      if (current && current.state !== 'sending') {
        throw new StoreError('BAD_TRANSITION', `Outbox item ${seq} is ${current.state}; only an item being sent can be retried later`);
      }
      return transition(seq, 'queued', { next_attempt_at: Math.round(nextAttemptAt), ...errorCols(error) });
    },
    requeue(seq, opts = {}) {
      return ctx.tx(() => {
        const current = get(seq);
        if (!current) throw new StoreError('NOT_FOUND', `No outbox item ${seq}`);
        if (current.state === 'sending') {
          throw new StoreError('BAD_TRANSITION', `Outbox item ${seq} is being sent; it cannot be requeued now`);
        }
        const set: Record<string, unknown> = { next_attempt_at: Math.round(opts.nextAttemptAt ?? ctx.clock.now()) };
        if (opts.work) {
          if (opts.work.kind !== current.kind) throw new StoreError('INVALID_INPUT', 'A fix cannot change the kind of an outbox item');
          const w = parseWork(opts.work.kind, opts.work.payload);
          if (!w.ok) throw new StoreError('INVALID_INPUT', `${opts.work.kind}: ${w.reason}`);
          set.payload = toJson(w.work.payload);
        }
        return transition(seq, 'queued', set);
      });
    },
    move(seq, to) {
      return ctx.tx(() => {
        const item = get(seq);
        if (!item) throw new StoreError('NOT_FOUND', `No outbox item ${seq}`);
        if (item.state !== 'queued') throw new StoreError('BAD_TRANSITION', notMovable(item.state));
        const lane = queuedInLane.all(item.profileId, item.accountId) as { seq: number; lane_order: number }[];
        const from = lane.findIndex((r) => r.seq === seq);
        const order = lane.map((r) => r.seq);
        order.splice(from, 1);
        order.splice(
          targetIndex(to, from, order, (other) => get(other)),
          0,
          seq,
        );
        // The queued items keep the places they had between them, in the new order: items in flight
        // and parked ones keep theirs, and a later new item still goes last.
        const places = lane.map((r) => r.lane_order);
        order.forEach((s, i) => {
          if (lane[i].seq !== s) setPlace.run(places[i], s);
        });
        return get(seq) as OutboxItem;
      });
    },
    remove(seq) {
      const current = getStmt.get(seq) as { state?: string } | undefined;
      if (current?.state === 'sending') {
        throw new StoreError('BAD_TRANSITION', `Outbox item ${seq} is being sent; it cannot be removed now`);
      }
      return del.run(seq).changes > 0;
    },
    recoverInterrupted() {
      return recoverStmt.run(ctx.clock.now()).changes;
    },
    pruneSent(before) {
      return pruneStmt.run(before).changes;
    },
  };
}
