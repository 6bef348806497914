// A listed campaign read by the same field rules as campaignSchema (campaign.ts), without zod's
// machinery: a refresh reads every record of an account through this, and at 100,000 campaigns
// zod's object parse took ~1.2 s of the main thread (and much of the garbage collector's ~1.7 s)
// where these plain functions take a fraction of it. The rules themselves are the functions the
// schema's fields are made of (service-id.ts, service-dates.ts); the field list is checked against
// campaignSchema's own by test/shared/domain/campaign-reader.test.ts, which also compares the two
// readers' results over generated records with every odd value a service may write.
//
// For values JSON.parse makes (plain objects, arrays, strings, numbers, booleans, null). Anything
// else (a campaign built in code) goes through campaignSchema itself.
import type { Campaign } from './campaign';
import { readServiceDateTime } from './service-dates';
import { readLenientNumber, readLenientText, readServiceId } from './service-id';

type FieldRule = (value: unknown) => unknown;

/** campaignSchema's fields after the id, each with the rule its schema applies. */
export const CAMPAIGN_FIELD_RULES: readonly (readonly [string, FieldRule])[] = [
  ['advertiser_id', readLenientText],
  ['advertiser_name', readLenientText],
  // Required text: "" when missing or unusable, present or not.
  ['name', (v) => readLenientText(v) ?? ''],
  ['branding_text', readLenientText],
  ['tracking_code', readLenientText],
  ['pricing_model', readLenientText],
  ['cpc', readLenientNumber],
  ['safety_rating', (v) => v],
  ['daily_cap', readLenientNumber],
  ['daily_ad_delivery_model', readLenientText],
  ['spending_limit', readLenientNumber],
  ['spending_limit_model', readLenientText],
  ['bid_strategy', readLenientText],
  ['marketing_objective', readLenientText],
  ['campaign_group_id', readLenientText],
  ['start_date', readServiceDateTime],
  ['campaign_item_type', readLenientText],
  ['status', readLenientText],
  ['spent', readLenientNumber],
];

const RULES = new Map<string, FieldRule>(CAMPAIGN_FIELD_RULES);
const REQUIRED_TEXT = 'name';

/**
 * The campaign a parsed JSON value holds, as campaignSchema.safeParse would give it, or null where
 * that refuses it (not an object, or no id the service could have written).
 */
export function readListedCampaign(value: unknown): Campaign | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const id = readServiceId(record.id);
  if (id === undefined) return null;
  // Known fields first, in the schema's order (as zod writes them), then the others as they came.
  const out: Record<string, unknown> = { id };
  for (const [key, rule] of CAMPAIGN_FIELD_RULES) {
    if (Object.hasOwn(record, key)) out[key] = rule(record[key]);
    else if (key === REQUIRED_TEXT) out[key] = '';
  }
  for (const key of Object.keys(record)) {
    // A member named __proto__ is dropped (zod drops it too, or makes it the prototype): no field has that name.
    if (key !== 'id' && key !== '__proto__' && !RULES.has(key)) out[key] = record[key];
  }
  return out as Campaign;
}
