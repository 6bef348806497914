// A discrete-event harness for the scheduler, driven by a ManualClock, so that properties can run
// thousands of requests without sleeping: a sliding-log server with the semantics of DECISIONS
// sandbox 4 that can also merely watch, and the sandbox's own limiter (any refill rule, header
// spelling or Retry-After form) answering as the service would.
import type { ManualClock } from '../../../src/main/clock/clock';
import type { Priority, RateLimitScheduler, ScheduledResponse } from '../../../src/main/ratelimit/scheduler';
import { RateLimiter } from '../../../src/sandbox/rate-limiter';
import type { Variants } from '../../../src/sandbox/variants';

export interface SimWindow {
  name: string;
  quota: number;
  windowMs: number;
}

export interface SimResponse extends ScheduledResponse {
  serverTime: number;
}

/** One budget's server side. */
export interface SimServer {
  handle(now: number): SimResponse;
  rejected: number;
}

/**
 * One budget's server side. `enforce: false` admits everything and only reports, so a test can
 * see whether the client alone kept within the quotas.
 */
export class SlidingLogServer implements SimServer {
  readonly admitted: number[] = [];
  rejected = 0;

  constructor(
    readonly windows: SimWindow[],
    readonly enforce: boolean,
  ) {}

  handle(now: number): SimResponse {
    const counts = this.windows.map((w) => this.admitted.filter((t) => t > now - w.windowMs).length);
    const violated = this.enforce ? this.windows.filter((w, i) => counts[i] >= w.quota) : [];
    if (violated.length === 0) {
      this.admitted.push(now);
      for (let i = 0; i < counts.length; i++) counts[i]++;
    } else {
      this.rejected++;
    }
    const newest = this.admitted.length > 0 ? this.admitted[this.admitted.length - 1] : now;
    const headers: Record<string, string> = {
      'ratelimit-policy': this.windows.map((w) => `${w.name};q=${w.quota};w=${w.windowMs / 1000}`).join(', '),
      ratelimit: this.windows
        .map((w, i) => {
          const t = counts[i] === 0 ? 0 : Math.max(0, Math.ceil((newest + w.windowMs - now) / 1000));
          return `${w.name};r=${Math.max(0, w.quota - counts[i])};t=${t}`;
        })
        .join(', '),
    };
    if (violated.length > 0) {
      let wait = 0;
      this.windows.forEach((w, i) => {
        if (counts[i] < w.quota) return;
        const inWindow = this.admitted.filter((t) => t > now - w.windowMs);
        wait = Math.max(wait, inWindow[counts[i] - w.quota] + w.windowMs - now);
      });
      headers['retry-after'] = String(Math.max(1, Math.ceil(wait / 1000)));
      return { status: 429, headers, serverTime: now };
    }
    return { status: 200, headers, serverTime: now };
  }

  /** The most admitted requests ever inside one window, per window (t counts in (t-w, t]). */
  maxInWindow(): number[] {
    return this.windows.map((w) => {
      let best = 0;
      for (let i = 0; i < this.admitted.length; i++) {
        const end = this.admitted[i];
        const n = this.admitted.filter((t) => t > end - w.windowMs && t <= end).length;
        best = Math.max(best, n);
      }
      return best;
    });
  }
}

export interface SimRequest {
  at: number;
  account: string;
  priority: Priority;
  latencyIn: number;
  latencyOut: number;
}

export interface SimOutcome {
  request: SimRequest;
  response?: SimResponse;
  error?: unknown;
  doneAt: number;
}

