// Values of the extendable create fields that the app does not know: neither shown by the interface
// nor seen in the account's campaigns. They stay accepted (the interface says other values exist,
// DECISIONS client 7), but a person who typed "WEEKLY" for "MONTHLY" must hear about it before the
// draft is queued, with the nearest value the app knows offered in its place.
import { OPEN_CREATE_ENUMS, OPEN_CREATE_ENUM_FIELDS, type OpenCreateEnum } from '../../shared/domain/campaign';
import type { CampaignPayload, SeenValues } from './campaign-form';

export interface UnknownValue {
  field: OpenCreateEnum;
  value: string;
  /** The value the interface shows that is spelled most like it. */
  nearest: string;
}

/** Edits needed to turn a into b (Levenshtein), for "nearest" by spelling. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
}

/** The known value of `field` closest in spelling to `value`; the first of the spec's on a tie. */
export function nearestKnown(field: OpenCreateEnum, value: string): string {
  const known: readonly string[] = OPEN_CREATE_ENUMS[field];
  const v = value.toUpperCase();
  return known.reduce((best, k) => (distance(v, k) < distance(v, best) ? k : best), known[0]);
}

/** The payload's values that the interface does not show and the account's campaigns do not use. */
export function unknownValues(p: CampaignPayload, seen: SeenValues = {}): UnknownValue[] {
  const out: UnknownValue[] = [];
  for (const field of OPEN_CREATE_ENUM_FIELDS) {
    const value = p[field];
    if (typeof value !== 'string' || value === '') continue;
    const known: readonly string[] = OPEN_CREATE_ENUMS[field];
    // Compared case-insensitively, as the service's enums are (DECISIONS client 18).
    if (known.includes(value.toUpperCase()) || (seen[field] ?? []).includes(value)) continue;
    out.push({ field, value, nearest: nearestKnown(field, value) });
  }
  return out;
}
