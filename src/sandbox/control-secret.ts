// The control API (/_sandbox/...) resets the world, injects faults and moves the clock, so only
// whoever started the sandbox may call it: each run has a secret, sent back in a header on every
// control request. A web page on another origin cannot learn it (no answer carries it, and no
// CORS header lets a page read an answer) and cannot send it without knowing it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The request header that carries the run's control secret. */
export const CONTROL_SECRET_HEADER = 'x-sandbox-control';

/** The environment variable `npm run sandbox` reads the secret from when no option gives one. */
export const CONTROL_SECRET_ENV = 'SANDBOX_CONTROL_SECRET';

/** A fresh secret: 32 random bytes, URL-safe. */
export function newControlSecret(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether a request's header value is the secret. Both are hashed first so that the comparison
 * takes the same time whatever the value's length and however much of it matches.
 */
export function controlSecretMatches(expected: string, given: string | string[] | undefined): boolean {
  const value = typeof given === 'string' ? given : '';
  return timingSafeEqual(digest(expected), digest(value)) && value.length > 0;
}
