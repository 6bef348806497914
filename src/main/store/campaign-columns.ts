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

/** Columns written for a campaign, in the order of campaignRowValues (the table is the account). */
export const CAMPAIGN_WRITE_COLUMNS = [
  'id_num',
  ...CAMPAIGN_FIELDS.map(([f]) => f),
  'present',
  'extra',
  'search',
] as const;

/** Columns an update may change (the key stays). */
export const CAMPAIGN_UPDATE_COLUMNS = CAMPAIGN_WRITE_COLUMNS.filter((c) => !['id_num', 'id'].includes(c));

/**
 * Sort key of an id: its numeric value when it is a plain integer (ids arrive as digits, and
 * "9" must come before "10"), otherwise -1 so non-numeric ids sort first and then by text.
 */
export function idSortKey(id: string): number {
  return /^\d{1,15}$/.test(id) ? Number(id) : -1;
}

/**
 * Lower-cased text searched by the quick filter: id, name and branding, separated by a control
 * character so a query cannot match across two fields. Lower-cased in JS (Unicode-aware), and the
 * query is lower-cased the same way.
 */
export function searchText(c: Pick<Campaign, 'id' | 'name' | 'branding_text'>): string {
  const branding = typeof c.branding_text === 'string' ? c.branding_text : '';
  return `${c.id}\u0001${c.name}\u0001${branding}`.toLowerCase();
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

/** Positional values for CAMPAIGN_WRITE_COLUMNS. */
export function campaignRowValues(c: Campaign): unknown[] {
  const values: unknown[] = [idSortKey(c.id)];
  let present = 0;
  let extra: Record<string, unknown> | null = null;
  const record = c as Record<string, unknown>;
  for (let i = 0; i < CAMPAIGN_FIELDS.length; i++) {
    const [field, type] = CAMPAIGN_FIELDS[i];
    const v = record[field];
    if (v === undefined) {
      values.push(null);
      continue;
    }
    present |= 1 << i;
    if (!fits(type, v)) {
      // A value of an unexpected type is kept verbatim in extra (it wins when rebuilding).
      values.push(null);
      (extra ??= {})[field] = v;
    } else values.push(type === 'json' && v !== null ? JSON.stringify(v) : v);
  }
  for (const key in record) {
    if (!KNOWN.has(key) && record[key] !== undefined) (extra ??= {})[key] = record[key];
  }
  values.push(present, extra === null ? null : JSON.stringify(extra), searchText(c));
  return values;
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
