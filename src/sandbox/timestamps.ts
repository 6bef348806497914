// Which Unix timestamps (ms) the service takes as times. JavaScript's Date ends at ±8.64e15 ms, and
// the service writes every time it keeps as ISO 8601 with a four-digit year, so a time after the
// last millisecond of 9999 is refused as a bad value (400) before anything is applied, rather than
// failing half way through a request (a 500 that had already created or changed something).

export const LATEST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The start of Date's range: earlier values are no time at all. */
export const EARLIEST_TIME_MS = -8.64e15;

export const TIME_RANGE_MESSAGE = 'executionTime must be a Unix timestamp in milliseconds no later than 9999-12-31T23:59:59.999Z';

export function isServiceTime(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_TIME_MS && ms <= LATEST_TIME_MS;
}
