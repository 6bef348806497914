// Version 10: the person can change which of an account's queued changes goes first (issue #14).
// lane_order is the order within a lane; seq stays the item's identity. A new item takes its own
// seq as its place (so it goes last, after everything queued before it) and a move only swaps
// places among the lane's queued items, so existing rows simply start with lane_order = seq.
import type { Migration } from '../migrate';

export const migration010: Migration = {
  version: 10,
  name: 'outbox-lane-order',
  up: `
ALTER TABLE outbox ADD COLUMN lane_order INTEGER NOT NULL DEFAULT 0;
UPDATE outbox SET lane_order = seq;
DROP INDEX outbox_active;
CREATE INDEX outbox_active ON outbox(profile_id, account_id, lane_order, seq) WHERE state IN ('queued', 'sending', 'uncertain');
`,
};
