// The control API under /_sandbox/ (no authentication; the server only listens on 127.0.0.1):
// the clock, reset, the request log, faults, and read-only views of state for tests.
import { z } from 'zod';
import { ClockModeError } from './clock';
import { isListed } from './campaign-query';
import type { SandboxCore } from './core';
import { faultSpecSchema } from './faults';
import { SandboxFixturesError } from './fixtures';
import { jsonReply, parseJson, type Reply, type RequestContext, type Route } from './http';
import { variantsSchema } from './variants';
import { byId } from './state';

const fail = (status: number, error: string): Reply => jsonReply(status, { error });

const clockBodySchema = z.union([
  z.strictObject({ advance_ms: z.number().finite().min(0) }),
  z.strictObject({ set: z.iso.datetime({ offset: true }) }),
]);

function issuesText(e: z.ZodError): string {
  return e.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}

function bodyOf<T>(ctx: RequestContext, schema: z.ZodType<T>): { value: T; reply?: undefined } | { reply: Reply } {
  const json = parseJson(ctx.body);
  if (!json.ok) return { reply: fail(400, 'body must be JSON') };
  const r = schema.safeParse(json.value);
  return r.success ? { value: r.data } : { reply: fail(400, issuesText(r.error)) };
}

/** The sandbox clock (the computer's, as clients see it) and the service's, which clock_offset_ms moves. */
function clockState(core: SandboxCore): Reply {
  const now = core.clock.now();
  const serviceNow = core.serviceNow();
  return jsonReply(200, {
    now,
    iso: new Date(now).toISOString(),
    mode: core.clock.mode,
    service_now: serviceNow,
    service_iso: new Date(serviceNow).toISOString(),
  });
}

function moveClock(core: SandboxCore, ctx: RequestContext): Reply {
  if (core.clock.mode === 'real') return fail(409, 'clock is real');
  const body = bodyOf(ctx, clockBodySchema);
  if (body.reply) return body.reply;
  try {
    if ('advance_ms' in body.value) core.clock.advance(body.value.advance_ms);
    else core.clock.set(Date.parse(body.value.set));
    core.applyDueWrites();
  } catch (e) {
    if (e instanceof ClockModeError) return fail(409, 'clock is real');
    return fail(400, (e as Error).message);
  }
  return jsonReply(200, { now: core.clock.now() });
}

function reset(core: SandboxCore): Reply {
  try {
    core.reset();
  } catch (e) {
    if (e instanceof SandboxFixturesError) return fail(400, e.message);
    throw e;
  }
  return jsonReply(200, { ok: true });
}

function requests(core: SandboxCore, ctx: RequestContext): Reply {
  const since = ctx.query.get('since');
  if (since !== null && !/^\d{1,15}$/.test(since)) return fail(400, 'since must be a sequence number');
  return jsonReply(200, { requests: core.log.since(since === null ? 0 : Number(since)) });
}

function addFault(core: SandboxCore, ctx: RequestContext): Reply {
  const body = bodyOf(ctx, faultSpecSchema);
  if (body.reply) return body.reply;
  return jsonReply(201, { id: core.faults.add(body.value).id });
}

function setVariants(core: SandboxCore, ctx: RequestContext): Reply {
  const body = bodyOf(ctx, variantsSchema);
  if (body.reply) return body.reply;
  core.setVariants(body.value);
  return jsonReply(200, { variants: core.variants });
}

const clientAppsSchema = z.strictObject({ apps: z.array(z.string().regex(/^\d{1,30}$/, 'app ids are digits')).max(10_000) });

/**
 * Grants a client exactly these apps from now on (the rest withdrawn, as a service does when an
 * app's owner revokes access): auth-apps stops listing them and sends to them are refused 403.
 */
function setClientApps(core: SandboxCore, ctx: RequestContext, clientId: string): Reply {
  const client = core.world.clients.get(clientId);
  if (!client) return fail(404, 'no such client');
  const body = bodyOf(ctx, clientAppsSchema);
  if (body.reply) return body.reply;
  client.apps = new Set(body.value.apps);
  return jsonReply(200, { client_id: clientId, apps: [...client.apps] });
}

