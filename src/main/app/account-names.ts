// Where an account added by id gets its name. The interface has no account-details endpoint
// (spec 1.5 and 2.3: "not shown"); the one place the service names an account is a network's
// listing, where every campaign carries its owner's advertiser_name (spec 2.1, 4.2). So a name
// is taken, in this order, from: a campaign of the account's own that carries it (a network lists
// its own campaigns so); the same account already named on another connection to the same
// service; a network of that service whose cached listing holds one of the account's campaigns.
// A name the person typed is never replaced; an account nothing names keeps showing its id.
import type { Account, AccountRef, CampaignOwner, Store } from '../store';

/** How many of an account's cached campaigns are looked up in the networks' caches. */
const SAMPLE = 20;
/** How many of a network's own cached campaigns are read to find one it owns. */
const OWN_SCAN = 1000;

const serviceOf = (url: string) => url.trim().replace(/\/+$/, '').toLowerCase();
const named = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

/** The service's name for `ref`, from `sample` (some of its campaigns as listed) and what is cached. */
export function serviceName(store: Store, ref: AccountRef & { type?: string }, sample: readonly CampaignOwner[]): string | null {
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
 * After the account's refresh filled its cache: an account still without a name gets the one the
 * cached listings now give it (a network's own campaigns name the network; a network's listing
 * names its members as it is read, in the refresh itself). Returns the account when it was named.
 */
export function nameIfUnnamed(store: Store, ref: AccountRef): Account | null {
  const a = store.accounts.get(ref);
  if (!a || a.name) return null;
  const name = serviceName(store, a, store.campaigns.owners(a, a.type === 'NETWORK' ? OWN_SCAN : SAMPLE));
  // update() spreads its ref over the patch: hand it the bare ref, not the account (name null).
  return name ? store.accounts.update({ profileId: ref.profileId, accountId: ref.accountId }, { name }) : null;
}
