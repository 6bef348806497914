// How both browser-mode servers (the app's and the problem page) write a complete answer: never
// cached, never sniffed as another type, framed by its exact length, under the page's own policy.
import type { ServerResponse } from 'node:http';

export function answerHeaders(contentType: string, contentSecurityPolicy: string): Record<string, string> {
  return {
    'content-type': contentType,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': contentSecurityPolicy,
  };
}

/** Writes the whole answer at once; `extra` adds or replaces headers (e.g. allow, location). */
export function sendWhole(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  text: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, { ...headers, ...extra, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** What a request that failed in a way nobody put in words is answered with (API and pages alike). */
export const FAILED_TO_ANSWER = 'Campaign Desk failed to answer. Try again.';
