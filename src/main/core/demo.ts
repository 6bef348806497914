// The "Sandbox demo" connection: the built-in sandbox's demo client and the accounts it is
// granted (a network with its members), so a new user sees real campaigns at once. main may not
// import the sandbox, so the accounts are written out here; a test checks them against the
// sandbox's demo fixtures.
import type { CoreContext } from './context';

export const DEMO_PROFILE_ID = 'sandbox-demo';
export const DEMO_PROFILE_NAME = 'Sandbox demo';
export const DEMO_CLIENT_ID = 'demo-client';
/** The demo sandbox's public demo credential (published in its fixtures; not a real secret). */
export const DEMO_CLIENT_SECRET = 'demo-secret';

export interface DemoAccount {
  accountId: string;
  name: string;
  type: 'ADVERTISER' | 'NETWORK';
  networkId: string | null;
}

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

/**
 * Creates the demo profile, or points it at this run's sandbox (a new port each run), and makes
 * sure its accounts exist. Returns whether the addresses changed.
 */
export async function ensureDemoProfile(ctx: CoreContext, url: string): Promise<void> {
  const { store } = ctx;
  const fields = { name: DEMO_PROFILE_NAME, baseUrl: url, authUrl: url, pushUrl: url, clientId: DEMO_CLIENT_ID, flow: 'client_credentials' as const, redirectUri: null };
  const existing = store.profiles.get(DEMO_PROFILE_ID);
  if (!existing) store.profiles.create({ id: DEMO_PROFILE_ID, ...fields });
  else if (existing.baseUrl !== url || existing.authUrl !== url || existing.pushUrl !== url || existing.clientId !== DEMO_CLIENT_ID) {
    store.profiles.update(DEMO_PROFILE_ID, fields);
    await ctx.connections.forget(DEMO_PROFILE_ID);
  }
  await ctx.secrets.set(DEMO_PROFILE_ID, 'client_secret', DEMO_CLIENT_SECRET);
  // Networks first: members refer to them.
  const ordered = [...DEMO_ACCOUNTS].sort((a, b) => Number(a.networkId !== null) - Number(b.networkId !== null));
  for (const a of ordered) {
    const ref = { profileId: DEMO_PROFILE_ID, accountId: a.accountId };
    const current = store.accounts.get(ref);
    if (!current) {
      store.accounts.add({ ...ref, name: a.name, type: a.type, networkId: a.networkId });
    } else if (current.name !== a.name || current.type !== a.type || current.networkId !== a.networkId) {
      store.accounts.update(ref, { name: a.name, type: a.type, networkId: a.networkId });
    }
  }
}
