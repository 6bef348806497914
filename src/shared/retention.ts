// How long history is kept: sent changes (the Outbox's per-account history) and the activity log,
// each for a number of days the person sets (stored in the settings table) and sees where the
// history is shown, so nothing disappears without having said when it would.
import { z } from 'zod';

export const DAY_MS = 86_400_000;
export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 365;
/** Both periods until the person changes them. */
export const HISTORY_RETENTION_DAYS = 30;
export const HISTORY_RETENTION_MS = HISTORY_RETENTION_DAYS * DAY_MS;

const days = (what: string) =>
  z
    .number({ message: `${what}: write a whole number of days.` })
    .int(`${what}: write a whole number of days.`)
    .min(RETENTION_MIN_DAYS, `${what}: keep it at least ${RETENTION_MIN_DAYS} day.`)
    .max(RETENTION_MAX_DAYS, `${what}: keep it at most ${RETENTION_MAX_DAYS} days (a year).`);

export const retentionSchema = z.object({
  sentDays: days('Sent history'),
  activityDays: days('Activity log'),
});
export type Retention = z.infer<typeof retentionSchema>;

export const RETENTION_DEFAULTS: Retention = { sentDays: HISTORY_RETENTION_DAYS, activityDays: HISTORY_RETENTION_DAYS };

/** What a new setting would remove at once (history older than the new periods). */
export const retentionEffectSchema = z.object({ sent: z.number().int().min(0), activity: z.number().int().min(0) });
export type RetentionEffect = z.infer<typeof retentionEffectSchema>;

export const daysLabel = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** "12 sent changes older than 7 days and 40 activity entries older than 3 days will be removed", or null when nothing goes. */
export function retentionEffectText(effect: RetentionEffect, next: Retention): string | null {
  const parts: string[] = [];
  if (effect.sent > 0) parts.push(`${effect.sent} sent ${effect.sent === 1 ? 'change' : 'changes'} older than ${daysLabel(next.sentDays)}`);
  if (effect.activity > 0)
    parts.push(`${effect.activity} activity ${effect.activity === 1 ? 'entry' : 'entries'} older than ${daysLabel(next.activityDays)}`);
  if (parts.length === 0) return null;
  return `${parts.join(' and ')} will be removed when you save.`;
}
