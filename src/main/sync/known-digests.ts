// Which records of a streamed listing the cache already holds, by the digest of their bytes
// (record-digest.ts): those are not parsed or written again. Not for a network: its rows go to
// its members' caches. A listing in id order is compared with the cached rows walked in the same
// order (store/digest-walk.ts); one in the service's own order (the sort refused) with every cached
// digest of the account.
import type { Account, CampaignRefresh, DigestWalk } from '../store';

export class KnownDigests {
  /** The walk of the listing asked last, when it was asked in id order. */
  walk: DigestWalk | null = null;

  constructor(
    private readonly account: Account,
    private readonly refreshes: ReadonlyMap<string, CampaignRefresh>,
  ) {}

  /** The look-up for a listing asked with `sort` (undefined: the service's own order). */
  for(sort: unknown): ((digest: string) => string | undefined) | undefined {
    this.walk = null;
    const { accountId } = this.account;
    if (this.account.type === 'NETWORK') return undefined;
    if (!sort) return (digest) => this.refreshes.get(accountId)?.known(digest);
    // The walk belongs to the refresh it began with: a reading after one that did not add up is a
    // refresh of its own, which took over rows still on their way and says nothing is known.
    const r = this.refreshes.get(accountId)!;
    const w = (this.walk = r.walk());
    return (digest) => (this.refreshes.get(accountId) === r ? w.known(digest) : undefined);
  }
}
