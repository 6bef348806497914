// Where an account added by id gets its name. The interface has no account-details endpoint
// (spec 1.5 and 2.3: "not shown"); the one place the service names an account is a network's
// listing, where every campaign carries its owner's advertiser_name (spec 2.1, 4.2). So a name
// is taken, in this order, from: a campaign of the account's own that carries it (a network lists
// its own campaigns so); the same account already named on another connection to the same
// service; a network of that service whose cached listing holds one of the account's campaigns.
// A name the person typed is never replaced; an account nothing names keeps showing its id.
import type { Campaign } from '../../shared/domain/campaign';
import type { Account, AccountRef, Store } from '../store';

/** How many of an account's cached campaigns are looked up in the networks' caches. */
const SAMPLE = 20;
/** How many of a network's own cached campaigns are read to find one it owns. */
const OWN_SCAN = 1000;


const serviceOf = (url: string) => url.trim().replace(/\/+$/, '').toLowerCase();
const named = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/** The service's name for `ref`, from `sample` (some of its campaigns as listed) and what is cached. */
export function serviceName(store: Store, ref: AccountRef & { type?: string }, sample: readonly Campaign[]): string | null {
  const own = sample.find((c) => c.advertiser_id === ref.accountId && named(c.advertiser_name));
  if (own) return own.advertiser_name!.trim();
  const profile = store.profiles.get(ref.profileId);
  if (!profile) return null;
  const service = serviceOf(profile.baseUrl);
  const siblings = store.profiles.list().filter((p) => serviceOf(p.baseUrl) === service);
  for (const p of siblings) {
    if (p.id === ref.profileId) continue;
    const same = store.accounts.get({ profileId: p.id, accountId: ref.accountId });
    if (same?.name) return same.name;
  }
  // A network is no network's member: no other listing names it (and reading every account of a
  // connection with thousands of members for nothing held the window after each of its refreshes).
  if (ref.type === 'NETWORK') return null;
  for (const p of siblings) {
    for (const net of store.accounts.list(p.id)) {
      if (net.type !== 'NETWORK' || net.accountId === ref.accountId) continue;
      for (const c of sample) {
        const listed = store.campaigns.get(net, c.id);
        if (listed?.advertiser_id === ref.accountId && named(listed.advertiser_name)) return listed.advertiser_name.trim();
      }
    }
  }
  return null;
}

/**
 * After a refresh filled the caches: every account of the connection still without a name gets
 * the one the cached listings now give it (a network's own campaigns name the network; a network
 * added after its member names the member). Returns the accounts that were named.
 */
export function nameUnnamedAccounts(store: Store, profileId: string, opts: { only?: string } = {}): Account[] {
  const out: Account[] = [];
  // Each look reads cached campaigns (a thousand for a network): after one account's refresh,
  // only that account is looked at (not read among a network's thousands of members).
  const only = opts.only === undefined ? undefined : store.accounts.get({ profileId, accountId: opts.only });
  for (const a of opts.only === undefined ? store.accounts.list(profileId) : only ? [only] : []) {
    if (a.name) continue;
    const limit = a.type === 'NETWORK' ? OWN_SCAN : SAMPLE;
    const sample = store.campaigns.query({ profileId, accountId: a.accountId, limit }).rows;
    const name = serviceName(store, a, sample);
    // update() spreads its ref over the patch: hand it the bare ref, not the account (name null).
    if (name) out.push(store.accounts.update({ profileId, accountId: a.accountId }, { name }));
  }
  return out;
}
