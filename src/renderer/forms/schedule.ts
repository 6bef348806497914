// When a scheduled push goes out, in words and numbers. The picker's wall time is read in the zone
// the push follows (userTimeZone 0: UTC; 1: each subscriber's own zone, given to the service as
// that wall time in UTC), never in the manager's own zone; the manager's own time is shown beside
// it. "Now" is the service's clock (DECISIONS client 10), not this computer's.

const HOUR = 3600_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** datetime-local text ("2030-05-14T09:00") read as that wall time in UTC. */
export function wallToMs(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  return Number.isNaN(t) ? undefined : t;
}

/** The picker's text for a time: its wall time in UTC. */
export function msToWall(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your zone';
}

function fmt(ms: number, timeZone: string, withDate: boolean): string {
  const opts: Intl.DateTimeFormatOptions = withDate
    ? { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }
    : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone };
  return new Intl.DateTimeFormat('en-GB', opts).format(ms);
}

const sameDay = (a: number, zoneA: string, b: number, zoneB: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zoneA, dateStyle: 'short' }).format(a) === new Intl.DateTimeFormat('en-CA', { timeZone: zoneB, dateStyle: 'short' }).format(b);

/** The zones furthest ahead (UTC+14) and behind (UTC-12) receive a subscriber-local push first and last. */
const FIRST_ZONE_AHEAD_MS = 14 * HOUR;
const LAST_ZONE_BEHIND_MS = 12 * HOUR;

/** What will happen, e.g. "Tue 14 May, 09:00 UTC (11:00 your time, Europe/Berlin)". */
export function describeSchedule(ms: number, userTimeZone: 0 | 1, zone = localZone()): string {
  if (userTimeZone === 0) {
    const mine = fmt(ms, zone, !sameDay(ms, 'UTC', ms, zone));
    return `${fmt(ms, 'UTC', true)} UTC (${mine} your time, ${zone})`;
  }
  const first = ms - FIRST_ZONE_AHEAD_MS;
  const last = ms + LAST_ZONE_BEHIND_MS;
  return `${fmt(ms, 'UTC', true).replace(/,? \d\d:\d\d$/, '')} at ${fmt(ms, 'UTC', false)} in each subscriber's own time zone: the first receive it at ${fmt(first, zone, true)} your time, the last at ${fmt(last, zone, true)} (${zone})`;
}

/** One-click fixes for a time that has passed. */
export interface TimeFix {
  label: string;
  /** null: send it now, as an immediate push. */
  executionTime: number | null;
}

const ceilMinute = (ms: number) => Math.ceil(ms / 60_000) * 60_000;

export function timeFixes(wanted: number | undefined, serviceNow: number): TimeFix[] {
  const inHour = ceilMinute(serviceNow + HOUR);
  const fixes: TimeFix[] = [{ label: 'In 1 hour', executionTime: inHour }];
  // "Tomorrow at this time": the wall time asked for, on the day after today (UTC, the push's clock).
  const base = new Date(serviceNow + 24 * HOUR);
  const at = wanted === undefined ? new Date(inHour) : new Date(wanted);
  const tomorrow = Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate(), at.getUTCHours(), at.getUTCMinutes());
  fixes.push({ label: `Tomorrow at ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`, executionTime: tomorrow > serviceNow ? tomorrow : tomorrow + 24 * HOUR });
  fixes.push({ label: 'Send now', executionTime: null });
  return fixes;
}
