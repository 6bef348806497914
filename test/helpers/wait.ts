// Waiting for a condition instead of sleeping: a test that waits "long enough" is slow when the
// machine is fast and flaky when it is slow; one that polls for what it needs is neither.

/**
 * Polls `fn` until it returns a truthy value and returns that value; fails naming `what` after
 * `timeoutMs` (a net for what never comes, wide enough for a busy machine). For behaviour that
 * runs on real time (I/O, another process); behaviour on an injected clock is moved by advancing
 * the clock instead.
 */
export async function until<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}
