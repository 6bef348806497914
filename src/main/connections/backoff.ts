// Retry timing for the outbox and the connection probe: exponential with full jitter above a
// floor, so that many queued items (or many app instances) do not retry in lock step.

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 5 * 60_000 };
export const DEFAULT_PROBE_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 30_000 };

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1). Half the exponential step is fixed,
 * half random: a retry never comes sooner than half its step, and never later than the cap.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, Math.min(30, attempt - 1)));
  return Math.round(step / 2 + random() * (step / 2));
}
