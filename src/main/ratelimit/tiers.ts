// The documented tiers (spec 8.1) are only the first guess for a budget before a response has
// told us its real policy (DECISIONS client 6); nothing here is trusted once headers arrive.
import type { WindowPolicy } from './policy';

export type Budget = 'read' | 'write';

/** Endpoint groups the scheduler knows. Push has no documented limits and is its own group. */
export type EndpointGroup = 'campaigns' | 'campaigns.list' | 'push' | (string & {});

const windows = (second: number, minute: number, hour: number): WindowPolicy[] => [
  { name: 'second', quota: second, windowMs: 1_000 },
  { name: 'minute', quota: minute, windowMs: 60_000 },
  { name: 'hour', quota: hour, windowMs: 3_600_000 },
];

/** Spec 8.1.9: create is Tier 2 (writes), list is Tier 4 (reads). */
const DOCUMENTED: Record<string, Partial<Record<Budget, WindowPolicy[]>>> = {
  campaigns: { write: windows(10, 60, 600), read: windows(20, 120, 1500) },
  'campaigns.list': { read: windows(2, 15, 150), write: windows(1, 8, 80) },
};

/**
 * The starting guess for a budget: the documented tier, or 'unlimited' for groups without a
 * documented limit (they learn limits from headers if any ever appear).
 */
export function documentedGuess(group: EndpointGroup, budget: Budget): WindowPolicy[] | 'unlimited' {
  return DOCUMENTED[group]?.[budget] ?? 'unlimited';
}

/** HTTP methods that draw from the read budget (spec 8.1.3). */
export function budgetOfMethod(method: string): Budget {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD' || m === 'OPTIONS' ? 'read' : 'write';
}
