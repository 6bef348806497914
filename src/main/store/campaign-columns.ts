// How a campaign from the service maps to the columns of the cache and back (one place, so the
// refresh, the single-row upsert and the reads agree).
//
// Why not store the JSON text as well: on the 100,000-row refresh, JSON.stringify alone costs
// about as much as all the SQLite work for the rows, and a second copy of every row doubles what
// each page commit writes. Columns + "present" + "extra" hold the same information: the object is
// rebuilt exactly (same fields, same values; known fields first), unknown fields included.
import type { Campaign } from '../../shared/domain/campaign';

type ColumnType = 'text' | 'real' | 'json';

/** Every field of spec 2.1, in bit order of the `present` column. Append only (stored data). */
export const CAMPAIGN_FIELDS: readonly (readonly [keyof Campaign & string, ColumnType])[] = [
  ['id', 'text'],
  ['advertiser_id', 'text'],
  ['advertiser_name', 'text'],
  ['name', 'text'],
  ['branding_text', 'text'],
  ['tracking_code', 'text'],
  ['pricing_model', 'text'],
  ['cpc', 'real'],
  ['safety_rating', 'json'],
  ['daily_cap', 'real'],
  ['daily_ad_delivery_model', 'text'],
  ['spending_limit', 'real'],
  ['spending_limit_model', 'text'],
  ['bid_strategy', 'text'],
  ['marketing_objective', 'text'],
  ['campaign_group_id', 'text'],
  ['start_date', 'text'],
  ['campaign_item_type', 'text'],
  ['status', 'text'],
  ['spent', 'real'],
];
const KNOWN = new Set<string>(CAMPAIGN_FIELDS.map(([f]) => f));

/** Columns written for a campaign, in the order of campaignRowValues; the first three are the key. */
export const CAMPAIGN_KEY_COLUMNS = ['account_key', 'id_num', 'id'] as const;
export const CAMPAIGN_WRITE_COLUMNS = [
  'account_key',
  'id_num',
  ...CAMPAIGN_FIELDS.map(([f]) => f),
  'present',
  'extra',
  'search',
  // The digest of the listed bytes the row was made from (record-digest.ts); null when it came
  // from anything else. Written with the row, so it never outlives the content it stands for.
  'raw_digest',
] as const;

/** Above every id of up to 15 digits (999,999,999,999,999 at most), which a double holds exactly. */
export const LONG_ID_KEY = 1_000_000_000_000_000;

/**
 * Sort key of an id (the key column id_num, followed by the id itself): its numeric value when it
 * is an integer of up to 15 digits (ids arrive as digits, and "9" must come before "10");
 * LONG_ID_KEY + its length for a longer one (ids beyond 2^53 are not JS numbers: they sort after
 * every shorter id, and among those of one length by their text, which for digits is their
 * value); -1 otherwise, so non-numeric ids sort first and then by text.
 */
export function idSortKey(id: string): number {
  if (/^\d{1,15}$/.test(id)) return Number(id);
  return /^\d+$/.test(id) ? LONG_ID_KEY + id.length : -1;
}

/** Between the fields of a search text: a control character no search word holds (campaign-query.ts, textFilter). */
export const SEARCH_FIELD_SEPARATOR = '\u0001';

/**
 * Lower-cased text searched by the quick filter: id, name and branding, separated by a control
 * character so a query cannot match across two fields. Lower-cased in JS (Unicode-aware), and the
 * query is lower-cased the same way.
 */
export function searchText(c: Pick<Campaign, 'id' | 'name' | 'branding_text'>): string {
  const branding = typeof c.branding_text === 'string' ? c.branding_text : '';
  return `${c.id}${SEARCH_FIELD_SEPARATOR}${c.name}${SEARCH_FIELD_SEPARATOR}${branding}`.toLowerCase();
}

export function normalizeNeedle(text: string): string {
  return text.trim().toLowerCase();
}

function fits(type: ColumnType, v: unknown): boolean {
  if (v === null) return true;
  if (type === 'text') return typeof v === 'string';
  if (type === 'real') return typeof v === 'number' && Number.isFinite(v);
  return true;
}

