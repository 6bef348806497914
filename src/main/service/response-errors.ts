// Turns a non-2xx answer into a ServiceError a person can act on. The campaign API answers
// {"http_status", "message"}, the push API {"httpStatus", "message"} (DECISIONS sandbox 5) and a
// real service may answer anything else (problem+json, errors[], ...): server-words.ts reads every
// common shape liberally, and nothing is required.
import { z } from 'zod';
import { parseRetryAfter, retryAfterDelayMs } from '../ratelimit/headers';
import { ServiceError } from './errors';
import type { HttpResponse } from './http-transport';
import { parseJsonLossless } from './lossless-json';
import type { RedactOptions } from './redaction';
import { readServerWords, type ServerWords } from './server-words';

const errorBodySchema = z.looseObject({ violated_policies: z.unknown().optional() });

/**
 * A whole answer's JSON, read losslessly (ids beyond 2^53 as their digits), or undefined. A byte
 * order mark before it is passed over (RFC 8259 8.1 lets a reader ignore one; some servers write it).
 */
export function parseJsonBody(body: Buffer): unknown {
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return undefined;
  try {
    return parseJsonLossless(text);
  } catch {
    return undefined;
  }
}

function mediaType(res: HttpResponse): string {
  const h = res.headers['content-type'];
  return (Array.isArray(h) ? h[0] : (h ?? '')).split(';')[0].trim().toLowerCase();
}

/**
 * The body as something to read words from: JSON when it parses, the text itself when the
 * service answered text/plain (a proxy or a plain framework error page), nothing otherwise (HTML
 * is markup, not words).
 */
function wordsBody(res: HttpResponse): unknown {
  const json = parseJsonBody(res.body);
  if (json !== undefined) return json;
  return mediaType(res) === 'text/plain' ? res.body.toString('utf8') : undefined;
}

/** The server's own words in an error answer, if it has any we can show (redacted, bounded). */
export function serverWords(
  res: HttpResponse,
  secrets: readonly (string | undefined)[],
  opts: RedactOptions = {},
): ServerWords | undefined {
  return readServerWords(wordsBody(res), secrets, { ...opts, status: res.status });
}

function violatedPolicies(body: unknown): string[] | undefined {
  const parsed = errorBodySchema.safeParse(body);
  const v = parsed.success ? parsed.data.violated_policies : undefined;
  if (!Array.isArray(v)) return undefined;
  return v.filter((x): x is string => typeof x === 'string' && x.length <= 64).slice(0, 16);
}

export interface ErrorContext {
  /** What was attempted, for messages: "create a campaign in acmeshoes". */
  what: string;
  /** Secrets used by this request, removed (in every spelling) from any server text we keep. */
  secrets: readonly (string | undefined)[];
  /** The client id of a token request, so the base64 of an echoed Basic header is removed too. */
  clientId?: string;
  now: number;
}

export function errorFromResponse(res: HttpResponse, ctx: ErrorContext): ServiceError {
  const body = parseJsonBody(res.body);
  const words = serverWords(res, ctx.secrets, ctx.clientId === undefined ? {} : { clientId: ctx.clientId });
  const said = words?.text;
  const status = res.status;
  const base = { status, requestWritten: true, ...(said ? { serverText: said } : {}) } as const;
  // The fields the service named, to be shown next to them.
  const named = words?.problems.length ? { problems: words.problems } : {};
  if (status === 400 || status === 422 || status === 409) {
    return new ServiceError({
      ...base,
      ...named,
      kind: 'validation',
      message: said ? `The service refused to ${ctx.what}: ${said}` : `The service refused to ${ctx.what} as invalid (${status}).`,
    });
  }
  if (status === 401) {
    return new ServiceError({
      ...base,
      kind: 'unauthorized',
      reason: 'credentials_rejected',
      message: `The service did not accept our credentials to ${ctx.what}${said ? ` (${said})` : ''}. Check the API credentials of this profile.`,
    });
  }
  if (status === 403) {
    return new ServiceError({
      ...base,
      kind: 'forbidden',
      message: `Not allowed to ${ctx.what}${said ? `: ${said}` : ''}. Ask the account manager to grant this client access.`,
    });
  }
  if (status === 404) {
    return new ServiceError({ ...base, kind: 'not_found', message: `Could not ${ctx.what}: ${(said ?? 'not found').replace(/\.$/, '')}.` });
  }
  if (status === 408) {
    // RFC 9110 15.5.9: the server did not receive the whole request in time and did not act on it;
    // the client may repeat it, whatever its method. Nothing was refused: it is a failure of the way
    // there, sent again like a 5xx, but known not to have been applied (no look-up needed).
    const retryAfterMs = retryAfterDelayMs(res.headers['retry-after'], res.headers.date, ctx.now);
    return new ServiceError({
      ...base,
      requestWritten: false,
      kind: 'server',
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      message: `The service did not receive the whole request to ${ctx.what} in time (408), so nothing was done. It can be sent again.`,
    });
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(res.headers['retry-after'], ctx.now);
    const violated = violatedPolicies(body);
    const wait = retryAfterMs !== undefined ? ` Try again in ${Math.ceil(retryAfterMs / 1000)} s.` : ' Try again later.';
    return new ServiceError({
      ...base,
      kind: 'rate_limited',
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      ...(violated ? { violatedPolicies: violated } : {}),
      message: `The service's rate limit stopped the request to ${ctx.what}${violated?.length ? ` (${violated.join(', ')} window)` : ''}. Nothing was changed.${wait}`,
    });
  }
  if (status >= 500) {
    // A 503 (or any 5xx) may say when to come back (RFC 9110 10.2.3), a date measured against the
    // answer's own Date: no retry goes sooner.
    const retryAfterMs = retryAfterDelayMs(res.headers['retry-after'], res.headers.date, ctx.now);
    return new ServiceError({
      ...base,
      kind: 'server',
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      message: `The service failed to ${ctx.what} (${status}${said ? `: ${said}` : ''}). ${retryAfterMs !== undefined ? `Try again in ${Math.ceil(retryAfterMs / 1000)} s.` : 'Try again in a moment.'}`,
    });
  }
  if (status >= 400) {
    return new ServiceError({
      ...base,
      ...named,
      kind: 'validation',
      message: `The service refused to ${ctx.what} (${status}${said ? `: ${said}` : ''}).`,
    });
  }
  return new ServiceError({
    ...base,
    kind: 'protocol',
    message: `The service answered the request to ${ctx.what} with an unexpected status ${status}.`,
  });
}

/**
 * A 2xx answer whose body we could not read: it was applied, but we do not know the result.
 * `reason` says what is wrong with it, when that is known ("it holds several lists of tasks").
 */
export function unreadableAnswer(what: string, status: number, reason?: string): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    status,
    requestWritten: true,
    message: `The service accepted the request to ${what} but its answer could not be read${reason ? `: ${reason}` : ''}. Refresh to see the result.`,
  });
}
