// Rate limiting of the campaign API (spec 8.1), and of the push API per client under the push_tier
// variant (push-limit.ts). Each (account, group, budget) has one window per length (second,
// minute, hour) and a request is admitted only if every window has room; a rejected request
// leaves no trace. "Windows refill continuously" (8.1 rule 4) has two legal readings, and the
// sandbox plays either:
// - sliding logs (default, DECISIONS sandbox 4): an admitted request counts in a window for `w`
//   seconds; `t` is the time until the newest counted request leaves;
// - token buckets (variant `windows: 'token_bucket'`): a window holds `q` tokens and gets them back
//   at q/w per second; `r` is the whole tokens left and `t` the time until the bucket is full.
// The headers can also be written in the other legal spellings a real service may use (variant
// `header_spelling`), and Retry-After as an HTTP-date (variant `retry_after_date`).
import type { Choices } from './choices';
import type { Fixtures } from './fixtures';
import { httpDate } from './http-date';
import type { Variants } from './variants';
import {
  DEFAULT_ENDPOINT_TIERS,
  DEFAULT_WINDOWS_S,
  SPEC_TIERS,
  WINDOW_NAMES,
  type RateLimitGroup,
  type TierQuotas,
  type TierRow,
} from '../shared/domain/rate-tiers';

export type Budget = 'read' | 'write';

/** The campaign API's groups, and the push API's one budget per client under the push_tier variant. */
export type LimitedGroup = RateLimitGroup | 'push';

/** A header field: one line, or (variant multiple_fields) one line per entry. */
export type HeaderField = string | string[];

export interface RateDecision {
  admitted: boolean;
  /** ratelimit-policy and ratelimit, plus retry-after when rejected. */
  headers: Record<string, HeaderField>;
  /** Window names that were exhausted (empty when admitted). */
  violated: string[];
}

interface WindowSpec {
  name: string;
  ms: number;
  seconds: number;
}

/** One window right after a decision, in ms. */
interface WindowReading {
  remaining: number;
  /** Until the window is back to its full quota (0 when full). */
  untilFullMs: number;
  /** Until one more request fits this window (0 when it fits now). */
  untilRoomMs: number;
}

/** The windows of one (account, group, budget) under one refill rule. */
interface BudgetWindows {
  /** Admits (and counts) the request when every window has room; reads every window after. */
  decide(now: number, quotas: TierRow): { admitted: boolean; readings: WindowReading[] };
}

/** Admission times of one key, oldest first; `head` skips expired entries without shifting. */
class SlidingLog {
  times: number[] = [];
  head = 0;

  drop(before: number): void {
    while (this.head < this.times.length && this.times[this.head] <= before) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  /** Index of the first entry later than `after`. */
  firstAfter(after: number): number {
    let lo = this.head;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid] <= after) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  push(t: number): void {
    // A real clock may step back a little (NTP); the log stays sorted regardless.
    const last = this.times.length > this.head ? this.times[this.times.length - 1] : -Infinity;
    this.times.push(Math.max(t, last));
  }
}

/** DECISIONS sandbox 4: a request counts in a window for `w` after it was admitted. */
class SlidingLogWindows implements BudgetWindows {
  readonly #log = new SlidingLog();
  readonly #longestMs: number;

  constructor(private readonly windows: readonly WindowSpec[]) {
    this.#longestMs = Math.max(...windows.map((w) => w.ms));
  }

