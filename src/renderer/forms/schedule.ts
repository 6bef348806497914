// When a scheduled push goes out, in words and numbers. The picker's wall time is read in the zone
// the push follows (userTimeZone 0: UTC; 1: each subscriber's own zone, given to the service as
// that wall time in UTC), never in the manager's own zone; the manager's own time is shown beside
// it. "Now" is the service's clock (DECISIONS client 10), not this computer's.

import { zonesMissingWarning } from '../../shared/domain/service-time';

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
  new Intl.DateTimeFormat('en-CA', { timeZone: zoneA, dateStyle: 'short' }).format(a) ===
  new Intl.DateTimeFormat('en-CA', { timeZone: zoneB, dateStyle: 'short' }).format(b);

/** The zones furthest ahead (UTC+14) and behind (UTC-12) receive a subscriber-local push first and last. */
const FIRST_ZONE_AHEAD_MS = 14 * HOUR;
const LAST_ZONE_BEHIND_MS = 12 * HOUR;

/**
 * A scheduled time in a few words, on the clock it follows, wherever one is shown (Tasks, a task's
 * details, the Outbox, blocked pushes): "Sat 28 Nov, 08:00 in each subscriber's time zone" for a
 * subscriber's-time push (its wall time, never converted: there is no one moment to convert), or
 * "Sat 28 Nov, 08:00 UTC (09:00 your time)".
 */
export function scheduleLabel(ms: number, userTimeZone: number | null | undefined, zone = localZone()): string {
  if (userTimeZone === 1) return `${fmt(ms, 'UTC', true)} in each subscriber's time zone`;
  return `${fmt(ms, 'UTC', true)} UTC (${fmt(ms, zone, !sameDay(ms, 'UTC', ms, zone))} your time)`;
}

/** What will happen, e.g. "Tue 14 May, 09:00 UTC (11:00 your time, Europe/Berlin)". */
export function describeSchedule(ms: number, userTimeZone: 0 | 1, zone = localZone()): string {
  if (userTimeZone === 0) return `${scheduleLabel(ms, 0, zone).replace(/ your time\)$/, ` your time, ${zone})`)}`;
  const first = ms - FIRST_ZONE_AHEAD_MS;
  const last = ms + LAST_ZONE_BEHIND_MS;
  return `${scheduleLabel(ms, 1, zone)}: the first receive it at ${fmt(first, zone, true)} your time, the last at ${fmt(last, zone, true)} (${zone})`;
}

/**
 * For a subscriber's-time schedule still in the future in UTC: which zones are already past its wall
 * time on the service's clock (UTC+14 first), in words; null when every zone still gets it.
 */
export function scheduleZoneWarning(
  value: { mode: string; executionLocal: string; userTimeZone: number },
  serviceNow: number,
): string | null {
  const at = wallToMs(value.executionLocal);
  if (value.mode !== 'scheduled' || value.userTimeZone !== 1 || at === undefined || at <= serviceNow) return null;
  return zonesMissingWarning(at, serviceNow);
}

/**
 * Said beside a schedule when the service's clock and this computer's differ by a minute or more,
 * so "passed" and "future" are not a surprise: they are judged on the service's clock.
 */
export function clockSkewNote(offsetMs: number | undefined): string | null {
  if (offsetMs === undefined || Math.abs(offsetMs) < 60_000) return null;
  const min = Math.round(Math.abs(offsetMs) / 60_000);
  return `The service's clock is ${min} min ${offsetMs < 0 ? 'behind' : 'ahead of'} this computer's; times are judged on the service's clock.`;
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
  fixes.push({
    label: `Tomorrow at ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`,
    executionTime: tomorrow > serviceNow ? tomorrow : tomorrow + 24 * HOUR,
  });
  fixes.push({ label: 'Send now', executionTime: null });
  return fixes;
}
