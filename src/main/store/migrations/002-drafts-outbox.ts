// Version 2: drafts, the durable outbox and the quarantine for rows that no longer parse.
import type { Migration } from '../migrate';

export const migration002: Migration = {
  version: 2,
  name: 'drafts-outbox',
  up: `
CREATE TABLE drafts (
  id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  account_id TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('campaign', 'push')),
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  problems TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(problems)),
  state TEXT NOT NULL DEFAULT 'editing' CHECK (state IN ('editing', 'submitted')),
  version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  FOREIGN KEY (profile_id, account_id) REFERENCES accounts(profile_id, account_id) ON DELETE CASCADE
) STRICT;
CREATE INDEX drafts_by_owner ON drafts(profile_id, account_id, updated_at);

-- seq is AUTOINCREMENT so a number is never reused: it is the FIFO order of a lane and the
-- identity the sync engine reports in events.
CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  account_id TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('create_campaign', 'send_push', 'update_task', 'cancel_task', 'set_sw_path')),
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  draft_id TEXT REFERENCES drafts(id) ON DELETE SET NULL,
  state TEXT NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'uncertain', 'blocked')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT CHECK (last_error IS NULL OR json_valid(last_error)),
  result TEXT CHECK (result IS NULL OR json_valid(result)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  FOREIGN KEY (profile_id, account_id) REFERENCES accounts(profile_id, account_id) ON DELETE CASCADE
) STRICT;
CREATE INDEX outbox_by_lane ON outbox(profile_id, account_id, seq);
CREATE INDEX outbox_active ON outbox(profile_id, account_id, seq) WHERE state IN ('queued', 'sending', 'uncertain');
CREATE INDEX outbox_by_draft ON outbox(draft_id);

CREATE TABLE quarantine (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  source_key TEXT NOT NULL,
  profile_id TEXT,
  row_json TEXT NOT NULL,
  reason TEXT NOT NULL,
  at INTEGER NOT NULL
) STRICT;
CREATE INDEX quarantine_by_profile ON quarantine(profile_id);
`,
};