const FIELD_NAMES = CAMPAIGN_FIELDS.map(([f]) => f);
const FIELD_TYPES = CAMPAIGN_FIELDS.map(([, t]) => t);
const FIELD_COUNT = CAMPAIGN_FIELDS.length;
const ROW_WIDTH = CAMPAIGN_WRITE_COLUMNS.length;

interface RowBuild {
  values: unknown[];
  extra: Record<string, unknown> | null;
}

/** Stores field `i` of CAMPAIGN_FIELDS; returns its bit of `present` (0 when absent). */
function put(b: RowBuild, i: number, v: unknown): number {
  if (v === undefined) {
    b.values[i + 2] = null;
    return 0;
  }
  const type = FIELD_TYPES[i];
  if (!fits(type, v)) {
    // A value of an unexpected type is kept verbatim in extra (it wins when rebuilding).
    b.values[i + 2] = null;
    (b.extra ??= {})[FIELD_NAMES[i]] = v;
  } else b.values[i + 2] = type === 'json' && v !== null ? JSON.stringify(v) : v;
  return 1 << i;
}

/**
 * Positional values for CAMPAIGN_WRITE_COLUMNS of a campaign of the account `accountKey`. This runs for every row of every refresh (100,000
 * times for a large account). The fields are read by name, one explicit read each, in the order of
 * CAMPAIGN_FIELDS (a test checks the order): a loop reading `record[field]` from the list was four
 * times slower, and the unknown-field pass is skipped when the object has no other keys.
 */
export function campaignRowValues(accountKey: number, c: Campaign, rawDigest: string | null = null): unknown[] {
  const b: RowBuild = { values: new Array(ROW_WIDTH), extra: null };
  const present =
    put(b, 0, c.id) |
    put(b, 1, c.advertiser_id) |
    put(b, 2, c.advertiser_name) |
    put(b, 3, c.name) |
    put(b, 4, c.branding_text) |
    put(b, 5, c.tracking_code) |
    put(b, 6, c.pricing_model) |
    put(b, 7, c.cpc) |
    put(b, 8, c.safety_rating) |
    put(b, 9, c.daily_cap) |
    put(b, 10, c.daily_ad_delivery_model) |
    put(b, 11, c.spending_limit) |
    put(b, 12, c.spending_limit_model) |
    put(b, 13, c.bid_strategy) |
    put(b, 14, c.marketing_objective) |
    put(b, 15, c.campaign_group_id) |
    put(b, 16, c.start_date) |
    put(b, 17, c.campaign_item_type) |
    put(b, 18, c.status) |
    put(b, 19, c.spent);
  let known = 0;
  for (let bits = present; bits !== 0; bits &= bits - 1) known++;
  const record = c as Record<string, unknown>;
  let keys = 0;
  for (const key in record) {
    if (record[key] !== undefined && ++keys > known) break;
  }
  if (keys > known) {
    for (const key in record) {
      if (!KNOWN.has(key) && record[key] !== undefined) (b.extra ??= {})[key] = record[key];
    }
  }
  b.values[0] = accountKey;
  b.values[1] = idSortKey(c.id);
  b.values[FIELD_COUNT + 2] = present;
  b.values[FIELD_COUNT + 3] = b.extra === null ? null : JSON.stringify(b.extra);
  b.values[FIELD_COUNT + 4] = searchText(c);
  b.values[FIELD_COUNT + 5] = rawDigest;
  return b.values;
}

/** The object as the service sent it, from a row holding CAMPAIGN_FIELDS, present and extra. */
export function campaignFromRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const present = Number(row.present);
  for (let i = 0; i < CAMPAIGN_FIELDS.length; i++) {
    if ((present & (1 << i)) === 0) continue;
    const [field, type] = CAMPAIGN_FIELDS[i];
    const v = row[field];
    out[field] = type === 'json' && typeof v === 'string' ? JSON.parse(v) : v;
  }
  if (typeof row.extra === 'string') Object.assign(out, JSON.parse(row.extra));
  return out;
}
