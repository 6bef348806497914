// The built-in demo's client and accounts, written once: the sandbox serves them as its demo world
// (src/sandbox/demo-fixtures.ts adds their campaigns) and the app adds them as its "Sandbox demo"
// connection (src/main/app/demo.ts). Main may not import the sandbox; both may import this.
import type { AccountType } from './domain/account';

export const DEMO_CLIENT_ID = 'demo-client';
/** The demo sandbox's public demo credential (published in its fixtures; not a real secret). */
export const DEMO_CLIENT_SECRET = 'demo-secret';

export interface DemoAccount {
  accountId: string;
  name: string;
  type: AccountType;
  networkId: string | null;
}

/** The demo client's accounts: its advertisers and networks, each network's members after it. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { accountId: 'acmeshoes', name: 'Acme Shoes', type: 'ADVERTISER', networkId: null },
  { accountId: 'oldtimerltd', name: 'Old Timer Ltd', type: 'ADVERTISER', networkId: null },
  { accountId: 'northnet', name: 'North Network', type: 'NETWORK', networkId: null },
  { accountId: 'northbikes', name: 'North Bikes', type: 'ADVERTISER', networkId: 'northnet' },
  { accountId: 'northboats', name: 'North Boats', type: 'ADVERTISER', networkId: 'northnet' },
  { accountId: 'suntrailtravel', name: 'Sun Trail Travel', type: 'ADVERTISER', networkId: null },
  { accountId: 'bluepeaksoftware', name: 'Blue Peak Software', type: 'ADVERTISER', networkId: null },
  { accountId: 'freshcrumbbakery', name: 'Fresh Crumb Bakery', type: 'ADVERTISER', networkId: null },
  { accountId: 'southmedia', name: 'South Media Group', type: 'NETWORK', networkId: null },
  { accountId: 'southcafe', name: 'South Cafe', type: 'ADVERTISER', networkId: 'southmedia' },
  { accountId: 'southgym', name: 'South Gym', type: 'ADVERTISER', networkId: 'southmedia' },
];
