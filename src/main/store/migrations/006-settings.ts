// Version 6: app settings that are not about one connection or account, as JSON per key (the
// repository validates each known key). First use: the built-in demo connection a person removed
// stays removed across restarts.
import type { Migration } from '../migrate';

export const migration006: Migration = {
  version: 6,
  name: 'settings',
  up: `
CREATE TABLE settings (
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL CHECK (json_valid(value))
) STRICT;
`,
};
