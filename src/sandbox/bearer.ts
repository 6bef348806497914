// Bearer authentication of the campaign and push APIs (spec 5.5, RFC 6750).
import { apiError, type ApiKind, type Reply, type RequestContext } from './http';
import type { SandboxCore } from './core';
import type { ClientRec } from './state';

export const INVALID_TOKEN_MESSAGE = 'Invalid or expired access token';

export type AuthResult = { client: ClientRec; reply?: undefined } | { client?: undefined; reply: Reply };

export function authenticate(core: SandboxCore, ctx: RequestContext, api: ApiKind): AuthResult {
  const header = ctx.headers.authorization;
  const m = header === undefined ? null : /^Bearer +([^\s]+) *$/i.exec(header);
  if (m === null) {
    return {
      reply: apiError(core.variants, api, 401, INVALID_TOKEN_MESSAGE, { headers: { 'www-authenticate': 'Bearer realm="sandbox"' } }),
    };
  }
  const client = core.world.tokenClient(m[1], ctx.now);
  // token_refused_403: a token it does not know is refused as a front server may, with a bare 403.
  if (client === undefined && core.variants.token_refused_403) return { reply: apiError(core.variants, api, 403, INVALID_TOKEN_MESSAGE) };
  if (client === undefined) {
    return {
      reply: apiError(core.variants, api, 401, INVALID_TOKEN_MESSAGE, {
        headers: { 'www-authenticate': 'Bearer realm="sandbox", error="invalid_token"' },
      }),
    };
  }
  return { client };
}
