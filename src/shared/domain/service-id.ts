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
export const serviceIdSchema = z.union([
  z.string(),
  z
    .number()
    .refine(Number.isSafeInteger, 'an id beyond 2^53 must not pass through a JavaScript number')
    .transform((n) => String(n)),
]);

/**
 * A number of the interface that is not an id (money, counts, times): a JSON number, or an
 * integer the lossless reader kept as digits because it is beyond 2^53, read by value.
 */
export const serviceNumberSchema = z.union([z.number(), z.string().regex(BIG_INTEGER_TEXT).transform(Number)]);

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
