// Admits requests to the service only when our model of their budget says they fit every window,
// so that the service never has to refuse one. Each budget (account x group x read/write) has its
// own queue and timer: one account's exhaustion or errors never hold up another's requests.
import { systemClock, type Clock, type TimerHandle } from '../clock/clock';
import { parseRateLimit, parseRateLimitPolicy, retryAfterDelayMs } from './headers';
import { documentedGuess, type Budget, type EndpointGroup } from './tiers';
import { BudgetModel, type ModelState, type WindowPolicy, type WindowView } from './window-model';

/** A person is waiting > queued outbox writes > background refresh. */
export const PRIORITIES = ['interactive', 'outbox', 'background'] as const;
export type Priority = (typeof PRIORITIES)[number];

export interface BudgetKey {
  account: string;
  group: EndpointGroup;
  budget: Budget;
}

export interface ScheduleOptions extends BudgetKey {
  priority?: Priority;
  signal?: AbortSignal;
}

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The part of an HTTP answer the scheduler learns from. */
export interface ScheduledResponse {
  status: number;
  headers: HeaderBag;
}

/** A request stopped before any byte of it left: nothing can have reached the service. */
export const CANCELLED_BEFORE_SENT = 'The request was cancelled before it was sent';

/**
 * Rejection of a request that was still queued when its signal fired or the scheduler closed:
 * it was never sent.
 */
export class QueueCancelledError extends Error {
  readonly requestWritten = false;
  constructor(message = CANCELLED_BEFORE_SENT) {
    super(message);
    this.name = 'QueueCancelledError';
  }
}

export interface BudgetSnapshot extends BudgetKey {
  state: ModelState;
  windows: WindowView[];
  /** Until a Retry-After received on this budget has passed. */
  blockedForMs: number;
  inFlight: number;
  queued: Record<Priority, number>;
  /** Until every queued request would have been sent; null when that depends on an answer. */
  drainEstimateMs: number | null;
}

export interface SchedulerSnapshot {
  at: number;
  budgets: BudgetSnapshot[];
  queued: Record<Priority, number>;
  totals: { sent: number; rateLimited: number; retried: number };
}

export interface SchedulerOptions {
  clock?: Clock;
  /** Safety margin added to each window expiry (ms). */
  marginMs?: number;
  /** 429s retried transparently per request before it fails as rate limited. */
  maxRateLimitRetries?: number;
  /** Cap on concurrent requests per budget, also for unlimited ones. */
  maxInFlightPerBudget?: number;
  /** The guess before a budget's first answer; defaults to the documented tiers. */
  initialGuess?: (group: EndpointGroup, budget: Budget) => readonly WindowPolicy[] | 'unlimited';
}

interface Item {
  priority: Priority;
  attempt: () => Promise<ScheduledResponse>;
  resolve: (r: ScheduledResponse) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  retries: number;
}

interface BudgetQueue {
  key: BudgetKey;
  model: BudgetModel;
  queues: Record<Priority, Item[]>;
  timer?: TimerHandle;
}

function header(headers: HeaderBag, name: string): string | readonly string[] | undefined {
  if (name in headers) return headers[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(headers)) if (k.toLowerCase() === lower) return headers[k];
  return undefined;
}

function notSent(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { requestWritten?: unknown }).requestWritten === false;
}

const emptyCounts = (): Record<Priority, number> => ({ interactive: 0, outbox: 0, background: 0 });

export class RateLimitScheduler {
  readonly #clock: Clock;
  readonly #marginMs: number;
  readonly #maxRetries: number;
  readonly #maxInFlight: number;
  readonly #guess: (group: EndpointGroup, budget: Budget) => readonly WindowPolicy[] | 'unlimited';
  readonly #budgets = new Map<string, BudgetQueue>();
  readonly #listeners = new Set<(s: SchedulerSnapshot) => void>();
  #notifyQueued = false;
  #closed = false;
  #seq = 0;
  #totals = { sent: 0, rateLimited: 0, retried: 0 };

  constructor(opts: SchedulerOptions = {}) {
    this.#clock = opts.clock ?? systemClock;
    this.#marginMs = opts.marginMs ?? 10;
    this.#maxRetries = opts.maxRateLimitRetries ?? 10;
    this.#maxInFlight = opts.maxInFlightPerBudget ?? 16;
    this.#guess = opts.initialGuess ?? documentedGuess;
  }

