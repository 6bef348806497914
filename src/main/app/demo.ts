// The "Sandbox demo" connection: the built-in sandbox's demo client and the accounts it is
// granted (a network with its members, src/shared/demo-world.ts), so a new user sees real
// campaigns at once.
import { DEMO_ACCOUNTS, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET } from '../../shared/demo-world';
import type { CoreContext } from './context';

export const DEMO_PROFILE_ID = 'sandbox-demo';
export const DEMO_PROFILE_NAME = 'Sandbox demo';

/**
 * Creates the demo profile, or points it at this run's sandbox (a new port each run), and makes
 * sure its accounts exist: all but those the person removed. Nothing when the person removed the
 * demo connection itself (until restoreDemo), or when this run has no sandbox.
 */
export async function ensureDemoProfile(ctx: CoreContext): Promise<void> {
  const { store } = ctx;
  const choice = store.settings.get('demo');
  if (!ctx.demo || choice.dismissed) return;
  const { url } = ctx.demo;
  const fields = {
    name: DEMO_PROFILE_NAME,
    baseUrl: url,
    authUrl: url,
    pushUrl: url,
    clientId: DEMO_CLIENT_ID,
    flow: 'client_credentials' as const,
    redirectUri: null,
  };
  const existing = store.profiles.get(DEMO_PROFILE_ID);
  if (!existing) store.profiles.create({ id: DEMO_PROFILE_ID, ...fields });
  else if (existing.baseUrl !== url || existing.authUrl !== url || existing.pushUrl !== url || existing.clientId !== DEMO_CLIENT_ID) {
    store.profiles.update(DEMO_PROFILE_ID, fields);
    await ctx.connections.forget(DEMO_PROFILE_ID);
  }
  await ctx.secrets.set(DEMO_PROFILE_ID, 'client_secret', DEMO_CLIENT_SECRET);
  const removed = new Set(choice.removedAccounts);
  // Networks first: members refer to them. A member whose network was removed is not added again without it.
  const ordered = [...DEMO_ACCOUNTS].sort((a, b) => Number(a.networkId !== null) - Number(b.networkId !== null));
  for (const a of ordered) {
    if (removed.has(a.accountId) || (a.networkId !== null && removed.has(a.networkId))) continue;
    const ref = { profileId: DEMO_PROFILE_ID, accountId: a.accountId };
    const current = store.accounts.get(ref);
    if (!current) {
      store.accounts.add({ ...ref, name: a.name, type: a.type, networkId: a.networkId });
    } else if (current.name !== a.name || current.type !== a.type || current.networkId !== a.networkId) {
      store.accounts.update(ref, { name: a.name, type: a.type, networkId: a.networkId });
    }
  }
}

/** The person removed the demo connection, or one of its accounts: it stays removed at the next start. */
export function rememberDemoRemoval(ctx: CoreContext, what: { profileId: string; accountId?: string }): void {
  if (what.profileId !== DEMO_PROFILE_ID) return;
  const choice = ctx.store.settings.get('demo');
  if (what.accountId === undefined) ctx.store.settings.set('demo', { dismissed: true, removedAccounts: [] });
  else if (!choice.removedAccounts.includes(what.accountId)) {
    ctx.store.settings.set('demo', { ...choice, removedAccounts: [...choice.removedAccounts, what.accountId] });
  }
}

/** Whether this run can offer the demo connection, and whether the person removed any of it. */
export function demoState(ctx: CoreContext): { available: boolean; removed: boolean } {
  const choice = ctx.store.settings.get('demo');
  return { available: ctx.demo !== null, removed: choice.dismissed || choice.removedAccounts.length > 0 };
}

/** Brings the demo connection back whole: every account, with the demo secret. */
export async function restoreDemo(ctx: CoreContext): Promise<void> {
  ctx.store.settings.set('demo', { dismissed: false, removedAccounts: [] });
  await ensureDemoProfile(ctx);
}
