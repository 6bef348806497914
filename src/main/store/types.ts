// Small types shared by the repositories.

import type { Clock } from '../clock/clock';

/** What the repositories need of the clock: the time stamps they write (src/main/clock). */
export type StoreClock = Pick<Clock, 'now'>;

/** One account of one connection profile: the unit of caches, rate limits and outbox order. */
export interface AccountRef {
  profileId: string;
  accountId: string;
}

/** The error shape stored on accounts and outbox rows. */
export interface StoredError {
  code: string;
  message: string;
}
