// The spec's rate-limit constants (8.1), written once: the sandbox limits requests with them, and
// the client takes them as its first guess of a budget before the service's headers tell it the
// real policy (DECISIONS client 6).

export type TierRow = readonly [number, number, number];
export interface TierQuotas {
  read: TierRow;
  write: TierRow;
}

/** Spec 8.1.3: GET, HEAD and OPTIONS draw from the read budget, every other method from the write budget. */
export function budgetOfMethod(method: string): keyof TierQuotas {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD' || m === 'OPTIONS' ? 'read' : 'write';
}

/** Window names in header order; tier rows list quotas in this same order. */
export const WINDOW_NAMES = ['second', 'minute', 'hour'] as const;
export type WindowName = (typeof WINDOW_NAMES)[number];

export const DEFAULT_WINDOWS_S: Readonly<Record<WindowName, number>> = { second: 1, minute: 60, hour: 3600 };

export const SPEC_TIERS: Readonly<Record<string, TierQuotas>> = {
  '1': { read: [40, 420, 5000], write: [10, 120, 1500] },
  '2': { read: [20, 120, 1500], write: [10, 60, 600] },
  '3': { read: [5, 60, 300], write: [2, 12, 120] },
  '4': { read: [2, 15, 150], write: [1, 8, 80] },
  '5': { read: [1, 5, 50], write: [1, 2, 20] },
  '6': { read: [1, 1, 10], write: [1, 1, 5] },
};

export const RATE_LIMIT_GROUPS = ['campaigns', 'campaigns.list'] as const;
export type RateLimitGroup = (typeof RATE_LIMIT_GROUPS)[number];

/** Spec 8.1.9: create is Tier 2, list is Tier 4. */
export const DEFAULT_ENDPOINT_TIERS: Readonly<Record<RateLimitGroup, number>> = {
  campaigns: 2,
  'campaigns.list': 4,
};

/** A documented window: its name, how many requests it admits, and how long it is. */
export interface DocumentedWindow {
  name: WindowName;
  quota: number;
  windowMs: number;
}

/** The documented windows of a group's read or write budget, or undefined for a group the spec does not limit. */
export function documentedWindows(group: string, budget: keyof TierQuotas): DocumentedWindow[] | undefined {
  const tier = (DEFAULT_ENDPOINT_TIERS as Readonly<Record<string, number>>)[group];
  const quotas = tier === undefined ? undefined : SPEC_TIERS[String(tier)]?.[budget];
  return quotas?.map((quota, i) => ({ name: WINDOW_NAMES[i], quota, windowMs: DEFAULT_WINDOWS_S[WINDOW_NAMES[i]] * 1000 }));
}

/**
 * Spec 8.1.1: accounts created after October 4, 2026 are limited. "After" is read as "from the
 * next UTC day on", so an account created at any time on 2026-10-04 is not limited.
 */
export const LIMITED_FROM_MS = Date.UTC(2026, 9, 5);
