// Token requests of both flows (spec 4.4, 4.5). Token values live in TokenSet objects that refuse
// to serialise or print them, so a log line or an IPC message cannot carry one by accident.
import { z } from 'zod';
import type { Clock } from '../clock/clock';
import { ServiceError } from './errors';
import type { HttpResponse, HttpTransport } from './http-transport';
import { errorFromResponse, parseJsonBody, serverWords, type ErrorContext } from './response-errors';

/**
 * An optional member of a token answer, read liberally: RFC 6749 5.1 makes everything but
 * access_token and token_type optional and tells the client to ignore what it does not know, and
 * servers write a member they have no value for as null or "" as often as they leave it out
 * (serialisers of typed token classes do). Such a member, or one of a type we cannot use, is
 * read as absent rather than failing a token we could otherwise use.
 */
const absentUnless = <T extends z.ZodType>(schema: T) =>
  z
    .unknown()
    .transform((v) => {
      const r = schema.safeParse(v);
      return r.success ? (r.data as z.output<T>) : undefined;
    })
    .optional();

const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  // "bearer" in any case (RFC 6749 5.1: case-insensitive); we always send it as Bearer anyway.
  token_type: absentUnless(z.string()),
  // A number per the spec; a numeric string is accepted from a looser server. Zero or less says
  // nothing usable (a token already dead), so the default lifetime and the 401 renewal take over.
  expires_in: absentUnless(
    z
      .union([
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d+(\.\d+)?$/)
          .transform(Number),
      ])
      .refine((n) => Number.isFinite(n) && n > 0),
  ),
  refresh_token: absentUnless(z.string().min(1)),
});

const tokenErrorSchema = z.looseObject({ error: z.string() });

/** Used when a token answer has no expires_in: the spec's token responses carry 3600. */
const DEFAULT_LIFETIME_S = 3600;

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export class TokenSet {
  readonly #access: string;
  readonly #refresh: string | undefined;
  /** Epoch ms after which the service will refuse the access token. */
  readonly expiresAt: number;
  readonly lifetimeMs: number;

  constructor(access: string, refresh: string | undefined, issuedAt: number, lifetimeMs: number) {
    this.#access = access;
    this.#refresh = refresh;
    this.lifetimeMs = lifetimeMs;
    this.expiresAt = issuedAt + lifetimeMs;
  }

  get accessToken(): string {
    return this.#access;
  }

  /** For the keychain only (DECISIONS client 3); the spec does not show how to use it. */
  get refreshToken(): string | undefined {
    return this.#refresh;
  }

  toJSON(): { expiresAt: number; accessToken: string; refreshToken?: string } {
    return { expiresAt: this.expiresAt, accessToken: '[redacted]', ...(this.#refresh ? { refreshToken: '[redacted]' } : {}) };
  }

  [INSPECT](): string {
    return `TokenSet { expiresAt: ${new Date(this.expiresAt).toISOString()}, accessToken: [redacted] }`;
  }
}

/**
 * How the client authenticates to the token endpoint (RFC 6749 2.3.1): `form`, client_id and
 * client_secret in the request body as the interface shows (4.4, 4.5), or `basic`, HTTP Basic,
 * which every RFC server MUST accept and which a server may require, refusing the body's.
 */
export type ClientAuthMethod = 'form' | 'basic';

/** The method a token endpoint was last found to accept: kept by the caller across requests. */
export interface ClientAuthMemory {
  method: ClientAuthMethod;
}

export interface TokenRequestBase {
  transport: HttpTransport;
  clock: Clock;
  clientId: string;
  secret: string;
  signal?: AbortSignal;
  /** Tried first, and updated when the other method is the one that worked (default: form). */
  clientAuth?: ClientAuthMemory;
}

/** Spec 4.5: the client-credentials token endpoint, under {auth_url}. */
export const TOKEN_PATH = '/authentication/oauth/token';

/** Spec 4.5: POST {auth_url}/authentication/oauth/token, grant_type client_credentials. */
export function requestClientCredentialsToken(opts: TokenRequestBase & { authUrl: string }): Promise<TokenSet> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  return tokenRequest(opts, joinUrl(opts.authUrl, TOKEN_PATH), form, 'get an access token');
}

/** Spec 4.4: POST {base_url}/core/oauth/token, grant_type authorization_code. */
export function exchangeAuthorizationCode(
  opts: TokenRequestBase & { baseUrl: string; code: string; redirectUri: string },
): Promise<TokenSet> {
  const form = new URLSearchParams({ code: opts.code, redirect_uri: opts.redirectUri, grant_type: 'authorization_code' });
  return tokenRequest(opts, joinUrl(opts.baseUrl, '/core/oauth/token'), form, 'complete the sign-in', [opts.code]);
}

/** RFC 6749 2.3.1 (and Appendix B): each of id and secret form-encoded before they are joined. */
function formEncoded(s: string): string {
  return new URLSearchParams([['', s]]).toString().slice(1);
}

/** The request's body and headers with the client's credentials in them, the way `method` says. */
function authenticated(
  form: URLSearchParams,
  method: ClientAuthMethod,
  clientId: string,
  secret: string,
): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const body = new URLSearchParams(form);
  if (method === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${formEncoded(clientId)}:${formEncoded(secret)}`, 'utf8').toString('base64')}`;
  } else {
    body.set('client_id', clientId);
    body.set('client_secret', secret);
  }
  return { body: body.toString(), headers };
}

