// Version 7: what the outbox's look-ups for a lost create or push need beyond the first send
// notes, so that they are right against any service and survive a restart:
// - clock_offset_ms: the service's clock minus ours when the note's times were written; null when
//   the service had not answered yet (the times are then our clock's and are moved by the offset
//   learned later). Times compared with the service's own must be on its clock (DECISIONS 10).
// - newest_known_id: the newest campaign id the cache held before the first send. Asking for the
//   newest campaigns first, a look-up has looked far enough once it reaches that id.
// - absent_at: when (service clock) a look-up last found nothing. One "not found" is not proof:
//   a service may apply a request seconds after its connection closed, so absence is proven only
//   by a second look-up a grace period later.
// - candidates: the ids that matched when more than one did. The person says which one is theirs
//   (or that none is); the engine never guesses and never resends while in doubt.
import type { Migration } from '../migrate';

export const migration007: Migration = {
  version: 7,
  name: 'send-note-lookups',
  up: `
ALTER TABLE send_notes ADD COLUMN clock_offset_ms REAL;
ALTER TABLE send_notes ADD COLUMN newest_known_id TEXT;
ALTER TABLE send_notes ADD COLUMN absent_at REAL;
ALTER TABLE send_notes ADD COLUMN candidates TEXT CHECK (candidates IS NULL OR (json_valid(candidates) AND json_type(candidates) = 'array'));
`,
};
