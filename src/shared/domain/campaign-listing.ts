// The list endpoint's query (spec 4.2), written once: the sandbox parses what it receives with
// these rules (strictly, so that a client sending something the real service might read
// differently finds out), and the client checks what it is about to send with the same parser.
import { MAX_PAGE_SIZE, SORTABLE_CAMPAIGN_FIELDS, type FetchLevel } from './campaign';

export interface ListQuery {
  fetchLevel: FetchLevel;
  /** Ids asked for, as digits without leading zeros (any length: ids are not JS numbers). */
  ids?: ReadonlySet<string>;
  page?: number;
  pageSize?: number;
  sort?: { field: string; descending: boolean };
}

const KNOWN_PARAMS = new Set(['fetch_level', 'campaign_ids', 'page', 'page_size', 'sort']);
const SORTABLE = new Set<string>(SORTABLE_CAMPAIGN_FIELDS);

/** Names from the query end up in messages; keep those short. */
const shown = (s: string): string => (s.length > 100 ? `${s.slice(0, 100)}...` : s);

/** The parsed query, or the message of the 400 it earns. */
export function parseListQuery(q: URLSearchParams): ListQuery | string {
  for (const key of new Set(q.keys())) {
    if (!KNOWN_PARAMS.has(key)) return `Unknown parameter ${shown(key)}`;
    if (key !== 'campaign_ids' && q.getAll(key).length > 1) return `Filter ${key} must not be repeated`;
  }
  // fetch_level omitted is R (DECISIONS sandbox 2).
  const out: ListQuery = { fetchLevel: 'R' };
  const level = q.get('fetch_level');
  if (level !== null) {
    if (level !== 'R' && level !== 'RAP') return 'fetch_level must be R or RAP';
    out.fetchLevel = level;
  }
  const ids = q.getAll('campaign_ids');
  if (ids.length > 0) {
    if (!ids.every((id) => /^\d{1,40}$/.test(id))) return 'campaign_ids must be numeric';
    out.ids = new Set(ids.map((id) => id.replace(/^0+(?=\d)/, '')));
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