  decide(now: number, q: TierRow): { admitted: boolean; readings: WindowReading[] } {
    const log = this.#log;
    log.drop(now - this.#longestMs);
    const starts = this.windows.map((w) => log.firstAfter(now - w.ms));
    const counts = starts.map((s) => log.times.length - s);
    const admitted = this.windows.every((_, i) => counts[i] < q[i]);
    if (admitted) {
      log.push(now);
      for (let i = 0; i < counts.length; i++) counts[i]++;
    }
    const newest = log.times.length > log.head ? log.times[log.times.length - 1] : now;
    const readings = this.windows.map((w, i): WindowReading => {
      // Room comes back when enough of the oldest entries have left this window.
      const untilRoomMs = counts[i] < q[i] ? 0 : log.times[starts[i] + counts[i] - q[i]] + w.ms - now;
      return { remaining: Math.max(0, q[i] - counts[i]), untilFullMs: counts[i] === 0 ? 0 : newest + w.ms - now, untilRoomMs };
    });
    return { admitted, readings };
  }
}

/**
 * Token buckets. Levels are kept in integer units of 1/w_ms token (one token = w_ms units, q
 * units come back per ms), so that refills on a millisecond clock are exact: no rounding drift
 * decides whether a request fits.
 */
class TokenBucketWindows implements BudgetWindows {
  #levels: number[] | undefined;
  #at = 0;

  constructor(private readonly windows: readonly WindowSpec[]) {}

  decide(now: number, q: TierRow): { admitted: boolean; readings: WindowReading[] } {
    // A new key starts with full buckets; a clock stepping back refills nothing.
    const levels = this.#levels ?? this.windows.map((w, i) => q[i] * w.ms);
    const elapsed = this.#levels === undefined ? 0 : Math.max(0, now - this.#at);
    this.windows.forEach((w, i) => {
      levels[i] = Math.min(q[i] * w.ms, levels[i] + elapsed * q[i]);
    });
    this.#levels = levels;
    this.#at = Math.max(this.#at, now);
    const admitted = this.windows.every((w, i) => levels[i] >= w.ms);
    if (admitted) this.windows.forEach((w, i) => (levels[i] -= w.ms));
    const readings = this.windows.map(
      (w, i): WindowReading => ({
        remaining: Math.floor(levels[i] / w.ms),
        untilFullMs: (q[i] * w.ms - levels[i]) / q[i],
        untilRoomMs: levels[i] >= w.ms ? 0 : (w.ms - levels[i]) / q[i],
      }),
    );
    return { admitted, readings };
  }
}

const ceilSeconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

type Spelling = NonNullable<Variants['header_spelling']> | 'plain';

/** An extra parameter no client knows, with the characters a naive split trips on. */
const UNKNOWN_PARAMETER = 'note="refills continuously; per account, group and budget"';

/** Header field names: the 'reordered' spelling also writes them in another case (names are case-insensitive). */
function fieldNames(spelling: Spelling): { policy: string; state: string; retryAfter: string } {
  return spelling === 'reordered'
    ? { policy: 'RateLimit-Policy', state: 'RateLimit', retryAfter: 'Retry-After' }
    : { policy: 'ratelimit-policy', state: 'ratelimit', retryAfter: 'retry-after' };
}

/**
 * One entry per window, with its name and parameters in the order and form the spelling uses:
 * 'quoted' names as sf-strings (and the state's `t` before `r`), 'reordered' the windows from the
 * longest, `w` before `q` and `t` before `r`, and a parameter no client knows.
 */
function entries(
  spelling: Spelling,
  kind: 'policy' | 'state',
  names: readonly string[],
  params: readonly (readonly [string, number])[][],
): HeaderField {
  const list = names.map((name, i) => {
    const p = params[i].map(([k, v]) => `${k}=${v}`);
    switch (spelling) {
      case 'quoted':
        return [`"${name}"`, ...(kind === 'state' ? p.slice().reverse() : p)].join(';');
      case 'reordered':
        return [name, ...p.slice().reverse(), UNKNOWN_PARAMETER].join(';');
      default:
        return [name, ...p].join(';');
    }
  });
  if (spelling === 'reordered') list.reverse();
  // multiple_fields: Node writes an array as one field line per element.
  return spelling === 'multiple_fields' ? list : list.join(', ');
}

export class RateLimiter {
  private readonly windows: WindowSpec[];
  private readonly tiers: Record<string, TierQuotas>;
  private readonly endpointTiers: Record<RateLimitGroup, number> & { push?: number };
  private readonly budgets = new Map<string, BudgetWindows>();
  private readonly spelling: Spelling;

