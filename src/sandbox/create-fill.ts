// The fill_on_create variant: a real service may fill in fields a create did not send and
// normalise the ones it did (spec 2.1 says the create response "contains further fields"). The
// client must never rely on getting back exactly what it sent (DECISIONS client 8).
import type { CampaignCreate } from '../shared/domain/campaign';

/** What a create without marketing_objective gets under fill_on_create. */
export const DEFAULT_MARKETING_OBJECTIVE = 'DRIVE_WEBSITE_TRAFFIC';
/** What a create without spending_limit_model (and without a campaign group) gets. */
export const DEFAULT_SPENDING_LIMIT_MODEL = 'MONTHLY';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Before the body's types are checked: a missing marketing_objective is filled in. */
export function fillMissingObjective(body: unknown): unknown {
  if (!isPlainObject(body) || Object.hasOwn(body, 'marketing_objective')) return body;
  return { ...body, marketing_objective: DEFAULT_MARKETING_OBJECTIVE };
}

/** Money with cents: rounds the value as stored in binary (0.125 -> 0.13, 1.005 -> 1 since it is 1.00499...). */
const cents = (n: number): number => Number(n.toFixed(2));
const centsOrNull = <T extends number | null | undefined>(n: T): T => (typeof n === 'number' ? (cents(n) as T) : n);

/**
 * What the service makes of the values it was sent (already found valid): the name without outer
 * whitespace, cpc and money rounded to cents, and start_date as UTC with milliseconds. The rules
 * judge the result again, so a cpc of 0.001 (stored as 0) is refused as not greater than 0.
 */
export function normaliseCreate(c: CampaignCreate): CampaignCreate {
  const out: CampaignCreate = {
    ...c,
    name: c.name.trim(),
    cpc: centsOrNull(c.cpc),
    daily_cap: centsOrNull(c.daily_cap),
    spending_limit: centsOrNull(c.spending_limit),
  };
  if (c.start_date !== undefined) {
    const ms = Date.parse(c.start_date);
    if (!Number.isNaN(ms)) out.start_date = new Date(ms).toISOString();
  }
  for (const key of ['cpc', 'daily_cap', 'spending_limit'] as const) if (c[key] === undefined) delete out[key];
  return out;
}
