// What a rate-limit window is, and the two ways a service may refill one (spec 8.1 rule 4 says
// only "continuously"): a sliding log (a request counts for `w` after it was admitted) or a token
// bucket (`q` tokens that come back at q/w per second).

export interface WindowPolicy {
  name: string;
  quota: number;
  windowMs: number;
}

export type Refill = 'sliding_log' | 'token_bucket';

/**
 * What one report (`r`, `t` of a window right after the server admitted our request) says about
 * how the window refills, or undefined when it cannot tell.
 * - Sliding log: the request just admitted is the newest one counted, so the window is full again
 *   only when it leaves: t = w.
 * - Token bucket: full again once the tokens taken are back: t = (q - tokens) * w / q, with
 *   r <= tokens < r + 1.
 * One second either way is allowed for rounding. Short windows (1 s) and nearly empty buckets
 * give the same t under both, so they tell nothing.
 */
export function refillShownBy(policy: WindowPolicy, remaining: number, resetS: number | undefined): Refill | undefined {
  if (resetS === undefined || policy.quota <= 0) return undefined;
  const windowS = policy.windowMs / 1000;
  const asLog = resetS >= Math.ceil(windowS) - 1;
  const asBucket = resetS <= Math.ceil(((policy.quota - remaining) * windowS) / policy.quota) + 1;
  if (asLog === asBucket) return undefined;
  return asLog ? 'sliding_log' : 'token_bucket';
}
