// The authorization server (spec 4.3-4.5, 5; RFC 6749): the sign-in page of the authorization
// code flow and the two token endpoints. Error descriptions never repeat a secret, a code or a
// password back, except under the token_error_echo variant: a careless real server may quote the
// request it refused, and the client must keep what it quotes out of everything it stores or shows.
import { authorizeErrorHtml, authorizeFormHtml } from './authorize-page';
import { AUTH_CODE_TTL_MS, type SandboxCore } from './core';
import { htmlReply, isFormContent, jsonReply, type Reply, type RequestContext, type Route } from './http';
import { opaqueToken, secretMatches } from './state';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthError(status: number, error: string, description: string, headers?: Record<string, string>): Reply {
  return jsonReply(status, { error, error_description: description }, { ...NO_STORE, ...headers });
}

type TokenFailure = (status: number, error: string, description: string, headers?: Record<string, string>) => Reply;

/**
 * The token endpoint's error replies. Under token_error_echo each description ends with the raw
 * request body (client_secret and code included, form-encoded as they arrived).
 */
function tokenFailures(core: SandboxCore, ctx: RequestContext): TokenFailure {
  if (!core.variants.token_error_echo) return oauthError;
  const echo = ctx.body.toString('utf8');
  return (status, error, description, headers) => oauthError(status, error, `${description} (request: ${echo})`, headers);
}

type BasicCredentials = { id: string; secret: string } | 'malformed' | undefined;