function apps(core: SandboxCore): Reply {
  return jsonReply(200, {
    apps: [...core.world.apps.values()].map((a) => ({ app_id: a.id, publisher: a.publisher, domain: a.domain, sw_path: a.swPath })),
  });
}

/**
 * The stored campaigns, of one account or all; with `fetch_level`, only those a listing at that
 * level shows now (the list endpoint's own rule), so a test can compare a client's cache with
 * what the service lists whatever page sizes and variants it plays.
 */
function campaigns(core: SandboxCore, ctx: RequestContext): Reply {
  const account = ctx.query.get('account');
  if (account !== null && !core.world.accounts.has(account)) return fail(404, 'unknown account');
  const level = ctx.query.get('fetch_level');
  if (level !== null && level !== 'R' && level !== 'RAP') return fail(400, 'fetch_level must be R or RAP');
  const owners = account === null ? [...core.world.campaigns.keys()] : [account];
  const now = core.serviceNow();
  const out = owners.flatMap((id) =>
    (core.world.campaigns.get(id) ?? []).filter((c) => level === null || isListed(c, level, now)).map((c) => c.record),
  );
  return jsonReply(200, { campaigns: out.sort((a, b) => byId(a.id, b.id)) });
}

/** Campaigns other users deleted (variant churn), of one account or all: what a listing no longer shows, and why. */
function deletedByOthers(core: SandboxCore, ctx: RequestContext): Reply {
  const account = ctx.query.get('account');
  if (account !== null && !core.world.accounts.has(account)) return fail(404, 'unknown account');
  const gone = core.world.deletedByOthers.filter((c) => account === null || c.accountId === account).map((c) => c.record);
  return jsonReply(200, { campaigns: gone });
}

function tasks(core: SandboxCore, ctx: RequestContext): Reply {
  core.world.settleDueTasks(core.serviceNow());
  const app = ctx.query.get('app');
  const all = [...core.world.tasks.values()].filter((t) => app === null || t.appId === app);
  return jsonReply(200, { tasks: all.map((t) => ({ ...t.record, target: t.target ?? null })) });
}

export function controlRoutes(core: SandboxCore): Route[] {
  return [
    { pattern: /^\/_sandbox\/clock$/, api: 'control', methods: { GET: () => clockState(core), POST: (ctx) => moveClock(core, ctx) } },
    { pattern: /^\/_sandbox\/reset$/, api: 'control', methods: { POST: () => reset(core) } },
    { pattern: /^\/_sandbox\/requests$/, api: 'control', methods: { GET: (ctx) => requests(core, ctx) } },
    {
      pattern: /^\/_sandbox\/faults$/,
      api: 'control',
      methods: {
        GET: () => jsonReply(200, { faults: core.faults.all() }),
        POST: (ctx) => addFault(core, ctx),
        DELETE: () => {
          core.faults.clear();
          return jsonReply(200, { ok: true });
        },
      },
    },
    {
      pattern: /^\/_sandbox\/faults\/(\d{1,9})$/,
      api: 'control',
      methods: { DELETE: (_ctx, p) => (core.faults.remove(Number(p[0])) ? jsonReply(200, { ok: true }) : fail(404, 'no such fault')) },
    },
    {
      pattern: /^\/_sandbox\/variants$/,
      api: 'control',
      methods: { GET: () => jsonReply(200, { variants: core.variants }), PUT: (ctx) => setVariants(core, ctx) },
    },
    { pattern: /^\/_sandbox\/apps$/, api: 'control', methods: { GET: () => apps(core) } },
    {
      pattern: /^\/_sandbox\/clients\/([A-Za-z0-9._-]{1,200})\/apps$/,
      api: 'control',
      methods: { PUT: (ctx, p) => setClientApps(core, ctx, p[0]) },
    },
    { pattern: /^\/_sandbox\/state\/campaigns$/, api: 'control', methods: { GET: (ctx) => campaigns(core, ctx) } },
    { pattern: /^\/_sandbox\/state\/deleted-by-others$/, api: 'control', methods: { GET: (ctx) => deletedByOthers(core, ctx) } },
    { pattern: /^\/_sandbox\/state\/tasks$/, api: 'control', methods: { GET: (ctx) => tasks(core, ctx) } },
  ];
}
