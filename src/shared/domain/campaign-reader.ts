// A listed campaign read by the same field rules as campaignSchema (campaign.ts), without zod's
// machinery: a refresh reads every record of an account through this, and at 100,000 campaigns
// zod's object parse took ~1.2 s of the main thread (and much of the garbage collector's ~1.7 s)
// where these plain functions take a fraction of it. The rules themselves are the functions the
// schema's fields are made of (service-id.ts, service-dates.ts); the field list is checked against
// campaignSchema's own by test/shared/domain/campaign-reader.test.ts, which also compares the two
// readers' results over generated records with every odd value a service may write.
//
// For values JSON.parse makes (plain objects, arrays, strings, numbers, booleans, null: a member
// is there exactly when reading it gives something other than undefined). Anything else (a
// campaign built in code) goes through campaignSchema itself.
import type { Campaign } from './campaign';
import * as dates from './service-dates';
import * as ids from './service-id';

// Bound once here: these run for every field of every listed record, and a module's export read
// through its namespace at each call (as a CommonJS build of this file does) cost ~30 ms per
// 100,000 records in a refresh's profile.
const { readServiceDateTime } = dates;
const { readLenientNumber, readLenientText, readServiceId } = ids;

/** campaignSchema's fields after the id, in its order (readListedCampaign reads them in this order). */
export const CAMPAIGN_LISTED_FIELDS = [
  'advertiser_id',
  'advertiser_name',
  'name',
  'branding_text',
  'tracking_code',
  'pricing_model',
  'cpc',
  'safety_rating',
  'daily_cap',
  'daily_ad_delivery_model',
  'spending_limit',
  'spending_limit_model',
  'bid_strategy',
  'marketing_objective',
  'campaign_group_id',
  'start_date',
  'campaign_item_type',
  'status',
  'spent',
] as const;

const KNOWN = new Set<string>(CAMPAIGN_LISTED_FIELDS);

/**
 * The campaign a parsed JSON value holds, as campaignSchema.safeParse would give it, or null where
 * that refuses it (not an object, or no id the service could have written).
 *
 * Each field is read by name, one explicit line each, in CAMPAIGN_LISTED_FIELDS' order: a loop
 * over a table of (name, rule) pairs took ~4.5 µs a record, this ~1.3 µs, and every campaign it
 * makes has the same shape, so the cache's campaignRowValues reading them went from ~2.9 to ~1.0 µs
 * (`npx tsx` of a throwaway loop over 100,000 bench records in chunks of 120, load ~4).
 */
export function readListedCampaign(value: unknown): Campaign | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const r = value as Record<string, unknown>;
  const id = readServiceId(r.id);
  if (id === undefined) return null;
  // Known fields first, in the schema's order (as zod writes them), then the others as they came.
  const out: Record<string, unknown> = { id };
  /** Members of the record read as known fields (the id's included). */
  let known = 1;
  let v: unknown;
  if ((v = r.advertiser_id) !== undefined) {
    out.advertiser_id = readLenientText(v);
    known++;
  }
  if ((v = r.advertiser_name) !== undefined) {
    out.advertiser_name = readLenientText(v);
    known++;
  }
  // Required text: "" when missing or unusable, present or not.
  if ((v = r.name) !== undefined) {
    out.name = readLenientText(v) ?? '';
    known++;
  } else out.name = '';
  if ((v = r.branding_text) !== undefined) {
    out.branding_text = readLenientText(v);
    known++;
  }
  if ((v = r.tracking_code) !== undefined) {
    out.tracking_code = readLenientText(v);
    known++;
  }
  if ((v = r.pricing_model) !== undefined) {
    out.pricing_model = readLenientText(v);
    known++;
  }
  if ((v = r.cpc) !== undefined) {
    out.cpc = readLenientNumber(v);
    known++;
  }
  if ((v = r.safety_rating) !== undefined) {
    out.safety_rating = v;
    known++;
  }
  if ((v = r.daily_cap) !== undefined) {
    out.daily_cap = readLenientNumber(v);
    known++;
  }
  if ((v = r.daily_ad_delivery_model) !== undefined) {
    out.daily_ad_delivery_model = readLenientText(v);
    known++;
  }
  if ((v = r.spending_limit) !== undefined) {
    out.spending_limit = readLenientNumber(v);
    known++;
  }
  if ((v = r.spending_limit_model) !== undefined) {
    out.spending_limit_model = readLenientText(v);
    known++;
  }
  if ((v = r.bid_strategy) !== undefined) {
    out.bid_strategy = readLenientText(v);
    known++;
  }
  if ((v = r.marketing_objective) !== undefined) {
    out.marketing_objective = readLenientText(v);
    known++;
  }
  if ((v = r.campaign_group_id) !== undefined) {
    out.campaign_group_id = readLenientText(v);
    known++;
  }
  if ((v = r.start_date) !== undefined) {
    out.start_date = readServiceDateTime(v);
    known++;
  }
  if ((v = r.campaign_item_type) !== undefined) {
    out.campaign_item_type = readLenientText(v);
    known++;
  }
  if ((v = r.status) !== undefined) {
    out.status = readLenientText(v);
    known++;
  }
  if ((v = r.spent) !== undefined) {
    out.spent = readLenientNumber(v);
    known++;
  }
  // Members it does not know are looked for only when the record has more members than it read.
  let members = 0;
  for (const _ in r) if (++members > known) break;
  if (members > known) {
    for (const key of Object.keys(r)) {
      // A member named __proto__ is dropped (zod drops it too, or makes it the prototype): no field has that name.
      if (key !== 'id' && key !== '__proto__' && !KNOWN.has(key)) out[key] = r[key];
    }
  }
  return out as Campaign;
}
