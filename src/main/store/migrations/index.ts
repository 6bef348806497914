// The ordered list of migrations. Append only: never edit or renumber a released step.
import type { Migration } from '../migrate';
import { migration001 } from './001-initial';
import { migration002 } from './002-drafts-outbox';
import { migration003 } from './003-campaigns-per-account';
import { migration004 } from './004-send-notes';
import { migration005 } from './005-profile-work-offline';
import { migration006 } from './006-settings';
import { migration007 } from './007-send-note-lookups';
import { migration008 } from './008-campaign-indexes-the-window-uses';
import { migration009 } from './009-account-capabilities';
import { migration010 } from './010-outbox-lane-order';
import { migration011 } from './011-campaign-cache-file';
import { migration012 } from './012-send-note-applied';

export const MIGRATIONS: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
];
