// Sliding-log rate limiting (spec 8.1, DECISIONS sandbox 4). Each (account, group, budget) keeps
// the times of its admitted requests; a request counts in a window for `w` seconds after it was
// admitted, so windows refill continuously and a rejected request leaves no trace.
import type { Fixtures } from './fixtures';
import type { Variants } from './variants';
import {
  DEFAULT_ENDPOINT_TIERS,
  DEFAULT_WINDOWS_S,
  SPEC_TIERS,
  WINDOW_NAMES,
  type RateLimitGroup,
  type TierQuotas,
  type TierRow,
} from './rate-tiers';

export type Budget = 'read' | 'write';

export interface RateDecision {
  admitted: boolean;
  /** ratelimit-policy and ratelimit, plus retry-after when rejected. */
  headers: Record<string, string>;
  /** Window names that were exhausted (empty when admitted). */
  violated: string[];
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

interface WindowSpec {
  name: string;
  ms: number;
  seconds: number;
}

const ceilSeconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

export class RateLimiter {
  private readonly windows: WindowSpec[];
  private readonly longestMs: number;
  private readonly tiers: Record<string, TierQuotas>;
  private readonly endpointTiers: Record<RateLimitGroup, number>;
  private readonly logs = new Map<string, SlidingLog>();
  private readonly policies = new Map<string, string>();

  constructor(
    f: Fixtures,
    private readonly variants: Variants = {},
  ) {
    const given = f.rate_limits?.windows ?? {};
    this.windows = WINDOW_NAMES.map((name) => {
      const seconds = given[name] ?? DEFAULT_WINDOWS_S[name];
      return { name, seconds, ms: seconds * 1000 };
    });
    this.longestMs = Math.max(...this.windows.map((x) => x.ms));
    this.tiers = { ...SPEC_TIERS, ...f.rate_limits?.tiers };
    const tiers = f.rate_limits?.endpoint_tiers ?? {};
    this.endpointTiers = {
      campaigns: tiers.campaigns ?? DEFAULT_ENDPOINT_TIERS.campaigns,
      'campaigns.list': tiers['campaigns.list'] ?? DEFAULT_ENDPOINT_TIERS['campaigns.list'],
    };
  }

  quotas(group: RateLimitGroup, budget: Budget): TierRow {
    return this.tiers[String(this.endpointTiers[group])][budget];
  }

  private policy(group: RateLimitGroup, budget: Budget): string {
    const key = `${group}|${budget}`;
    let p = this.policies.get(key);
    if (p === undefined) {
      const q = this.quotas(group, budget);
      p = this.windows.map((w, i) => `${w.name};q=${q[i]};w=${w.seconds}`).join(', ');
      this.policies.set(key, p);
    }
    return p;
  }

  /** Admits (and counts) the request if it fits every window; otherwise says how long to wait. */
  check(account: string, group: RateLimitGroup, budget: Budget, now: number): RateDecision {
    const key = `${account}|${group}|${budget}`;
    let log = this.logs.get(key);
    if (log === undefined) {
      log = new SlidingLog();
      this.logs.set(key, log);
    }
    log.drop(now - this.longestMs);
    const q = this.quotas(group, budget);
    const starts = this.windows.map((w) => log.firstAfter(now - w.ms));
    const counts = starts.map((s) => log.times.length - s);
    const violated = this.windows.filter((_, i) => counts[i] >= q[i]).map((w) => w.name);
    const admitted = violated.length === 0;
    if (admitted) {
      log.push(now);
      for (let i = 0; i < counts.length; i++) counts[i]++;
    }
    const newest = log.times.length > log.head ? log.times[log.times.length - 1] : now;
    const state = this.windows.map((w, i) => {
      const t = counts[i] === 0 ? 0 : ceilSeconds(newest + w.ms - now);
      return `${w.name};r=${Math.max(0, q[i] - counts[i])};t=${t}`;
    });
    const headers: Record<string, string> = {
      'ratelimit-policy': this.policy(group, budget),
      ratelimit: state.join(', '),
    };
    if (!admitted) {
      // The request fits once enough of the oldest entries of every exhausted window expire.
      let waitMs = 0;
      this.windows.forEach((w, i) => {
        if (counts[i] < q[i]) return;
        const mustExpire = log.times[starts[i] + counts[i] - q[i]];
        waitMs = Math.max(waitMs, mustExpire + w.ms - now);
      });
      headers['retry-after'] = String(Math.max(1, ceilSeconds(waitMs)));
    }
    return { admitted, headers, violated };
  }

  reset(): void {
    this.logs.clear();
  }
}
