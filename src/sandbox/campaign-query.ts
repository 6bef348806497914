// The selection a list request describes (its query is parsed by src/shared/domain/campaign-listing.ts).
import type { FetchLevel } from '../shared/domain/campaign';
import type { StoredCampaign } from './records';
import { byId } from './state';

const RECENT_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The name of the account that owns a listed campaign (by its accountId): a listing sorts and
 * writes the stored campaigns themselves, not a wrapper naming their owner too (a million of those
 * made before the first byte of an answer took ~130 ms of its ~220 ms).
 */
export type OwnerNames = (accountId: string) => string | undefined;

/** DECISIONS sandbox 2: recent = created within 30 days or APPROVED; R hides PAUSED; TERMINATED never. */
export function isListed(c: StoredCampaign, level: FetchLevel, now: number): boolean {
  const status = c.record.status;
  if (status === 'TERMINATED') return false;
  if (level === 'R' && status === 'PAUSED') return false;
  return status === 'APPROVED' || now - c.createdAtMs <= RECENT_MS;
}

type SortValue = number | bigint | string | null;

function sortValue(x: StoredCampaign, field: string, ownerName: OwnerNames): SortValue {
  if (field === 'advertiser_name') return ownerName(x.accountId) ?? null;
  const v = (x.record as unknown as Record<string, unknown>)[field];
  if (field === 'start_date' && typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? v : t;
  }
  return typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' ? v : null;
}

/** Whether the items are already in the comparator's order (one pass). */
function inOrder(items: readonly StoredCampaign[], cmp: (a: StoredCampaign, b: StoredCampaign) => number): boolean {
  for (let i = 1; i < items.length; i++) if (cmp(items[i - 1], items[i]) > 0) return false;
  return true;
}

/** Nulls go last in either direction; ties keep id order so that pages are stable. */
export function sortListed(items: StoredCampaign[], field: string, descending: boolean, ownerName: OwnerNames): void {
  if (field === 'id') {
    // Ids are unique bigints, and the listing holds them in id order already (unless a variant
    // handed out ids out of order): at a million campaigns the general comparator took ~0.7 s
    // before the first byte of an answer sorted by id, the order the client asks for.
    const up = (a: StoredCampaign, b: StoredCampaign) => byId(a.record.id, b.record.id);
    if (!inOrder(items, up)) items.sort(up);
    if (descending) items.reverse();
    return;
  }
  items.sort((a, b) => {
    const va = sortValue(a, field, ownerName);
    const vb = sortValue(b, field, ownerName);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else if (va !== vb) {
      const cmp =
        typeof va === 'bigint' && typeof vb === 'bigint'
          ? byId(va, vb)
          : typeof va === 'number' && typeof vb === 'number'
            ? va - vb
            : String(va) < String(vb)
              ? -1
              : 1;
      return descending ? -cmp : cmp;
    }
    return byId(a.record.id, b.record.id);
  });
}
