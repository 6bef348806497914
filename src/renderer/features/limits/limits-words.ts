// What the rate-limit view says, as plain functions of the picture and the time since it was
// taken, so the countdowns tick with the window's clock without asking main again.
import type { LimitBudget, LimitWindow } from '../../../shared/ipc/contract';

/** "3 s", "about 2 min", "about 1 h 5 min": a time still to come, rounded as a person says it. */
export function formatSpan(ms: number): string {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `about ${m} min`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest === 0 ? `about ${h} h` : `about ${h} h ${rest} min`;
}

/** Time left of a span the picture gave, `elapsed` ms after it was taken. */
const left = (ms: number, elapsed: number) => Math.max(0, ms - elapsed);

/** "per second", "per minute", "per hour", else "per 90 s". */
export function windowName(w: Pick<LimitWindow, 'windowMs'>): string {
  if (w.windowMs === 1_000) return 'per second';
  if (w.windowMs === 60_000) return 'per minute';
  if (w.windowMs === 3_600_000) return 'per hour';
  return `per ${formatSpan(w.windowMs).replace(/^about /, '')}`;
}

/** "Create campaigns (writes)", "List campaigns (reads)", "Push (writes)". */
export function budgetName(b: Pick<LimitBudget, 'group' | 'budget'>): string {
  const group =
    b.group === 'campaigns' ? 'Create campaigns' : b.group === 'campaigns.list' ? 'List campaigns' : b.group === 'push' ? 'Push' : b.group;
  return `${group} (${b.budget === 'read' ? 'reads' : 'writes'})`;
}

/** "7 of 10 used". */
export function usedOfQuota(w: Pick<LimitWindow, 'used' | 'quota'>): string {
  return `${Math.min(w.used, w.quota)} of ${w.quota} used`;
}

/** When the window is full again: counts down from the picture; "Full" when nothing is counted. */
export function refillLabel(w: Pick<LimitWindow, 'used' | 'resetInMs'>, elapsed: number): string {
  if (w.used <= 0) return 'Full';
  if (w.resetInMs === null) return 'Refills once the service answers';
  const ms = left(w.resetInMs, elapsed);
  return ms === 0 ? 'Refilled' : `Refills in ${formatSpan(ms)}`;
}

/** Why a budget's work waits, when the service itself asked for a pause. */
export function blockedLabel(b: Pick<LimitBudget, 'blockedForMs'>, elapsed: number): string | null {
  const ms = left(b.blockedForMs, elapsed);
  return ms > 0 ? `The service asked to wait ${formatSpan(ms)} (Retry-After)` : null;
}

/** What the model of a budget rests on, when that is not the service's own word. */
export function modelNote(b: Pick<LimitBudget, 'model' | 'windows'>): string | null {
  if (b.model === 'guess' && b.windows.length === 0) return 'Not learned yet: one request at a time until the service answers';
  if (b.model === 'guess') return 'Not learned yet: the documented limits until the service answers';
  if (b.model === 'unlimited') return 'Not rate limited: the service sends no limits for it';
  return null;
}
