// The campaign API (spec 4.1, 4.2). Checks run in the order the client must be able to rely on:
// authentication 401, account access 403, rate limit 429, validation 400, success; every response
// after the rate-limit stage of a limited account carries the rate-limit headers.
import { campaignCreateProblems, campaignCreateSchema } from '../shared/domain/campaign';
import { MALFORMED_MESSAGE } from '../shared/domain/push';
import { authenticate } from './bearer';
import { answer, campaignAnswer, createdAnswer, listingAnswer, listingEnvelope, writeAnswer } from './answers';
import { isListed, sortListed } from './campaign-query';
import { parseListQuery, type ListQuery } from '../shared/domain/campaign-listing';
import type { SandboxCore } from './core';
import { apiError, isJsonContent, parseJson, type Reply, type ReplyHeaders, type RequestContext, type Route } from './http';
import { budgetOfMethod, type RateLimitGroup } from '../shared/domain/rate-tiers';
import { fillMissingObjective, normaliseCreate } from './create-fill';
import { campaignFromCreate, type StoredCampaign } from './records';
import { storedCreate } from './stored-form';
import { byId, type AccountRec } from './state';
import { applyChurn, LARGE_LISTING_ROWS, moveSpends } from './listing-variants';

/**
 * Listings of more rows than this are streamed (answers.ts, listingAnswer); smaller ones are
 * built whole and carry a Content-Length, as a page always did.
 */
export const STREAMED_LISTING_ROWS = LARGE_LISTING_ROWS;

const err = (core: SandboxCore, status: number, message: string, headers?: ReplyHeaders): Reply =>
  apiError(core.variants, 'campaign', status, message, { headers });

type Guarded = { account: AccountRec; headers: ReplyHeaders; reply?: undefined } | { reply: Reply };

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function guard(core: SandboxCore, ctx: RequestContext, rawAccount: string, group: RateLimitGroup): Guarded {
  const accountId = decodeSegment(rawAccount);
  const budget = budgetOfMethod(ctx.method);
  Object.assign(ctx.log, { account: accountId, group, budget });
  const auth = authenticate(core, ctx, 'campaign');
  if (auth.reply) return { reply: auth.reply };
  if (!/^[A-Za-z]+$/.test(accountId)) return { reply: err(core, 400, 'account_id must contain letters only') };
  const account = core.world.accounts.get(accountId);
  if (account === undefined || !auth.client.accounts.has(accountId)) {
    return { reply: err(core, 403, `Not authorized for account ${accountId}`) };
  }
  ctx.log.limited = account.limited;
  if (!account.limited) return { account, headers: {} };
  const decision = core.limiter.check(account.id, group, budget, ctx.now);
  if (!decision.admitted) {
    // Spec 7.2: violated_policies lists every exhausted window (an extension member under problem_json).
    return {
      reply: apiError(core.variants, 'campaign', 429, 'Rate limit exceeded', {
        headers: decision.headers,
        extensions: { violated_policies: decision.violated },
      }),
    };
  }
  return { account, headers: decision.headers };
}

function create(core: SandboxCore, ctx: RequestContext, rawAccount: string): Reply {
  const g = guard(core, ctx, rawAccount, 'campaigns');
  if (g.reply) return g.reply;
  if (!isJsonContent(ctx.headers)) return err(core, 415, 'Content-Type must be application/json', g.headers);
  const fill = core.variants.fill_on_create === true;
  const json = parseJson(ctx.body);
  // refuse_null: "omit spending_limit" (4.1 rule 4) read strictly: a null member is not an omission.
  const nullField = json.ok && core.variants.refuse_null ? nullMember(json.value) : undefined;
  if (nullField !== undefined) return err(core, 400, `${nullField} must be omitted, not null`, g.headers);
  const parsed = json.ok ? campaignCreateSchema.safeParse(fill ? fillMissingObjective(json.value) : json.value) : undefined;
  if (!parsed?.success) return err(core, 400, MALFORMED_MESSAGE, g.headers);
  // The service knows every value it has: unlike the desk, it refuses those the spec does not show.
  const rules = { features: g.account.features, accountType: g.account.type, values: 'known' as const };
  let body = parsed.data;
  let problems = campaignCreateProblems(body, rules);
  if (problems.length === 0 && fill) {
    // What is stored must pass the rules too (a cpc rounded down to 0 does not).
    body = normaliseCreate(body);
    problems = campaignCreateProblems(body, rules);
  }
  if (problems.length > 0) return err(core, 400, problems[0].message, g.headers);
  // Built in full before anything changes, then committed: a request that fails applies nothing.
  const id = core.world.allocateCampaignId(core.variants, core.choices);
  const stored = campaignFromCreate(g.account.id, id, storedCreate(body, core.variants, core.choices), ctx.now, { fill });
  core.world.pushCampaign(stored);
  const created = createdAnswer(core.variants, campaignAnswer(stored.record, core.variants), Object.keys(parsed.data));
  if (core.variants.create_201) {
    const location = `/core/api/1.0/${encodeURIComponent(g.account.id)}/campaigns/${stored.record.id}`;
    return writeAnswer(core.variants, answer(core.variants, 201, created, { ...g.headers, location }));
  }
  return writeAnswer(core.variants, answer(core.variants, 200, created, g.headers));
}

/** The first top-level member of a JSON object whose value is null. */
function nullMember(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.entries(value).find(([, v]) => v === null)?.[0];
}

