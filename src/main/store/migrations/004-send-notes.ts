// Version 4: the outbox's send notes move from small files beside the database into this table.
// A note is what the sync engine must know about a create or push before it leaves (the ids that
// already matched its content, when it was first and last sent), so that after a lost answer or a
// crash it looks for its own result before sending again. In the same file as the outbox row it
// describes, it is committed with the same synchronous=FULL guarantee, goes away with its row
// (cascade), and a backup or copy of the database can no longer separate the two.
import type { Migration } from '../migrate';

export const migration004: Migration = {
  version: 4,
  name: 'send-notes',
  up: `
CREATE TABLE send_notes (
  seq INTEGER PRIMARY KEY REFERENCES outbox(seq) ON DELETE CASCADE,
  client_ref TEXT NOT NULL,
  first_sent_at REAL NOT NULL,
  last_sent_at REAL NOT NULL,
  baseline TEXT NOT NULL CHECK (json_valid(baseline) AND json_type(baseline) = 'array')
) STRICT;
`,
};