  /**
   * Sends `attempt` once its budget allows, and again after each 429 once Retry-After has passed
   * (a refused request did nothing). Resolves with the final answer, which is a 429 only when the
   * retries ran out. `attempt` failures are passed through; one carrying `requestWritten: false`
   * is known not to have reached the server and is not counted against the budget.
   */
  run<R extends ScheduledResponse>(opts: ScheduleOptions, attempt: () => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.#closed) return reject(new QueueCancelledError('The scheduler is closed'));
      if (opts.signal?.aborted) return reject(new QueueCancelledError());
      const b = this.#budget(opts);
      const item: Item = {
        priority: opts.priority ?? 'interactive',
        attempt,
        resolve: resolve as (r: ScheduledResponse) => void,
        reject,
        signal: opts.signal,
        retries: 0,
      };
      if (opts.signal) {
        item.onAbort = () => {
          const q = b.queues[item.priority];
          const i = q.indexOf(item);
          if (i >= 0) {
            q.splice(i, 1);
            reject(new QueueCancelledError());
            this.#pump(b);
          }
        };
        opts.signal.addEventListener('abort', item.onAbort, { once: true });
      }
      b.queues[item.priority].push(item);
      this.#pump(b);
    });
  }

  snapshot(): SchedulerSnapshot {
    const now = this.#clock.now();
    const queued = emptyCounts();
    const budgets: BudgetSnapshot[] = [];
    for (const b of this.#budgets.values()) {
      const counts = emptyCounts();
      let total = 0;
      for (const p of PRIORITIES) {
        counts[p] = b.queues[p].length;
        queued[p] += counts[p];
        total += counts[p];
      }
      const drain = b.model.drainEstimate(now, total);
      budgets.push({
        ...b.key,
        state: b.model.state,
        windows: b.model.windows(now),
        blockedForMs: Math.max(0, b.model.blockedUntil - now),
        inFlight: b.model.inFlight,
        queued: counts,
        drainEstimateMs: Number.isFinite(drain) ? drain : null,
      });
    }
    return { at: now, budgets, queued, totals: { ...this.#totals } };
  }

  /**
   * How long `n` more requests of one budget would take to go out, by its model now (the rate-limit
   * view's "drained in about ..."), without creating the budget: null when nothing has used it
   * since start-up, so its limits are not known. `state` says whether the model is only a guess.
   */
  estimate(key: BudgetKey, n: number): { state: ModelState; drainMs: number | null } | null {
    const b = this.#budgets.get(`${key.account}\u0000${key.group}\u0000${key.budget}`);
    if (!b) return null;
    const drain = b.model.drainEstimate(this.#clock.now(), n);
    return { state: b.model.state, drainMs: Number.isFinite(drain) ? drain : null };
  }

  /** Calls `listener` after state changes (coalesced per tick). Returns an unsubscribe. */
  subscribe(listener: (s: SchedulerSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Stops timers and fails everything still queued; requests in flight finish on their own. */
  close(): void {
    this.#closed = true;
    for (const b of this.#budgets.values()) {
      b.timer?.cancel();
      b.timer = undefined;
      for (const p of PRIORITIES) {
        for (const item of b.queues[p].splice(0)) {
          this.#detach(item);
          item.reject(new QueueCancelledError('The scheduler is closed'));
        }
      }
    }
    this.#listeners.clear();
  }

  #budget(key: BudgetKey): BudgetQueue {
    const k = `${key.account}\u0000${key.group}\u0000${key.budget}`;
    let b = this.#budgets.get(k);
    if (!b) {
      b = {
        key: { account: key.account, group: key.group, budget: key.budget },
        model: new BudgetModel(this.#guess(key.group, key.budget), { marginMs: this.#marginMs }),
        queues: { interactive: [], outbox: [], background: [] },
      };
      this.#budgets.set(k, b);
    }
    return b;
  }

  #head(b: BudgetQueue): Item | undefined {
    for (const p of PRIORITIES) if (b.queues[p].length > 0) return b.queues[p][0];
    return undefined;
  }

  #pump(b: BudgetQueue): void {
    b.timer?.cancel();
    b.timer = undefined;
    while (!this.#closed) {
      const head = this.#head(b);
      if (!head || b.model.inFlight >= this.#maxInFlight) break;
      const now = this.#clock.now();
      const at = b.model.nextAdmitAt(now);
      if (at > now) {
        // Infinity: only an answer can free a slot, and every answer pumps again.
        if (Number.isFinite(at)) b.timer = this.#clock.setTimer(() => this.#pump(b), at - now);
        break;
      }
      b.queues[head.priority].shift();
      this.#start(b, head, now);
    }
    this.#notify();
  }

  #start(b: BudgetQueue, item: Item, now: number): void {
    const id = ++this.#seq;
    b.model.admit(id, now);
    this.#totals.sent++;
    let p: Promise<ScheduledResponse>;
    try {
      p = item.attempt();
    } catch (err) {
      p = Promise.reject(err);
    }
    p.then(
      (res) => {
        const at = this.#clock.now();
        b.model.onResponse(id, at, {
          status: res.status,
          policy: parseRateLimitPolicy(header(res.headers, 'ratelimit-policy')),
          remaining: parseRateLimit(header(res.headers, 'ratelimit')),
          retryAfterMs: retryAfterDelayMs(header(res.headers, 'retry-after'), header(res.headers, 'date'), at),
        });
        if (res.status === 429) this.#totals.rateLimited++;
        if (res.status === 429 && item.retries < this.#maxRetries && !item.signal?.aborted && !this.#closed) {
          item.retries++;
          this.#totals.retried++;
          b.queues[item.priority].unshift(item);
        } else {
          this.#detach(item);
          item.resolve(res);
        }
        this.#pump(b);
      },
      (err: unknown) => {
        if (notSent(err)) b.model.onNotSent(id);
        else b.model.onUnknownOutcome(id, this.#clock.now());
        this.#detach(item);
        item.reject(err);
        this.#pump(b);
      },
    );
  }

  #detach(item: Item): void {
    if (item.signal && item.onAbort) item.signal.removeEventListener('abort', item.onAbort);
  }

  #notify(): void {
    if (this.#notifyQueued || this.#listeners.size === 0) return;
    this.#notifyQueued = true;
    queueMicrotask(() => {
      this.#notifyQueued = false;
      if (this.#listeners.size === 0) return;
      const snap = this.snapshot();
      for (const l of this.#listeners) l(snap);
    });
  }
}
