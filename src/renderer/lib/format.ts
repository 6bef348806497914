// Display formats: numbers as the locale writes them, missing values as a dash, ages in words.
const money = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = new Intl.NumberFormat();

export const DASH = '\u2013';

export function formatMoney(v: number | null | undefined): string {
  return v === null || v === undefined ? DASH : money.format(v);
}

export function formatCount(v: number): string {
  return count.format(v);
}

export function formatText(v: string | null | undefined): string {
  return v === null || v === undefined || v === '' ? DASH : v;
}

export function formatDate(v: string | null | undefined): string {
  if (!v) return DASH;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v : new Date(t).toLocaleDateString();
}

/** A moment in the user's locale, to the minute ("Nov 23, 2026, 8:27 AM"): fits a grid column. */
export function formatDateTime(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return DASH;
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function formatAge(at: number | null | undefined, now: number): string {
  if (at === null || at === undefined) return 'never';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

/** "1 s", "1 min", "1 h" for a window length. */
export function formatWindow(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const MOD_KEY = isMac ? '\u2318' : 'Ctrl';
