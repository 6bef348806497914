// What the engine must remember about a create or push BEFORE it is sent, so that after a lost
// answer or a crash it can tell its own campaign or task from one that already looked the same:
// the ids that matched the item's content just before the first send (the baseline) and when
// that send started. A note is written and fsynced before the request leaves; so an item that
// has no note was provably never sent, and an item that has one is looked for before any resend.
//
// Why files beside the database and not a column: the store's outbox payload schemas are closed
// (extra keys are stripped) and a row cannot be edited while it is being sent. One small file per
// in-flight item, written atomically (temp file, fsync, rename, fsync of the folder), gives the
// same durability; it is removed when the item settles.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const sendNoteSchema = z.object({
  seq: z.number().int(),
  /** The payload's clientRef: guards against a note outliving its row (a replaced database). */
  clientRef: z.string(),
  /** When the first send started (service clock, ms). */
  firstSentAt: z.number(),
  /** When the latest send started: a server may still apply a request it took too long to answer. */
  lastSentAt: z.number(),
  /** Ids (campaign ids, or task ids) that already matched the item's content before that send. */
  baseline: z.array(z.string()).max(10_000),
});
export type SendNote = z.infer<typeof sendNoteSchema>;

export interface SendNotes {
  get(seq: number, clientRef: string): SendNote | undefined;
  put(note: SendNote): void;
  remove(seq: number): void;
  /** Drops notes of items that no longer exist. */
  prune(alive: (seq: number) => boolean): void;
}

export function createSendNotes(dir: string): SendNotes {
  mkdirSync(dir, { recursive: true });
  const file = (seq: number) => join(dir, `${seq}.json`);
  const syncDir = () => {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  return {
    get(seq, clientRef) {
      let text: string;
      try {
        text = readFileSync(file(seq), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const note = sendNoteSchema.parse(JSON.parse(text));
        return note.seq === seq && note.clientRef === clientRef ? note : undefined;
      } catch {
        // A torn or foreign file: the rename makes this unlikely; treat it as no note at all is
        // NOT safe (the item may have been sent), so keep an empty baseline instead.
        return { seq, clientRef, firstSentAt: 0, lastSentAt: 0, baseline: [] };
      }
    },
    put(note) {
      const tmp = `${file(note.seq)}.tmp`;
      const fd = openSync(tmp, 'w');
      try {
        writeSync(fd, JSON.stringify(sendNoteSchema.parse(note)));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, file(note.seq));
      syncDir();
    },
    remove(seq) {
      rmSync(file(seq), { force: true });
    },
    prune(alive) {
      for (const name of readdirSync(dir)) {
        const m = /^(\d+)\.json(\.tmp)?$/.exec(name);
        if (m && (m[2] !== undefined || !alive(Number(m[1])))) rmSync(join(dir, name), { force: true });
      }
    },
  };
}
