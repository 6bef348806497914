// Tolerant parsers of the rate-limit headers (spec 8.1.6, 7.2). A real service may order entries
// differently, quote names, vary case and spacing or add parameters we do not know; a header we
// cannot read is ignored rather than trusted, and nothing here ever throws.

/** One entry of `ratelimit-policy`: `name;q=<quota>;w=<window seconds>`. */
export interface PolicyEntry {
  name: string;
  quota: number;
  windowS: number;
}

/** One entry of `ratelimit`: `name;r=<remaining>;t=<seconds until full again>`. */
export interface RemainingEntry {
  name: string;
  remaining: number;
  /** Missing when the server did not send `t`. */
  resetS?: number;
}

export type HeaderValue = string | readonly string[] | undefined | null;

// Headers this long are not rate-limit headers of any service we know; refusing them keeps a
// hostile response from costing us time.
const MAX_HEADER_LENGTH = 8192;
const MAX_ENTRIES = 32;
const NUMBER = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

function joined(value: HeaderValue): string | undefined {
  if (value === undefined || value === null) return undefined;
  const s = typeof value === 'string' ? value : Array.isArray(value) ? value.join(',') : undefined;
  if (typeof s !== 'string' || s.length > MAX_HEADER_LENGTH) return undefined;
  return s;
}

/** Splits on `sep` outside double quotes; a backslash escapes inside quotes (RFC 8941 strings). */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted && c === '\\' && i + 1 < s.length) {
      cur += c + s[i + 1];
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      cur += c;
    } else if (c === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

function unquote(s: string): string | undefined {
  const t = s.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) {
    return t.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return t.includes('"') ? undefined : t;
}

interface RawEntry {
  name: string;
  params: Map<string, string>;
}

function entries(value: HeaderValue): RawEntry[] {
  const s = joined(value);
  if (s === undefined) return [];
  const out: RawEntry[] = [];
  const seen = new Set<string>();
  for (const part of splitOutsideQuotes(s, ',')) {
    if (out.length >= MAX_ENTRIES) break;
    const [head, ...rest] = splitOutsideQuotes(part, ';');
    const name = unquote(head)?.toLowerCase();
    if (name === undefined || name === '' || !TOKEN.test(name) || seen.has(name)) continue;
    const params = new Map<string, string>();
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const val = unquote(p.slice(eq + 1));
      // The first occurrence of a parameter wins, as RFC 8941 dictionaries keep one value per key.
      if (key !== '' && val !== undefined && !params.has(key)) params.set(key, val);
    }
    seen.add(name);
    out.push({ name, params });
  }
  return out;
}

function num(v: string | undefined, integer: boolean): number | undefined {
  if (v === undefined || !(integer ? INTEGER : NUMBER).test(v)) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Entries with a readable quota and a positive window; anything else is dropped. */
export function parseRateLimitPolicy(value: HeaderValue): PolicyEntry[] {
  const out: PolicyEntry[] = [];
  for (const e of entries(value)) {
    const quota = num(e.params.get('q'), true);
    const windowS = num(e.params.get('w'), false);
    if (quota === undefined || windowS === undefined || windowS <= 0) continue;
    out.push({ name: e.name, quota, windowS });
  }
  return out;
}

/** Entries with a readable remaining count; `t` is kept when readable. */
export function parseRateLimit(value: HeaderValue): RemainingEntry[] {
  const out: RemainingEntry[] = [];
  for (const e of entries(value)) {
    const remaining = num(e.params.get('r'), true);
    if (remaining === undefined) continue;
    const resetS = num(e.params.get('t'), false);
    out.push(resetS === undefined ? { name: e.name, remaining } : { name: e.name, remaining, resetS });
  }
  return out;
}

const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
const RFC850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$`);

function utc(year: number, month: string, day: number, h: number, m: number, s: number): number | undefined {
  const mi = MONTHS.indexOf(month);
  if (mi < 0 || day < 1 || day > 31 || h > 23 || m > 59 || s > 60) return undefined;
  const t = Date.UTC(year, mi, day, h, m, Math.min(s, 59));
  // Reject dates such as 31 Feb that Date.UTC would silently roll over.
  return new Date(t).getUTCDate() === day ? t : undefined;
}

/** An HTTP-date (RFC 9110 5.6.7) in any of its three forms, as epoch milliseconds. */
export function parseHttpDate(s: string): number | undefined {
  let m = IMF_FIXDATE.exec(s);
  if (m) return utc(Number(m[4]), m[3], Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  m = RFC850.exec(s);
  if (m) {
    // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
    const yy = Number(m[4]);
    const year = yy + 2000 > new Date().getUTCFullYear() + 50 ? 1900 + yy : 2000 + yy;
    return utc(year, m[3], Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  }
  m = ASCTIME.exec(s);
  if (m) return utc(Number(m[7]), m[2], Number(m[3].trim()), Number(m[4]), Number(m[5]), Number(m[6]));
  return undefined;
}

/**
 * Retry-After as milliseconds to wait from `nowMs`: delay-seconds or an HTTP-date (a date in the
 * past means "now"). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: HeaderValue, nowMs: number): number | undefined {
  // HTTP-dates contain a comma, so a repeated header is read from its first line only.
  const first = typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined;
  if (typeof first !== 'string' || first.length > 256) return undefined;
  const s = first.trim();
  if (s === '') return undefined;
  if (NUMBER.test(s)) {
    const ms = Number(s) * 1000;
    return Number.isFinite(ms) ? ms : undefined;
  }
  const at = parseHttpDate(s);
  return at === undefined ? undefined : Math.max(0, at - nowMs);
}

function firstLine(value: HeaderValue): string | undefined {
  const first = typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined;
  return typeof first === 'string' && first.length <= 256 ? first.trim() : undefined;
}

/**
 * How long an answer's Retry-After asks us to wait, in ms. Delay-seconds are a duration. An
 * HTTP-date is a time on the service's clock, which may be minutes away from ours (DECISIONS
 * client 10), so it is measured against the same answer's Date header, written on that clock;
 * only an answer without a readable Date is measured against `localNow`. The Date header is
 * truncated to the second, so the wait is never shorter than the service meant.
 */
export function retryAfterDelayMs(retryAfter: HeaderValue, date: HeaderValue, localNow: number): number | undefined {
  const d = firstLine(date);
  const serviceNow = d === undefined ? undefined : parseHttpDate(d);
  return parseRetryAfter(retryAfter, serviceNow ?? localNow);
}
