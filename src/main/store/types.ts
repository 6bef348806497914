// Small types shared by the repositories.

/** Milliseconds since the epoch. Tests pass a manual clock so nothing sleeps. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

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