/** RFC 6749 2.3.1: id and secret are form-encoded, joined by ':', then base64. */
function basicCredentials(header: string | undefined): BasicCredentials {
  const m = header === undefined ? null : /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (m === null) return header !== undefined && /^Basic\b/i.test(header) ? 'malformed' : undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

const TOKEN_PARAMS = ['grant_type', 'client_id', 'client_secret', 'code', 'redirect_uri'];

function token(core: SandboxCore, ctx: RequestContext): Reply {
  const fail = tokenFailures(core, ctx);
  const invalidRequest = (description: string): Reply => fail(400, 'invalid_request', description);
  if (!isFormContent(ctx.headers)) return invalidRequest('Content-Type must be application/x-www-form-urlencoded');
  const form = new URLSearchParams(ctx.body.toString('utf8'));
  for (const key of TOKEN_PARAMS) {
    if (form.getAll(key).length > 1) return invalidRequest(`Parameter ${key} must not be repeated`);
  }
  const basic = basicCredentials(ctx.headers.authorization);
  const challenge = { 'www-authenticate': 'Basic realm="sandbox"' };
  if (basic === 'malformed') return fail(401, 'invalid_client', 'Malformed HTTP Basic client credentials', challenge);
  const grant = form.get('grant_type');
  if (grant === null || grant === '') return invalidRequest('Missing required parameter: grant_type');
  if (grant !== 'client_credentials' && grant !== 'authorization_code') {
    return fail(400, 'unsupported_grant_type', `grant_type ${grant.slice(0, 50)} is not supported`);
  }
  // token_client_auth: a server that takes client credentials through HTTP Basic only (RFC 6749
  // 2.3.1: Basic MUST be supported, credentials in the body are NOT RECOMMENDED and MAY be refused).
  const basicOnly = core.variants.token_client_auth;
  if (basicOnly !== undefined && basic === undefined) {
    const description = 'Client authentication failed: use HTTP Basic with the client id and secret';
    if (basicOnly === 'basic') return fail(401, 'invalid_client', description, challenge);
    if (basicOnly === 'basic_400') return fail(400, 'invalid_client', description);
    // RFC 6749 5.2: invalid_request also covers "an unsupported parameter" and "more than one
    // mechanism for authenticating the client", which is how some servers word this refusal.
    return invalidRequest('client_secret is not accepted in the request body; authenticate with HTTP Basic');
  }
  if (basic !== undefined) {
    if (form.has('client_secret')) return invalidRequest('Use one client authentication method: HTTP Basic or client_secret, not both');
    if (form.has('client_id') && form.get('client_id') !== basic.id)
      return invalidRequest('client_id does not match the HTTP Basic credentials');
  }
  const clientId = basic?.id ?? form.get('client_id') ?? '';
  const secret = basic?.secret ?? form.get('client_secret') ?? '';
  if (clientId === '') return invalidRequest('Missing required parameter: client_id');
  if (secret === '') return invalidRequest('Missing required parameter: client_secret');
  const code = form.get('code') ?? '';
  const redirectUri = form.get('redirect_uri') ?? '';
  if (grant === 'authorization_code') {
    if (code === '') return invalidRequest('Missing required parameter: code');
    if (redirectUri === '') return invalidRequest('Missing required parameter: redirect_uri');
  }
  const client = core.world.clients.get(clientId);
  if (client === undefined || !secretMatches(client, secret)) {
    return fail(401, 'invalid_client', 'Client authentication failed: unknown client or wrong secret', challenge);
  }
  const ttlS = core.tokenTtlS;
  const issued = (fields: { access_token: string; refresh_token?: string }): Reply => tokenAnswer(core, fields, ttlS);
  const latestOnly = core.variants.token_per_client === 'latest_only';
  if (grant === 'client_credentials') {
    return issued({ access_token: core.world.issueToken(client.id, ctx.now, ttlS * 1000, latestOnly) });
  }
  const rec = core.world.codes.get(code);
  if (rec === undefined || ctx.now >= rec.expiresAt) return fail(400, 'invalid_grant', 'Authorization code is invalid or expired');
  if (rec.used) {
    // RFC 6749 4.1.2: a code seen twice may have been stolen; what it bought is revoked.
    for (const t of rec.tokens) core.world.tokens.delete(t);
    return fail(400, 'invalid_grant', 'Authorization code was already used');
  }
  if (rec.clientId !== client.id) return fail(400, 'invalid_grant', 'Authorization code was issued to another client');
  if (rec.redirectUri !== redirectUri) return fail(400, 'invalid_grant', 'redirect_uri does not match the authorization request');
  rec.used = true;
  const access = core.world.issueToken(client.id, ctx.now, ttlS * 1000, latestOnly);
  rec.tokens.push(access);
  return issued({ access_token: access, refresh_token: opaqueToken() });
}

/**
 * A token answer (RFC 6749 5.1) as the token_response variant spells it. By default the
 * interface's own form: token_type "bearer", expires_in a number, refresh_token only for a code.
 * - spelled: token_type "Bearer" (5.1: case-insensitive), expires_in as a numeric string, the
 *   granted scope echoed (5.1 lets a server always send it) and a member no client knows (5.1:
 *   "The client MUST ignore unrecognized value names").
 * - nulls: token_type "BEARER", and every member the server has no value for written as null
 *   rather than left out (refresh_token of a client-credentials token, scope), as serialisers
 *   of typed token classes do; a value-less member means the same as an absent one.
 */
function tokenAnswer(core: SandboxCore, fields: { access_token: string; refresh_token?: string }, ttlS: number): Reply {
  switch (core.variants.token_response) {
    case 'spelled':
      return jsonReply(
        200,
        { ...fields, token_type: 'Bearer', expires_in: String(ttlS), scope: 'campaigns push', jti: opaqueToken().slice(0, 16) },
        NO_STORE,
      );
    case 'nulls':
      return jsonReply(
        200,
        {
          access_token: fields.access_token,
          token_type: 'BEARER',
          expires_in: ttlS,
          refresh_token: fields.refresh_token ?? null,
          scope: null,
        },
        NO_STORE,
      );
    default:
      return jsonReply(
        200,
        {
          access_token: fields.access_token,
          token_type: 'bearer',
          expires_in: ttlS,
          ...(fields.refresh_token ? { refresh_token: fields.refresh_token } : {}),
        },
        NO_STORE,
      );
  }
}

function redirect(location: string): Reply {
  return { status: 302, headers: { location, 'cache-control': 'no-store' } };
}

function redirectWith(redirectUri: string, params: Record<string, string | undefined>): Reply {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.append(k, v);
  return redirect(u.toString());
}

const errorPage = (status: number, message: string): Reply => htmlReply(status, authorizeErrorHtml(message));

interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  responseType: string;
  state?: string;
}