export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs every request to completion (or until `limitMs` of simulated time). */
export async function simulate(
  clock: ManualClock,
  scheduler: RateLimitScheduler,
  servers: Map<string, SimServer>,
  requests: SimRequest[],
  limitMs = 10_000_000,
): Promise<SimOutcome[]> {
  const outcomes: SimOutcome[] = [];
  for (const r of requests) {
    clock.setTimer(() => {
      const server = servers.get(r.account);
      if (!server) throw new Error(`no server for ${r.account}`);
      scheduler
        .run(
          { account: r.account, group: 'campaigns', budget: 'write', priority: r.priority },
          () =>
            new Promise<SimResponse>((resolve) => {
              clock.setTimer(() => {
                const res = server.handle(clock.now());
                clock.setTimer(() => resolve(res), r.latencyOut);
              }, r.latencyIn);
            }),
        )
        .then(
          (response) => outcomes.push({ request: r, response, doneAt: clock.now() }),
          (error: unknown) => outcomes.push({ request: r, error, doneAt: clock.now() }),
        );
    }, r.at);
  }
  for (;;) {
    await flush();
    const next = clock.nextTimerAt();
    if (next === undefined || next > limitMs) break;
    clock.fireNext(next);
  }
  await flush();
  return outcomes;
}

/** The earliest admission times a sliding-log server allows for FIFO arrivals. */
export function greedyAdmissions(arrivals: number[], windows: SimWindow[]): number[] {
  const out: number[] = [];
  for (let k = 0; k < arrivals.length; k++) {
    let t = Math.max(arrivals[k], k > 0 ? out[k - 1] : -Infinity);
    for (const w of windows) if (k - w.quota >= 0) t = Math.max(t, out[k - w.quota] + w.windowMs);
    out.push(t);
  }
  return out;
}

/** Window lengths (s) and quotas of the sandbox's three windows. */
export interface SandboxWindows {
  seconds: readonly [number, number, number];
  quotas: readonly [number, number, number];
}

/**
 * The sandbox's rate limiter as one budget's server (a write budget of its own tier), answering
 * with its headers and, like the sandbox's HTTP server, a Date header on the service's clock:
 * `clockOffsetMs` ahead of (or behind) the harness clock.
 */
export class SandboxLimiterServer implements SimServer {
  readonly admitted: number[] = [];
  rejected = 0;
  readonly #limiter: RateLimiter;
  readonly #offset: number;

  constructor(
    readonly windows: SandboxWindows,
    variants: Variants = {},
  ) {
    const [second, minute, hour] = windows.seconds;
    this.#limiter = new RateLimiter(
      {
        accounts: [{ account_id: 'a', name: 'A', type: 'ADVERTISER', created_at: '2026-11-01T00:00:00Z' }],
        clients: [],
        rate_limits: {
          windows: { second, minute, hour },
          tiers: { '9': { read: [1, 1, 1], write: [...windows.quotas] } },
          endpoint_tiers: { campaigns: 9 },
        },
      },
      variants,
    );
    this.#offset = variants.clock_offset_ms ?? 0;
  }

  handle(now: number): SimResponse {
    const serviceNow = now + this.#offset;
    const d = this.#limiter.check('a', 'campaigns', 'write', serviceNow);
    if (d.admitted) this.admitted.push(now);
    else this.rejected++;
    const headers = { date: new Date(serviceNow).toUTCString(), ...d.headers };
    return { status: d.admitted ? 200 : 429, headers, serverTime: now };
  }
}

/** The earliest admission times token buckets allow for FIFO arrivals (exact, whole ms). */
export function greedyBucketAdmissions(arrivals: number[], windows: SandboxWindows): number[] {
  const ms = windows.seconds.map((s) => s * 1000);
  const q = windows.quotas;
  // Levels in units of 1/w_ms token, as the sandbox keeps them.
  const levels = ms.map((w, i) => q[i] * w);
  let at = arrivals.length > 0 ? arrivals[0] : 0;
  const out: number[] = [];
  for (const arrival of arrivals) {
    let t = Math.max(arrival, at);
    for (let i = 0; i < ms.length; i++) {
      const level = Math.min(q[i] * ms[i], levels[i] + (t - at) * q[i]);
      if (level < ms[i]) t = Math.max(t, at + Math.ceil((ms[i] - levels[i]) / q[i]));
    }
    for (let i = 0; i < ms.length; i++) levels[i] = Math.min(q[i] * ms[i], levels[i] + (t - at) * q[i]) - ms[i];
    at = t;
    out.push(t);
  }
  return out;
}
