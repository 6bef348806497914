// The outbox's send notes (migrations 4 and 7): what the sync engine records about a create or
// push before the request leaves, so that after a lost answer or a crash it can tell its own
// result from something that already looked the same. A note is committed (synchronous=FULL)
// before the request is sent; an item without a note was therefore never sent, and an item with
// one is looked for on the service before any resend. The look-ups' own progress (a first "not
// found", an ambiguous match waiting for the person) is kept here too, so a restart resumes it.
import { z } from 'zod';
import type { RepoContext } from './context';

export const sendNoteSchema = z.object({
  seq: z.number().int(),
  /** The payload's clientRef: a note only counts for the item it was written for. */
  clientRef: z.string(),
  /** When the first send started (service clock when `clockOffsetMs` is given, else ours; ms). */
  firstSentAt: z.number(),
  /** When the latest send started: a server may still apply a request it took too long to answer. */
  lastSentAt: z.number(),
  /** Ids (campaign ids, or task ids) that already matched the item's content before that send. */
  baseline: z.array(z.string()).max(10_000),
  /**
   * The service's clock minus ours when the times above were written. Absent: the service had not
   * answered yet (or an older version wrote the note), so the times are ours.
   */
  clockOffsetMs: z.number().optional(),
  /** A create's newest campaign id in the cache before its first send (absent: the cache was empty). */
  newestKnownId: z.string().optional(),
  /** When a look-up last found nothing (service clock); absent until one has. */
  absentAt: z.number().optional(),
  /** More than one match was found: these ids wait for the person to say which one is theirs. */
  candidates: z.array(z.string()).max(1_000).optional(),
  /**
   * The service took the create (a 2xx) without naming the campaign it made: it is posted and is
   * never sent again; look-ups only learn its id (absent: the answer was lost or named it).
   */
  applied: z.boolean().optional(),
});
export type SendNote = z.infer<typeof sendNoteSchema>;

export interface SendNotesRepo {
  /** The note of outbox item `seq`, if one was written for this clientRef. */
  get(seq: number, clientRef: string): SendNote | undefined;
  /** Writes (or replaces) the note; returns once it is durable. */
  put(note: SendNote): void;
  remove(seq: number): void;
  /** Drops the notes of items for which `alive` says no (settled or gone). */
  prune(alive: (seq: number) => boolean): void;
}

const rowSchema = z.object({
  seq: z.number().int(),
  client_ref: z.string(),
  first_sent_at: z.number(),
  last_sent_at: z.number(),
  baseline: z.string(),
  clock_offset_ms: z.number().nullable(),
  newest_known_id: z.string().nullable(),
  absent_at: z.number().nullable(),
  candidates: z.string().nullable(),
  applied: z.number().nullable(),
});

const idList = z.array(z.string());

function parseIds(text: string | null): string[] | undefined {
  if (text === null) return undefined;
  try {
    const r = idList.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

export function createSendNotesRepo(ctx: RepoContext): SendNotesRepo {
  const { db } = ctx;
  const select = db.prepare('SELECT * FROM send_notes WHERE seq = ?');
  const upsert = db.prepare(
    `INSERT INTO send_notes (seq, client_ref, first_sent_at, last_sent_at, baseline, clock_offset_ms, newest_known_id, absent_at, candidates, applied)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (seq) DO UPDATE SET client_ref = excluded.client_ref, first_sent_at = excluded.first_sent_at,
       last_sent_at = excluded.last_sent_at, baseline = excluded.baseline, clock_offset_ms = excluded.clock_offset_ms,
       newest_known_id = excluded.newest_known_id, absent_at = excluded.absent_at, candidates = excluded.candidates, applied = excluded.applied`,
  );
  const del = db.prepare('DELETE FROM send_notes WHERE seq = ?');
  const allSeqs = db.prepare('SELECT seq FROM send_notes').pluck();
  return {
    get(seq, clientRef) {
      const raw = select.get(seq);
      if (raw === undefined) return undefined;
      const row = rowSchema.safeParse(raw);
      if (!row.success) return undefined;
      if (row.data.client_ref !== clientRef) return undefined;
      const d = row.data;
      // Unreadable baseline: the item may have been sent, so it is still treated as sent once
      // (an empty baseline: any matching campaign or task counts as its result).
      const baseline = parseIds(d.baseline) ?? [];
      const note: SendNote = { seq, clientRef, firstSentAt: d.first_sent_at, lastSentAt: d.last_sent_at, baseline };
      if (d.clock_offset_ms !== null) note.clockOffsetMs = d.clock_offset_ms;
      if (d.newest_known_id !== null) note.newestKnownId = d.newest_known_id;
      if (d.absent_at !== null) note.absentAt = d.absent_at;
      // Unreadable candidates: an empty list still says "ask the person", who can send it again.
      if (d.candidates !== null) note.candidates = parseIds(d.candidates) ?? [];
      if (d.applied === 1) note.applied = true;
      return note;
    },
    put(note) {
      const n = sendNoteSchema.parse(note);
      ctx.tx(() =>
        upsert.run(
          n.seq,
          n.clientRef,
          n.firstSentAt,
          n.lastSentAt,
          JSON.stringify(n.baseline),
          n.clockOffsetMs ?? null,
          n.newestKnownId ?? null,
          n.absentAt ?? null,
          n.candidates === undefined ? null : JSON.stringify(n.candidates),
          n.applied === true ? 1 : null,
        ),
      );
    },
    remove(seq) {
      ctx.tx(() => del.run(seq));
    },
    prune(alive) {
      const dead = (allSeqs.all() as number[]).filter((seq) => !alive(seq));
      if (dead.length > 0) ctx.tx(() => dead.forEach((seq) => del.run(seq)));
    },
  };
}