/**
 * Checks client and redirect_uri first: until both are known good, nothing may redirect (an open
 * redirector otherwise). After that, problems go back to the client by redirect (RFC 6749 4.1.2.1).
 */
function checkAuthorize(core: SandboxCore, p: URLSearchParams): AuthorizeRequest | Reply {
  for (const key of ['client_id', 'redirect_uri']) {
    if (p.getAll(key).length > 1) return errorPage(400, `Parameter ${key} must not be repeated`);
  }
  const clientId = p.get('client_id') ?? '';
  const redirectUri = p.get('redirect_uri') ?? '';
  if (clientId === '') return errorPage(400, 'The request has no client_id');
  const client = core.world.clients.get(clientId);
  if (client === undefined) return errorPage(400, 'Unknown client');
  if (redirectUri === '') return errorPage(400, 'The request has no redirect_uri');
  if (!client.redirectUris.has(redirectUri)) return errorPage(400, 'The redirect_uri is not registered for this client');
  // authorize_state "dropped": the redirect is exactly spec 4.3's `<redirect_uri>?code=...`, the
  // client's state not carried back (a server that does not know the parameter ignores it).
  const state = core.variants.authorize_state === 'dropped' ? undefined : (p.get('state') ?? undefined);
  for (const key of ['response_type', 'state']) {
    if (p.getAll(key).length > 1)
      return redirectWith(redirectUri, { error: 'invalid_request', error_description: `Parameter ${key} must not be repeated`, state });
  }
  const responseType = p.get('response_type');
  if (responseType === null || responseType === '') {
    return redirectWith(redirectUri, { error: 'invalid_request', error_description: 'response_type is required', state });
  }
  if (responseType !== 'code') return redirectWith(redirectUri, { error: 'unsupported_response_type', state });
  return { clientId, redirectUri, responseType, state };
}

function authorizePage(core: SandboxCore, ctx: RequestContext): Reply {
  const r = checkAuthorize(core, ctx.query);
  if ('status' in r) return r;
  return htmlReply(200, authorizeFormHtml(r));
}

function authorizeSubmit(core: SandboxCore, ctx: RequestContext): Reply {
  if (!isFormContent(ctx.headers)) return errorPage(400, 'The sign-in form must be sent as application/x-www-form-urlencoded');
  const form = new URLSearchParams(ctx.body.toString('utf8'));
  const r = checkAuthorize(core, form);
  if ('status' in r) return r;
  if (form.get('decision') === 'deny') return redirectWith(r.redirectUri, { error: 'access_denied', state: r.state });
  const client = core.world.clients.get(r.clientId)!;
  const username = form.get('username') ?? '';
  const password = client.users.get(username);
  if (password === undefined || password !== (form.get('password') ?? '')) {
    return htmlReply(401, authorizeFormHtml({ ...r, username, error: 'Wrong user name or password' }));
  }
  const code = core.world.issueCode(client.id, r.redirectUri, ctx.now, AUTH_CODE_TTL_MS);
  return redirectWith(r.redirectUri, { code, state: r.state });
}

export function authRoutes(core: SandboxCore): Route[] {
  const authorize = {
    GET: (ctx: RequestContext) => authorizePage(core, ctx),
    POST: (ctx: RequestContext) => authorizeSubmit(core, ctx),
  };
  const tokenEndpoint = { POST: (ctx: RequestContext) => token(core, ctx) };
  return [
    { pattern: /^\/authentication\/oauth\/authorize\/?$/, api: 'html', methods: authorize },
    { pattern: /^\/authentication\/oauth\/token$/, api: 'oauth', methods: tokenEndpoint },
    { pattern: /^\/core\/oauth\/token$/, api: 'oauth', methods: tokenEndpoint },
  ];
}
