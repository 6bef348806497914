// What an account is, written once for the service client, the store, the contract, the window
// and the sandbox: an advertiser, or a network whose listing holds its members' campaigns.

export const ACCOUNT_TYPES = ['ADVERTISER', 'NETWORK'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** One account of one connection: the unit of caches, rate limits, outbox order and the window's selection. */
export interface AccountRef {
  profileId: string;
  accountId: string;
}

/** Whether two references name the same account (either may be absent). */
export const sameAccount = (a: AccountRef | null | undefined, b: AccountRef | null | undefined): boolean =>
  a != null && b != null && a.profileId === b.profileId && a.accountId === b.accountId;
