// Send notes live in the database (store/send-notes-repo.ts, migration 4). Versions before that
// kept them as one small JSON file per in-flight item in `<dataDir>/outbox-notes/`. On start-up
// such files are moved into the database once, so an item that was in flight across the upgrade
// is still looked for before it is sent again; then the folder is removed.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sendNoteSchema, type OutboxItem, type SendNote, type SendNotesRepo } from '../store';

export type SendNotes = SendNotesRepo;

export const LEGACY_NOTES_FOLDER = 'outbox-notes';

/** What ties a note to its item: the create's clientRef, or the kind and time of any other item. */
export function sendNoteRef(item: OutboxItem): string {
  return item.kind === 'create_campaign' ? item.payload.clientRef : `${item.kind}:${item.createdAt}`;
}

/**
 * The note with its times on the service's clock, now that its offset is known (`offsetNow`,
 * null while the service has not answered). A note written before the service first answered
 * holds our own clock's times; they are moved once, by the offset learned since.
 */
export function noteOnServiceClock(note: SendNote, offsetNow: number | null): SendNote {
  if (note.clockOffsetMs !== undefined || offsetNow === null) return note;
  return {
    ...note,
    firstSentAt: note.firstSentAt + offsetNow,
    lastSentAt: note.lastSentAt + offsetNow,
    ...(note.absentAt === undefined ? {} : { absentAt: note.absentAt + offsetNow }),
    clockOffsetMs: offsetNow,
  };
}

/** The service's time now for a note's comparisons: the learned offset, else the one the note was written with. */
export function serviceNowFor(localNow: number, offsetNow: number | null, note?: SendNote): number {
  return localNow + (offsetNow ?? note?.clockOffsetMs ?? 0);
}

/**
 * Moves notes of items still in flight (`alive`) from the old folder into `notes`; returns how
 * many were moved. A note the database already holds wins. A file that does not parse is, for an
 * item in flight, kept as an empty baseline: that item may have been sent, so it is looked for.
 */
export function importLegacySendNotes(
  dataDir: string,
  notes: SendNotes,
  alive: (seq: number) => OutboxItem | undefined,
): number {
  const dir = join(dataDir, LEGACY_NOTES_FOLDER);
  if (!existsSync(dir)) return 0;
  let moved = 0;
  for (const name of readdirSync(dir)) {
    const m = /^(\d+)\.json$/.exec(name);
    if (!m) continue;
    const seq = Number(m[1]);
    const item = alive(seq);
    if (!item) continue;
    const clientRef = sendNoteRef(item);
    if (notes.get(seq, clientRef)) continue;
    let note = { seq, clientRef, firstSentAt: 0, lastSentAt: 0, baseline: [] as string[] };
    try {
      const parsed = sendNoteSchema.safeParse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
      if (parsed.success) {
        if (parsed.data.seq !== seq || parsed.data.clientRef !== clientRef) continue;
        note = parsed.data;
      }
    } catch {
      // Unreadable: keep the empty baseline above.
    }
    notes.put(note);
    moved++;
  }
  // Only after every note is committed: a crash before this line imports them again next time.
  rmSync(dir, { recursive: true, force: true });
  return moved;
}
