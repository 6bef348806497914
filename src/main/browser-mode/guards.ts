// Who may talk to the browser-mode server. It listens on loopback, but loopback is shared with
// every local process and every web page the user opens (DNS rebinding, cross-site requests), so
// a request must name our own host, come from our own origin (when a browser says where it comes
// from), and carry the per-run token.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison; hashing first makes both sides the same length whatever was sent. */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 512) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

export interface Guards {
  /** The Host header must be exactly 127.0.0.1:PORT or localhost:PORT (no other name can rebind to us). */
  hostAllowed(host: string | undefined): boolean;
  /** An Origin header, when present, must be this server's own origin. */
  originAllowed(origin: string | undefined): boolean;
  /** The origins a page of ours can have. */
  origins: readonly string[];
}

export function createGuards(port: number): Guards {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const originSet = new Set(origins);
  return {
    hostAllowed: (host) => typeof host === 'string' && hosts.has(host.toLowerCase()),
    originAllowed: (origin) => origin === undefined || originSet.has(origin),
    origins,
  };
}
