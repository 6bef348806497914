// The service's "now", and what a time in each subscriber's own zone means against it. Defined once
// for main and the window: every rule that judges a scheduled time ("in the future", "passed",
// "which zones still get it") takes its `now` from serviceTime, so the composer, Queue and the
// outbox cannot disagree about the same push (DECISIONS client 10; STYLE "one notion of now").

const HOUR_MS = 3_600_000;

/**
 * The service's time: the computer's clock corrected by the offset main learned from the service's
 * Date headers (service minus local, ms). Before the service has answered, nothing better is known
 * than the computer's own clock.
 */
export function serviceTime(localNow: number, offsetMs: number | null | undefined): number {
  return localNow + (offsetMs ?? 0);
}

/**
 * The UTC offsets (hours) in use around the world, from the furthest ahead (UTC+14, which reaches a
 * wall time first) to the furthest behind (UTC-12). A push in each subscriber's own zone reaches a
 * zone of offset o at wall time minus o hours.
 */
export const ZONE_OFFSETS_H: readonly number[] = [
  14, 13, 12.75, 12, 11, 10.5, 10, 9.5, 9, 8.75, 8, 7, 6.5, 6, 5.75, 5.5, 5, 4.5, 4, 3.5, 3, 2, 1, 0, -1, -2, -3, -3.5, -4, -5, -6, -7, -8,
  -9, -9.5, -10, -11, -12,
];

/** "UTC+14", "UTC+5:45", "UTC", "UTC-3:30". */
export function zoneName(offsetH: number): string {
  if (offsetH === 0) return 'UTC';
  const sign = offsetH > 0 ? '+' : '-';
  const abs = Math.abs(offsetH);
  const h = Math.floor(abs);
  const m = Math.round((abs - h) * 60);
  return `UTC${sign}${h}${m === 0 ? '' : `:${String(m).padStart(2, '0')}`}`;
}

/** When the zone of `offsetH` reaches the wall time `wallMs` (that wall time written as UTC ms). */
export const zoneReachesAt = (wallMs: number, offsetH: number): number => wallMs - offsetH * HOUR_MS;

/**
 * The zones whose clocks are already past the wall time of a subscriber's-time push at `now`
 * (service time): their subscribers miss it. Ordered furthest ahead first; empty when every zone
 * still gets it.
 */
export function zonesMissing(wallMs: number, now: number): number[] {
  return ZONE_OFFSETS_H.filter((o) => zoneReachesAt(wallMs, o) <= now);
}

/** "Subscribers in UTC+14 to UTC+9 miss it: 08:00 has already passed there." — or null when none do. */
export function zonesMissingWarning(wallMs: number, now: number): string | null {
  const missed = zonesMissing(wallMs, now);
  if (missed.length === 0) return null;
  const d = new Date(wallMs);
  const wall = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  if (missed.length === ZONE_OFFSETS_H.length) return `${wall} has already passed in every time zone: no subscriber would get it.`;
  const first = zoneName(missed[0]);
  const last = zoneName(missed[missed.length - 1]);
  const where = missed.length === 1 ? first : `${first} to ${last}`;
  return `Subscribers in ${where} will miss it: ${wall} has already passed there. The rest get it at ${wall} their time.`;
}
