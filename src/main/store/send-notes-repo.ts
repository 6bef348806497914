// The outbox's send notes (migration 4): what the sync engine records about a create or push
// before the request leaves, so that after a lost answer or a crash it can tell its own result
// from something that already looked the same. A note is committed (synchronous=FULL) before the
// request is sent; an item without a note was therefore never sent, and an item with one is
// looked for on the service before any resend.
import { z } from 'zod';
import type { RepoContext } from './context';

export const sendNoteSchema = z.object({
  seq: z.number().int(),
  /** The payload's clientRef: a note only counts for the item it was written for. */
  clientRef: z.string(),
  /** When the first send started (service clock, ms). */
  firstSentAt: z.number(),
  /** When the latest send started: a server may still apply a request it took too long to answer. */
  lastSentAt: z.number(),
  /** Ids (campaign ids, or task ids) that already matched the item's content before that send. */
  baseline: z.array(z.string()).max(10_000),
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
});

export function createSendNotesRepo(ctx: RepoContext): SendNotesRepo {
  const { db } = ctx;
  const select = db.prepare('SELECT * FROM send_notes WHERE seq = ?');
  const upsert = db.prepare(
    `INSERT INTO send_notes (seq, client_ref, first_sent_at, last_sent_at, baseline) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (seq) DO UPDATE SET client_ref = excluded.client_ref, first_sent_at = excluded.first_sent_at,
       last_sent_at = excluded.last_sent_at, baseline = excluded.baseline`,
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
      let baseline: string[];
      try {
        baseline = z.array(z.string()).parse(JSON.parse(row.data.baseline));
      } catch {
        // Unreadable baseline: the item may have been sent, so it is still treated as sent once
        // (an empty baseline: any matching campaign or task counts as its result).
        baseline = [];
      }
      return { seq, clientRef, firstSentAt: row.data.first_sent_at, lastSentAt: row.data.last_sent_at, baseline };
    },
    put(note) {
      const n = sendNoteSchema.parse(note);
      ctx.tx(() => upsert.run(n.seq, n.clientRef, n.firstSentAt, n.lastSentAt, JSON.stringify(n.baseline)));
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