  constructor(
    f: Fixtures,
    private readonly variants: Variants = {},
    /** Per-request choices (rate_headers_dropped); the sandbox's own, seeded by `seed`. */
    private readonly choices?: Choices,
  ) {
    const given = f.rate_limits?.windows ?? {};
    this.windows = WINDOW_NAMES.map((name) => {
      const seconds = given[name] ?? DEFAULT_WINDOWS_S[name];
      return { name, seconds, ms: seconds * 1000 };
    });
    this.tiers = { ...SPEC_TIERS, ...f.rate_limits?.tiers };
    const tiers = f.rate_limits?.endpoint_tiers ?? {};
    this.endpointTiers = {
      campaigns: tiers.campaigns ?? DEFAULT_ENDPOINT_TIERS.campaigns,
      'campaigns.list': tiers['campaigns.list'] ?? DEFAULT_ENDPOINT_TIERS['campaigns.list'],
      ...(variants.push_tier === undefined ? {} : { push: variants.push_tier }),
    };
    this.spelling = variants.header_spelling ?? 'plain';
  }

  /** Whether the push API is rate-limited (variant push_tier). */
  get limitsPush(): boolean {
    return this.endpointTiers.push !== undefined;
  }

  quotas(group: LimitedGroup, budget: Budget): TierRow {
    return this.tiers[String(this.endpointTiers[group])][budget];
  }

  /**
   * Admits (and counts) the request if it fits every window; otherwise says how long to wait.
   * `now` is the service's clock (clock_offset_ms included), which a date Retry-After is written in.
   */
  check(account: string, group: LimitedGroup, budget: Budget, now: number): RateDecision {
    const key = `${account}|${group}|${budget}`;
    let windows = this.budgets.get(key);
    if (windows === undefined) {
      windows = this.variants.windows === 'token_bucket' ? new TokenBucketWindows(this.windows) : new SlidingLogWindows(this.windows);
      this.budgets.set(key, windows);
    }
    const q = this.quotas(group, budget);
    const { admitted, readings } = windows.decide(now, q);
    const names = this.windows.map((w) => w.name);
    const field = fieldNames(this.spelling);
    const headers: Record<string, HeaderField> = {
      [field.policy]: entries(
        this.spelling,
        'policy',
        names,
        this.windows.map((w, i) => [
          ['q', q[i]],
          ['w', w.seconds],
        ]),
      ),
      [field.state]: entries(
        this.spelling,
        'state',
        names,
        readings.map((r) => [
          ['r', r.remaining],
          ['t', ceilSeconds(r.untilFullMs)],
        ]),
      ),
    };
    // rate_headers_dropped: an admitted answer now and then goes out without the headers, as one
    // served by a layer that does not write them (a cache, another front server) would; a 429
    // always carries them (spec 7.2).
    if (admitted && this.choices?.chance(this.variants.rate_headers_dropped ?? 0)) return { admitted, headers: {}, violated: [] };
    const violated = admitted ? [] : names.filter((_, i) => readings[i].untilRoomMs > 0);
    if (!admitted) {
      // The request fits once every exhausted window has room again.
      const waitMs = Math.max(...readings.map((r) => r.untilRoomMs));
      headers[field.retryAfter] = this.variants.retry_after_date
        ? // The first whole second (an IMF-fixdate has no finer unit) at which it fits: never early.
          httpDate(Math.ceil((now + waitMs) / 1000) * 1000, this.variants.date_header)
        : String(Math.max(1, ceilSeconds(waitMs)));
    }
    return { admitted, headers, violated };
  }

  reset(): void {
    this.budgets.clear();
  }
}
