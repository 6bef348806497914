// Which service addresses a connection may use. Plain http:// carries the client secret and every
// token in clear text, so it is allowed only to this computer (loopback: a local sandbox or a
// proxy the person runs); anything else must be https://.

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a host name or address refers to this computer. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(h) || h.endsWith('.localhost')) return true;
  // All of 127.0.0.0/8 is loopback.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why this address may not be used for a connection, or null when it may. */
export function serviceAddressProblem(address: string): string | null {
  let u: URL;
  try {
    u = new URL(address);
  } catch {
    return 'is not a web address';
  }
  if (u.protocol === 'https:') return null;
  if (u.protocol !== 'http:') return 'must start with https://';
  if (isLoopbackHost(u.hostname)) return null;
  return `uses plain http://, which would send the client secret and tokens unencrypted to ${u.hostname}; use https:// (plain http:// is allowed only for this computer: localhost, 127.0.0.1, ::1)`;
}
