// Version 5: "work offline" belongs to the connection profile, not to each account. Until now the
// choice was written on every account of the profile, so a profile without accounts could not
// keep it across a restart, and an account added later had to copy it. A profile keeps working
// offline if every one of its accounts did; the accounts' column goes.
import type { Migration } from '../migrate';

export const migration005: Migration = {
  version: 5,
  name: 'profile-work-offline',
  up: `
ALTER TABLE profiles ADD COLUMN work_offline INTEGER NOT NULL DEFAULT 0 CHECK (work_offline IN (0, 1));
UPDATE profiles SET work_offline = 1
  WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.profile_id = profiles.id)
    AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.profile_id = profiles.id AND a.work_offline = 0);
ALTER TABLE accounts DROP COLUMN work_offline;
`,
};
