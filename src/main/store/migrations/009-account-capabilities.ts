// Version 9: what each account may use (display, performance video, no spending limit), learned
// from the service's refusals and successes or said by the person (DECISIONS client 13). No row
// means not known. The capability name is checked by the repository, not the table, so a new
// capability needs no new step. Rows go with their account.
import type { Migration } from '../migrate';

export const migration009: Migration = {
  version: 9,
  name: 'account-capabilities',
  up: `
CREATE TABLE account_capabilities (
  account_key INTEGER NOT NULL REFERENCES accounts(account_key) ON DELETE CASCADE,
  capability TEXT NOT NULL CHECK (length(capability) > 0),
  state TEXT NOT NULL CHECK (state IN ('enabled', 'refused')),
  source TEXT NOT NULL CHECK (source IN ('learned', 'person')),
  message TEXT,
  at INTEGER NOT NULL,
  PRIMARY KEY (account_key, capability)
) STRICT, WITHOUT ROWID;
`,
};
