// Identifiers the service hands out (campaign id, taskId, tagId, app ids, containerId) are opaque
// strings in Campaign Desk, kept exactly as the service spelled them and compared as strings
// (DECISIONS client 14). The interface types some as numbers with no range; the client's JSON
// reader (main/service/lossless-json.ts) hands an integer beyond 2^53 over as its digits, so a
// number reaching these schemas is a safe integer, and one that is not would name another record.
import { z } from 'zod';

/** An integer beyond 2^53 as the lossless reader hands it over: its exact digits. */
export const BIG_INTEGER_TEXT = /^-?[1-9]\d{15,}$/;

/**
 * An id as the service wrote it: a string as it is, a number as its digits. A number that is not
 * a safe integer is refused: it was rounded somewhere, and the id it shows is not the service's.
 */
/** The id serviceIdSchema reads from a value, or undefined where it refuses one. */
export function readServiceId(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  return typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined;
}

export const serviceIdSchema = z.union([
  z.string(),
  z
    .number()
    .refine(Number.isSafeInteger, 'an id beyond 2^53 must not pass through a JavaScript number')
    .transform((n) => String(n)),
]);

/**
 * Order of two ids (for stable lists, never for identity): digit strings by their exact value
 * (without a JS number, so 2^53 + 1 and 2^53 + 2 stay apart), anything else after them by code unit.
 */
export function compareIds(a: string, b: string): number {
  const da = /^\d+$/.test(a);
  const db = /^\d+$/.test(b);
  if (da !== db) return da ? -1 : 1;
  if (da) {
    const ta = a.replace(/^0+(?=\d)/, '');
    const tb = b.replace(/^0+(?=\d)/, '');
    if (ta.length !== tb.length) return ta.length - tb.length;
    if (ta !== tb) return ta < tb ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---- Reading a record's other fields liberally (DECISIONS client 7, 17) ----------------------------
// One odd field must not make a whole listing unreadable: a field of another type than the
// interface shows is read by what it holds (a number written as text, text written as a number) or,
// when it holds nothing usable, left out. Only what a record cannot be used without (its id) is
// required.

/** A JSON number or a decimal written as text ("12.50"), by value; anything else is left out. */
export function readLenientNumber(v: unknown): number | null | undefined {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

export const lenientNumberSchema = z.unknown().optional().transform(readLenientNumber);

/** Text, or a number or boolean written as text; anything else is left out. */
export function readLenientText(v: unknown): string | null | undefined {
  if (v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export const lenientTextSchema = z.unknown().optional().transform(readLenientText);

/** Text a record is shown by (a campaign's name, a task's type and status): "" when missing or unusable. */
export const lenientRequiredTextSchema = lenientTextSchema.transform((v) => v ?? '');
