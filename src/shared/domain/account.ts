// What an account is, written once for the service client, the store, the contract, the window
// and the sandbox: an advertiser, or a network whose listing holds its members' campaigns.

export const ACCOUNT_TYPES = ['ADVERTISER', 'NETWORK'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
