// Date-times the service writes. The interface types them "date-time" / "ISO 8601" and shows no
// spelling, so a service may write any ISO 8601 form: `Z` or `+00:00` or another offset, a space
// for the `T`, no seconds, any number of fraction digits, or no offset at all (a wall time in a
// zone it does not name); a service that serialises its dates as epoch milliseconds is plausible
// too. Date.parse is no reader for these: it reads a date-time without an offset as the
// computer's local time, so the same answer means another instant on each person's machine.
// This reader is the one place that turns the service's spelling into an instant.
import { z } from 'zod';

/** What a service's date-time says. */
export interface ServiceInstant {
  /** The instant in ms, reading a date-time without an offset as UTC (see `zoned`). */
  ms: number;
  /** It named its offset (or was an epoch number): `ms` is the instant. Else only the wall time is known. */
  zoned: boolean;
  /** The precision it was written to, in ms: 60,000 for a time without seconds, a day for a date. */
  precisionMs: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Offsets run from -12:00 to +14:00; a wall time without one may be any of them (±14 h both ways is safe). */
const MAX_OFFSET_MS = 14 * 60 * MINUTE;
/** Offsets in use are whole quarter hours. */
const OFFSET_STEP_MS = 15 * MINUTE;

// Extended format: date, then `T` (or a space, RFC 3339 5.6's note), time to the minute, second or
// fraction (`.` or `,`), then `Z`, `±hh:mm`, `±hhmm`, `±hh` or nothing.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** Epoch milliseconds between 2001 and 2286 (13 digits): a number that size where a date-time is shown. */
const EPOCH_MS_MIN = 1e12;
const EPOCH_MS_MAX = 1e13;

function fromEpoch(n: number): ServiceInstant | undefined {
  return Number.isFinite(n) && n >= EPOCH_MS_MIN && n < EPOCH_MS_MAX ? { ms: Math.floor(n), zoned: true, precisionMs: 1 } : undefined;
}

/** The instant a service's date-time names, or undefined when it is not one. */
export function readServiceInstant(value: unknown): ServiceInstant | undefined {
  if (typeof value === 'number') return fromEpoch(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d{13}$/.test(text)) return fromEpoch(Number(text));
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, hh, mi, ss, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hours = hh === undefined ? 0 : Number(hh);
  const minutes = mi === undefined ? 0 : Number(mi);
  const seconds = ss === undefined ? 0 : Number(ss);
  const ms = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  const wall = Date.UTC(year, month - 1, day, hours, minutes, Math.min(seconds, 59), ms);
  const back = new Date(wall);
  // Date.UTC rolls 2026-02-30 over to March: such a date is not one.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const precisionMs = hh === undefined ? DAY : ss === undefined ? MINUTE : frac === undefined ? 1000 : 1;
  if (zone === undefined) return { ms: wall, zoned: false, precisionMs };
  if (zone === 'Z' || zone === 'z') return { ms: wall, zoned: true, precisionMs };
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offset = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * MINUTE;
  if (offset > MAX_OFFSET_MS || Number(digits.slice(2) || '0') > 59) return undefined;
  return { ms: wall - sign * offset, zoned: true, precisionMs };
}

/**
 * Whether two date-times can name the same instant, to within `toleranceMs` or the coarser of the
 * precisions they were written to (a service that keeps minutes drops the seconds). One without an
 * offset is a wall time in a zone the service did not name: it matches when it is the other's
 * wall time at some offset (a whole quarter hour within ±14 h).
 */
export function sameServiceInstant(a: ServiceInstant, b: ServiceInstant, toleranceMs: number): boolean {
  const slack = Math.max(toleranceMs, a.precisionMs, b.precisionMs);
  const close = (d: number) => Math.abs(d) < slack;
  const diff = b.ms - a.ms;
  if (a.zoned && b.zoned) return close(diff);
  if (Math.abs(diff) > MAX_OFFSET_MS + slack) return false;
  return close(diff - Math.round(diff / OFFSET_STEP_MS) * OFFSET_STEP_MS);
}

/**
 * A date-time field of a record the service wrote, read at the boundary: one that names an
 * instant (an offset, or epoch milliseconds) becomes ISO 8601 in UTC with milliseconds (to the
 * minute when it was written so), the one form the cache sorts and the screens read; a wall time without an offset is kept as written (no
 * zone can be assumed for it); anything else is left out, as lenient fields are (service-id.ts).
 */
export function readServiceDateTime(v: unknown): string | null | undefined {
  // The shortcut for the form this reader writes (what most services write too; every listed
  // campaign passes here): such a text reads back as itself, but for a leap second (:60, read as :59).
  if (typeof v === 'string' && CANONICAL_UTC.test(v) && v.charCodeAt(17) !== SIX) return v;
  return readServiceDateTimeByInstant(v);
}

/** UTC with milliseconds, as toISOString writes it (years 0000-9999). */
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SIX = '6'.charCodeAt(0);

/** readServiceDateTime without its shortcut (the test holds the two equal). */
export function readServiceDateTimeByInstant(v: unknown): string | null | undefined {
  if (v === null) return null;
  const at = readServiceInstant(v);
  if (at === undefined) return typeof v === 'string' ? v : undefined;
  if (!at.zoned) return String(v).trim();
  const iso = new Date(at.ms).toISOString();
  // Written to the minute: kept to the minute, so that a match still knows the seconds were dropped.
  return at.precisionMs === MINUTE ? `${iso.slice(0, 16)}Z` : iso;
}

export const serviceDateTimeSchema = z.unknown().optional().transform(readServiceDateTime);

// ---- Epoch times (a task's executionTime and taskUpdateTime, spec 2.6) -------------------------
// The interface types them as numbers of milliseconds. A service may write the number as text, or
// serialise its dates otherwise (ISO text, epoch seconds): each is read into milliseconds here, so
// a time that is there is never taken for one that is missing (a lost push then looked absent and
// was sent twice).

/**
 * Epoch seconds from 1973-03-03 to 5138: a number this size in a millisecond field would be a time
 * in the first years of 1970, which no task has. Milliseconds read from it are 1e11 or more, so
 * reading a time twice gives the same time.
 */
const EPOCH_S_MIN = 1e8;
const EPOCH_S_MAX = 1e11;

/** Epoch milliseconds from what a service wrote for an epoch time, or undefined when it holds none. */
export function readEpochMs(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined;
  if (n !== undefined) {
    if (!Number.isFinite(n)) return undefined;
    return Math.abs(n) >= EPOCH_S_MIN && Math.abs(n) < EPOCH_S_MAX ? Math.round(n * 1000) : n;
  }
  // A date-time text names an instant only with its offset.
  const at = readServiceInstant(value);
  return at?.zoned ? at.ms : undefined;
}

/** An epoch-time field of a record, read by readEpochMs; null stays null, anything unreadable is left out. */
export const serviceEpochMsSchema = z
  .unknown()
  .optional()
  .transform((v): number | null | undefined => (v === null ? null : readEpochMs(v)));
