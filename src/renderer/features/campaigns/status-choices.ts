// The Campaigns tab's status filter: the statuses the interface shows, and every other status the
// account's campaigns hold, as the service wrote it (DECISIONS client 7): a campaign in a status the
// app has never heard of can be found by it. A status the service writes in another case than the
// interface ("approved") is offered once, in the service's spelling (the cache matches any case).
import { KNOWN_CAMPAIGN_STATUSES } from '../../../shared/domain/campaign';
import { isServiceValue } from '../../../shared/domain/service-values';

export function statusChoices(seen: readonly string[]): string[] {
  const known = KNOWN_CAMPAIGN_STATUSES.map((k) => seen.find((s) => isServiceValue(s, k)) ?? k);
  const others = [...new Set(seen)].filter((s) => s.trim() !== '' && !known.some((k) => isServiceValue(s, k))).sort();
  return [...known, ...others];
}
