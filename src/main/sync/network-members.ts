// A network's listing names the owner of each campaign, so one listing fills the caches of its
// member accounts too: each batch is split by owner, and members first seen are added to the
// profile (named as the listing names them).
import type { Campaign } from '../../shared/domain/campaign';
import type { Account, CampaignRefresh } from '../store';
import type { RefreshDeps } from './refresh';

/** The network's batch and, grouped by owner, its members' (members first seen are added). */
export function networkParts(
  deps: Pick<RefreshDeps, 'store' | 'hub'>,
  account: Account,
  campaigns: readonly Campaign[],
  refreshes: Map<string, CampaignRefresh>,
  skipped: Set<string>,
) {
  const { store, hub } = deps;
  const parts = [{ refresh: refreshes.get(account.accountId)!, campaigns }];
  let added = false;
  const byOwner = new Map<string, Campaign[]>();
  for (const c of campaigns) {
    const owner = c.advertiser_id;
    if (!owner || owner === account.accountId || !/^[A-Za-z]+$/.test(owner)) continue;
    let list = byOwner.get(owner);
    if (!list) byOwner.set(owner, (list = []));
    list.push(c);
  }
  // Members first seen in this chunk are added in one transaction (a chunk of a large network's
  // listing names a hundred new ones), without an fsync: the listing names them again. The
  // listing is where the service names an account (account-names.ts): a member still shown by
  // its id, added before its network, takes that name too (never replacing one it has).
  store.refetchableTransaction(() => {
    for (const [owner, list] of byOwner) {
      if (skipped.has(owner) || refreshes.has(owner)) continue;
      const ref = { profileId: account.profileId, accountId: owner };
      const listedName = list.find((c) => c.advertiser_name?.trim())?.advertiser_name?.trim() ?? null;
      const known = store.accounts.get(ref);
      if (!known) store.accounts.add({ ...ref, name: listedName, type: 'ADVERTISER', networkId: account.accountId });
      else if (!known.name && listedName) store.accounts.update(ref, { name: listedName });
      else continue;
      added = true;
    }
  });
  for (const [owner, list] of byOwner) {
    if (skipped.has(owner)) continue;
    let r = refreshes.get(owner);
    if (!r) {
      const ref = { profileId: account.profileId, accountId: owner };
      // Listed under two networks? keep the member's own view as it is.
      if (store.accounts.get(ref)?.networkId !== account.accountId) continue;
      r = store.campaigns.beginRefresh(ref);
      refreshes.set(owner, r);
    }
    if (r.superseded) {
      // A member refreshed on its own meanwhile: its newer refresh wins, the network's goes on.
      refreshes.delete(owner);
      skipped.add(owner);
      continue;
    }
    parts.push({ refresh: r, campaigns: list });
  }
  // One notice however many members this batch brought in (each makes the window re-read its tree).
  if (added) hub.emit('data.changed', { profileId: account.profileId, accountId: null, what: 'accounts' });
  return parts;
}
