// What each targeting attribute accepts, checked as the chip is typed: ISO 3166-1 alpha-2 country
// codes and ISO 639-1 language codes (named through Intl.DisplayNames, so "usa" or "english" are
// refused with the code to use instead), numeric ids for regions, OS and browsers.
import type { ChipAttribute } from './push-form';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** Region codes the name list knows that are not countries of ISO 3166-1. */
const NOT_COUNTRIES: ReadonlySet<string> = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);

export function countryName(code: string): string | null {
  const c = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(c) || NOT_COUNTRIES.has(c)) return null;
  return regionNames.of(c) ?? null;
}

export function languageName(code: string): string | null {
  const c = code.trim().toLowerCase();
  if (!/^[a-z]{2}$/.test(c)) return null;
  return languageNames.of(c) ?? null;
}

const NUMERIC_LABEL: Partial<Record<ChipAttribute, string>> = { regions: 'Region', os: 'OS', browsers: 'Browser' };

/** The value as it is sent (codes in their standard case). */
export function normalizeChip(attr: ChipAttribute, value: string): string {
  const v = value.trim();
  if (attr === 'countries') return v.toUpperCase();
  if (attr === 'languages') return v.toLowerCase();
  return v;
}

/** Why a value cannot be a chip of this attribute, or null. */
export function chipValueProblem(attr: ChipAttribute, value: string): string | null {
  const v = value.trim();
  if (v === '') return 'Type a value first';
  if (attr === 'countries' && countryName(v) === null) {
    return `"${v}" is not an ISO 3166 country code: use two letters, e.g. US for the United States, DE for Germany`;
  }
  if (attr === 'languages' && languageName(v) === null) {
    return `"${v}" is not an ISO 639-1 language code: use two letters, e.g. en for English, de for German`;
  }
  const label = NUMERIC_LABEL[attr];
  if (label && !/^\d+$/.test(v)) return `${label} ids are numbers given by the service (e.g. 12), not names: "${v}" is not one`;
  // OS and browser ids go out as JSON numbers (spec 2.5: number[]), through a JS number: one
  // beyond 2^53 would be sent as another id, so it is refused rather than changed.
  if ((attr === 'os' || attr === 'browsers') && !Number.isSafeInteger(Number(v))) {
    return `${label} id ${v} is too large to be sent exactly (at most ${Number.MAX_SAFE_INTEGER})`;
  }
  return null;
}

/** "DE Germany" for a country chip, the language's name for a language chip, else nothing. */
export function chipName(attr: ChipAttribute, value: string): string | null {
  if (attr === 'countries') return countryName(value);
  if (attr === 'languages') return languageName(value);
  return null;
}

/** user_data values as typed ("a, b"): the values, or why not (an empty one is refused, never dropped). */
export function parseUserDataValues(text: string): { values: string[] } | { problem: string } {
  if (text.trim() === '') return { problem: 'Type at least one value' };
  const values = text.split(',').map((v) => v.trim());
  if (values.some((v) => v === '')) return { problem: 'A user_data value cannot be empty: remove the extra comma' };
  return { values };
}
