// Version 12: a send note can say that the service took the change (a 2xx) without naming the
// record it made (a create answered with no body, 202 or 204): `applied` = 1. Such an item is
// posted and is never sent again; its look-ups only learn the campaign's id. Null: not known to be
// applied (its answer was lost, or named the record).
import type { Migration } from '../migrate';

export const migration012: Migration = {
  version: 12,
  name: 'send-note-applied',
  up: `ALTER TABLE send_notes ADD COLUMN applied INTEGER CHECK (applied IN (0, 1));`,
};
