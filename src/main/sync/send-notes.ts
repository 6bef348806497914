// What is known about an item before it is sent (store/send-notes-repo.ts): which note belongs to
// which item, and its times on the service's clock.
import { serviceTime } from '../../shared/domain/service-time';
import type { OutboxItem, SendNote, SendNotesRepo } from '../store';

export type SendNotes = SendNotesRepo;

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
  return serviceTime(localNow, offsetNow ?? note?.clockOffsetMs);
}
