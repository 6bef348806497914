// Rate limits of the push API, played under the push_tier variant. The interface does not show
// them (spec 8.1: "Rate limits of the push API: not shown"), so a real service may limit push as it
// limits campaigns. The push API names no account, so the budget is the client's: one read and one
// write budget per client, counted, refused and reported exactly like the campaign API's.
import { authenticate } from './bearer';
import type { SandboxCore } from './core';
import { apiError, type Handler, type Route } from './http';
import { budgetOfMethod } from '../shared/domain/rate-tiers';

/** The handler behind the client's push budget: 401 first, then 429 or the handler's reply with the headers. */
function limited(core: SandboxCore, handler: Handler): Handler {
  return (ctx, params) => {
    if (!core.limiter.limitsPush) return handler(ctx, params);
    const auth = authenticate(core, ctx, 'push');
    if (auth.reply) return auth.reply;
    const budget = budgetOfMethod(ctx.method);
    Object.assign(ctx.log, { group: 'push', budget, limited: true });
    const decision = core.limiter.check(`push:${auth.client.id}`, 'push', budget, ctx.now);
    if (!decision.admitted) {
      return apiError(core.variants, 'push', 429, 'Rate limit exceeded', {
        headers: decision.headers,
        extensions: { violated_policies: decision.violated },
      });
    }
    // Spec 8.1.6: every answer of a limited endpoint carries the headers, not only a 429.
    const reply = handler(ctx, params);
    return { ...reply, headers: { ...reply.headers, ...decision.headers } };
  };
}

/** The push API's routes with every method drawing from the client's push budget. */
export function pushLimitedRoutes(core: SandboxCore, routes: readonly Route[]): Route[] {
  return routes.map((r) => ({
    ...r,
    methods: Object.fromEntries(Object.entries(r.methods).map(([method, handler]) => [method, handler && limited(core, handler)])),
  }));
}
