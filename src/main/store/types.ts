// Small types shared by the repositories.

import type { Clock } from '../clock/clock';

/** What the repositories need of the clock: the time stamps they write (src/main/clock). */
export type StoreClock = Pick<Clock, 'now'>;

export type { AccountRef } from '../../shared/domain/account';

/** The error shape stored on accounts and outbox rows. */
export interface StoredError {
  code: string;
  message: string;
  /**
   * What the service itself answered when that answer left the change in doubt (a 5xx: status and
   * words, "500: Internal server error"). Kept while the app's own notes about looking for the
   * change replace `message`, so the person never loses what the service said.
   */
  said?: string;
}
