// The list endpoint's query (spec 4.2), parsed strictly so that a client sending something the
// real service might read differently finds out here, and the selection it describes.
import {
  MAX_PAGE_SIZE,
  SORTABLE_CAMPAIGN_FIELDS,
  type FetchLevel,
} from '../shared/domain/campaign';
import type { StoredCampaign } from './records';
import type { AccountRec } from './state';

export interface ListQuery {
  fetchLevel: FetchLevel;
  ids?: ReadonlySet<number>;
  page?: number;
  pageSize?: number;
  sort?: { field: string; descending: boolean };
}

const KNOWN_PARAMS = new Set(['fetch_level', 'campaign_ids', 'page', 'page_size', 'sort']);
const SORTABLE = new Set<string>(SORTABLE_CAMPAIGN_FIELDS);
const RECENT_MS = 30 * 24 * 60 * 60 * 1000;

/** Names from the query end up in messages; keep those short. */
const shown = (s: string): string => (s.length > 100 ? `${s.slice(0, 100)}...` : s);

/** The parsed query, or the message of the 400 it earns. */
export function parseListQuery(q: URLSearchParams): ListQuery | string {
  for (const key of new Set(q.keys())) {
    if (!KNOWN_PARAMS.has(key)) return `Unknown parameter ${shown(key)}`;
    if (key !== 'campaign_ids' && q.getAll(key).length > 1) return `Filter ${key} must not be repeated`;
  }
  const out: ListQuery = { fetchLevel: 'R' };
  const level = q.get('fetch_level');
  if (level !== null) {
    if (level !== 'R' && level !== 'RAP') return 'fetch_level must be R or RAP';
    out.fetchLevel = level;
  }
  const ids = q.getAll('campaign_ids');
  if (ids.length > 0) {
    if (!ids.every((id) => /^\d{1,15}$/.test(id))) return 'campaign_ids must be numeric';
    out.ids = new Set(ids.map(Number));
  }
  const page = q.get('page');
  const pageSize = q.get('page_size');
  if ((page === null) !== (pageSize === null)) return 'page and page_size must be sent together';
  if (page !== null && pageSize !== null) {
    if (!/^\d{1,9}$/.test(page) || Number(page) < 1) return 'page must be an integer of at least 1';
    if (!/^\d{1,9}$/.test(pageSize) || Number(pageSize) < 1 || Number(pageSize) > MAX_PAGE_SIZE) {
      return `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}`;
    }
    out.page = Number(page);
    out.pageSize = Number(pageSize);
  }
  const sort = q.get('sort');
  if (sort !== null) {
    const parts = sort.split(',');
    if (parts.length !== 2 || parts[0] === '') return 'sort must be field,asc or field,desc';
    const [field, direction] = parts;
    if (!SORTABLE.has(field)) return `Sorting by ${shown(field)} is not supported`;
    if (direction !== 'asc' && direction !== 'desc') return 'Sort direction must be asc or desc';
    out.sort = { field, descending: direction === 'desc' };
  }
  return out;
}

export interface Listed {
  campaign: StoredCampaign;
  owner: AccountRec;
}

/** DECISIONS sandbox 2: recent = created within 30 days or APPROVED; R hides PAUSED; TERMINATED never. */
export function isListed(c: StoredCampaign, level: FetchLevel, now: number): boolean {
  const status = c.record.status;
  if (status === 'TERMINATED') return false;
  if (level === 'R' && status === 'PAUSED') return false;
  return status === 'APPROVED' || now - c.createdAtMs <= RECENT_MS;
}

type SortValue = number | string | null;

function sortValue(x: Listed, field: string): SortValue {
  if (field === 'advertiser_name') return x.owner.name;
  const v = (x.campaign.record as unknown as Record<string, unknown>)[field];
  if (field === 'start_date' && typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? v : t;
  }
  return typeof v === 'number' || typeof v === 'string' ? v : null;
}

/** Nulls go last in either direction; ties keep id order so that pages are stable. */
export function sortListed(items: Listed[], field: string, descending: boolean): void {
  items.sort((a, b) => {
    const va = sortValue(a, field);
    const vb = sortValue(b, field);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else if (va !== vb) {
      const cmp = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va) < String(vb) ? -1 : 1;
      return descending ? -cmp : cmp;
    }
    return a.campaign.record.id - b.campaign.record.id;
  });
}
