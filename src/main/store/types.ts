// Small types shared by the repositories.

import type { Clock } from '../clock/clock';

/** What the repositories need of the clock: the time stamps they write (src/main/clock). */
export type StoreClock = Pick<Clock, 'now'>;

export type { AccountRef } from '../../shared/domain/account';

/** The error shape stored on accounts and outbox rows. */
export interface StoredError {
  code: string;
  message: string;
}