/** The RFC 6749 5.2 error code of a token answer, if it has one. */
function oauthErrorCode(res: HttpResponse): string | undefined {
  const parsed = tokenErrorSchema.safeParse(parseJsonBody(res.body));
  return parsed.success ? parsed.data.error : undefined;
}

/**
 * The token endpoint may have refused how the client authenticated, not who it is: an
 * `invalid_client` error (RFC 6749 5.2: 401, or 400 when no Authorization header was sent), an
 * `invalid_request` (5.2 also uses it for "an unsupported parameter" and "more than one mechanism
 * for authenticating the client", which is how some servers refuse a body's client_secret), or a
 * 401 that challenges for Basic. Worth one try with the other method.
 */
function refusedClientAuth(res: HttpResponse): boolean {
  if (res.status !== 400 && res.status !== 401) return false;
  const code = oauthErrorCode(res);
  if (code === 'invalid_client' || code === 'invalid_request') return true;
  const challenge = res.headers['www-authenticate'];
  return res.status === 401 && (Array.isArray(challenge) ? challenge : [challenge ?? '']).some((c) => /(^|[\s,])basic(\s|,|$)/i.test(c));
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

async function tokenRequest(
  opts: TokenRequestBase,
  url: string,
  form: URLSearchParams,
  what: string,
  extraSecrets: string[] = [],
): Promise<TokenSet> {
  // The lifetime counts from before the request left, so we never think a token fresher than it is.
  let issuedAt = opts.clock.now();
  const first = opts.clientAuth?.method ?? 'form';
  const post = (method: ClientAuthMethod) =>
    opts.transport.send({ method: 'POST', url, ...authenticated(form, method, opts.clientId, opts.secret), signal: opts.signal });
  let res = await post(first);
  if (refusedClientAuth(res)) {
    // A server may take the credentials only one way (RFC 6749 2.3.1): the other is tried once,
    // and the way that worked is remembered. If both fail, the verdict on the credentials
    // themselves (invalid_client) is the one reported, else the first refusal. A code exchange
    // may try twice too: a server checks the client before it looks at the code.
    const other: ClientAuthMethod = first === 'form' ? 'basic' : 'form';
    const retriedAt = opts.clock.now();
    const second = await post(other);
    if (second.status >= 200 && second.status < 300) {
      res = second;
      issuedAt = retriedAt;
      if (opts.clientAuth) opts.clientAuth.method = other;
    } else if (notAboutTheRequest(second.status)) {
      // The other method was not judged (the server was unavailable, limited, or did not receive it
      // in time): the first refusal may only have been about the method, so it is no verdict on
      // the credentials. The failure is reported as what it is, and the token asked for again.
      res = second;
    } else if (oauthErrorCode(res) !== 'invalid_client' && oauthErrorCode(second) === 'invalid_client') {
      res = second;
    }
  }
  // Everything secret this request carried: a server that echoes the form body (or the Basic
  // header) in its error must not get any of it into a message.
  const secrets = [opts.secret, ...extraSecrets];
  if (res.status < 200 || res.status >= 300) throw tokenError(res, { what, secrets, clientId: opts.clientId, now: opts.clock.now() });
  const parsed = tokenResponseSchema.safeParse(parseJsonBody(res.body));
  if (!parsed.success) {
    throw new ServiceError({
      kind: 'protocol',
      status: res.status,
      requestWritten: true,
      message: `The authorization server's answer could not be read, so we could not ${what}.`,
    });
  }
  const lifetimeS = parsed.data.expires_in ?? DEFAULT_LIFETIME_S;
  return new TokenSet(parsed.data.access_token, parsed.data.refresh_token, issuedAt, lifetimeS * 1000);
}

/**
 * An answer about the way there, not about our request: the server unavailable or failing (5xx),
 * limited (429), or not having received it in time (408, RFC 9110 15.5.9). It says nothing of the
 * credentials, whatever error code its body carries.
 */
const notAboutTheRequest = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** RFC 6749 5.2 errors, in words a person can act on. */
function tokenError(res: HttpResponse, ctx: ErrorContext): ServiceError {
  const parsed = tokenErrorSchema.safeParse(parseJsonBody(res.body));
  // Whatever error code its body carries, such an answer is read as HTTP says.
  if (!parsed.success || notAboutTheRequest(res.status)) return errorFromResponse(res, ctx);
  // "invalid_client: Client authentication failed", plus anything else the server said.
  const said = serverWords(res, ctx.secrets, { clientId: ctx.clientId })?.text ?? 'error';
  const what = ctx.what;
  const base = { status: res.status, requestWritten: true } as const;
  switch (parsed.data.error) {
    case 'invalid_client':
    case 'unauthorized_client':
      return new ServiceError({
        ...base,
        kind: 'unauthorized',
        reason: 'credentials_rejected',
        message: `The authorization server refused the client id or secret (${said}). Check the API credentials of this profile.`,
      });
    case 'invalid_grant':
      return new ServiceError({
        ...base,
        kind: 'unauthorized',
        reason: 'sign_in_required',
        message: `The sign-in could not be completed (${said}). Sign in again.`,
      });
    case 'access_denied':
      return new ServiceError({ ...base, kind: 'forbidden', message: `Access was denied (${said}).` });
    default:
      return new ServiceError({ ...base, kind: 'validation', message: `The authorization server refused to ${what} (${said}).` });
  }
}