/** Which rows a listing answers, and the page size it reports. */
function pageOf<T>(items: readonly T[], q: ListQuery, cap: number | undefined): { rows: readonly T[]; page: number; pageSize: number } {
  const page = q.page ?? 1;
  if (cap === undefined) {
    // Unpaged: everything, reported as one page holding the total.
    if (q.pageSize === undefined) return { rows: items, page, pageSize: items.length };
    return { rows: items.slice((page - 1) * q.pageSize, page * q.pageSize), page, pageSize: q.pageSize };
  }
  // page_size_cap: the service's page is never larger than the cap, asked for or not; paging then
  // goes on in pages of the size actually used.
  const pageSize = Math.min(q.pageSize ?? cap, cap);
  return { rows: items.slice((page - 1) * pageSize, page * pageSize), page, pageSize };
}

function list(core: SandboxCore, ctx: RequestContext, rawAccount: string): Reply {
  const g = guard(core, ctx, rawAccount, 'campaigns.list');
  if (g.reply) return g.reply;
  const q = parseListQuery(ctx.query);
  if (typeof q === 'string') return err(core, 400, q, g.headers);
  // refuse_sort: the interface names the commonly sorted fields (4.2), not id; a service may refuse any.
  const refused = core.variants.refuse_sort;
  if (q.sort && (refused === 'all' || (refused === 'id' && q.sort.field === 'id'))) {
    return err(core, 400, `Sorting by ${q.sort.field} is not supported`, g.headers);
  }
  // campaign_ids_max: a look-up naming more ids than the service takes at once is refused.
  const idsMax = core.variants.campaign_ids_max;
  if (idsMax !== undefined && q.ids !== undefined && q.ids.size > idsMax) {
    return err(core, 400, `campaign_ids accepts at most ${idsMax} values`, g.headers);
  }
  // page_size_max: a page larger than the service serves is refused, not cut down.
  const max = core.variants.page_size_max;
  if (max !== undefined && q.pageSize !== undefined && q.pageSize > max) {
    return err(core, 400, `page_size must be between 1 and ${max}`, g.headers);
  }
  const lag = core.variants.listing_lag_ms ?? 0;
  const owners = core.world.listedAccounts(g.account);
  // A look-up by id is not a read of the listing: churn comes between those.
  if (q.ids === undefined) applyChurn(core, g.account, ctx.now);
  moveSpends(core, owners);
  // short_pages: every campaign is paged, and those the query leaves out are dropped afterwards.
  const filterAfterPaging = core.variants.short_pages === true;
  const names = new Map(owners.map((o) => [o.id, o.name]));
  const ownerName = (accountId: string) => names.get(accountId);
  const items: StoredCampaign[] = [];
  let total = 0;
  for (const owner of owners) {
    for (const campaign of core.world.campaigns.get(owner.id) ?? []) {
      if (q.ids !== undefined && !q.ids.has(String(campaign.record.id))) continue;
      // listing_lag_ms: a new campaign reaches the listing some time after it was created.
      if (lag > 0 && ctx.now < campaign.createdAtMs + lag) continue;
      const listed = isListed(campaign, q.fetchLevel, ctx.now);
      if (listed) total++;
      if (listed || filterAfterPaging) items.push(campaign);
    }
  }
  if (owners.length > 1) items.sort((a, b) => byId(a.record.id, b.record.id));
  if (q.sort) sortListed(items, q.sort.field, q.sort.descending, ownerName);
  else if (core.variants.moving_order) sortListed(items, 'spent', true, ownerName);
  const paged = pageOf(items, q, core.variants.page_size_cap);
  // page_past_end: a page after the last one is refused as a page that does not exist.
  const pastEnd = core.variants.page_past_end;
  if (pastEnd !== undefined && paged.page > 1 && paged.rows.length === 0) {
    return err(core, pastEnd === 'not_found' ? 404 : 400, 'Invalid page.', g.headers);
  }
  const rows = filterAfterPaging ? paged.rows.filter((x) => isListed(x, q.fetchLevel, ctx.now)) : paged.rows;
  const network = g.account.type === 'NETWORK';
  const record = (x: StoredCampaign) =>
    campaignAnswer(x.record, core.variants, { advertiserName: network ? ownerName(x.accountId) : undefined });
  const metadata = { total, count: rows.length, page: paged.page, page_size: paged.pageSize };
  const cutAbove = core.variants.cut_body;
  const cut = cutAbove !== undefined && rows.length > cutAbove;
  let reply: Reply;
  if (rows.length > STREAMED_LISTING_ROWS) {
    // Written as it is sent: the first rows leave in milliseconds at any size, and the answer is
    // never one string (a million campaigns is ~500 MB of JSON).
    reply = listingAnswer(core.variants, rows, record, metadata, g.headers, { announceLength: cut });
    if (cut) reply.cutAfterBytes = Math.floor(reply.streamLength! / 2);
  } else {
    reply = answer(core.variants, 200, listingEnvelope(core.variants, rows.map(record), metadata), g.headers);
    if (cut && reply.body !== undefined) reply.cutAfterBytes = Math.floor(Buffer.byteLength(reply.body) / 2);
  }
  if (core.variants.slow_start !== undefined && rows.length > LARGE_LISTING_ROWS) reply.holdMs = core.variants.slow_start;
  return reply;
}

function options(core: SandboxCore, ctx: RequestContext, rawAccount: string): Reply {
  const g = guard(core, ctx, rawAccount, 'campaigns.list');
  if (g.reply) return g.reply;
  return { status: 204, headers: { allow: 'GET, HEAD, POST, OPTIONS', ...g.headers } };
}

export function campaignRoutes(core: SandboxCore): Route[] {
  return [
    {
      pattern: /^\/core\/api\/1\.0\/([^/]+)\/campaigns\/?$/,
      api: 'campaign',
      methods: {
        POST: (ctx, p) => create(core, ctx, p[0]),
        GET: (ctx, p) => list(core, ctx, p[0]),
        OPTIONS: (ctx, p) => options(core, ctx, p[0]),
      },
    },
  ];
}
