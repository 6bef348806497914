// Campaign operations (spec 4.1, 4.2). Drafts are checked with the same shared rules the sandbox
// enforces before anything is sent; answers are read liberally (ids kept as strings, unknown
// fields and enum values kept).
import type { z } from 'zod';
import {
  accountIdSchema,
  campaignCreateProblems,
  campaignCreateSchema,
  campaignListEnvelopeSchema,
  campaignListSearchParams,
  campaignSchema,
  MAX_PAGE_SIZE,
  type Campaign,
  type CampaignCreate,
  type CampaignListQuery,
  type CampaignRuleContext,
  type FetchLevel,
  type FieldProblem,
} from '../../shared/domain/campaign';
import { invalidDraft, ServiceError } from './errors';
import type { HttpResponse } from './http-transport';
import type { CallOptions, RequestExecutor } from './request-executor';
import { parseJsonBody, unreadableAnswer } from './response-errors';

export interface CampaignPage {
  campaigns: Campaign[];
  /** Matching campaigns over all pages (metadata.total). */
  total: number;
  /** Campaigns in this answer (metadata.count). */
  count: number;
  /** The whole metadata object, unknown fields included. */
  metadata: Record<string, unknown>;
}

export interface ListAllProgress {
  page: number;
  fetched: number;
  total: number;
}

export interface ListAllOptions extends CallOptions {
  onProgress?: (p: ListAllProgress) => void;
}

function checkAccount(accountId: string): string {
  const r = accountIdSchema.safeParse(accountId);
  if (!r.success) throw invalidDraft([{ field: 'account', message: 'account id must contain letters only' }]);
  return r.data;
}

function readJson<T>(res: HttpResponse, schema: z.ZodType<T>, what: string): T {
  const parsed = schema.safeParse(parseJsonBody(res.body));
  if (!parsed.success) throw unreadableAnswer(what, res.status);
  return parsed.data;
}

const campaignsPath = (accountId: string) => `/core/api/1.0/${encodeURIComponent(accountId)}/campaigns`;

export async function createCampaign(
  exec: RequestExecutor,
  baseUrl: string,
  accountId: string,
  draft: CampaignCreate,
  opts: CallOptions & { rules?: CampaignRuleContext } = {},
): Promise<Campaign> {
  const account = checkAccount(accountId);
  const typed = campaignCreateSchema.safeParse(draft);
  if (!typed.success) {
    throw invalidDraft(typed.error.issues.map((i) => ({ field: i.path.join('.') || 'campaign', message: i.message })));
  }
  const problems = campaignCreateProblems(typed.data, opts.rules);
  if (problems.length > 0) throw invalidDraft(problems);
  const what = `create a campaign in ${account}`;
  const res = await exec.call(
    { method: 'POST', base: baseUrl, path: `${campaignsPath(account)}/`, json: typed.data, rate: { account, group: 'campaigns' }, what },
    opts,
  );
  return readJson(res, campaignSchema, what);
}

export async function listCampaigns(
  exec: RequestExecutor,
  baseUrl: string,
  accountId: string,
  query: CampaignListQuery,
  opts: CallOptions = {},
): Promise<CampaignPage> {
  const account = checkAccount(accountId);
  const problems = listQueryProblems(query);
  if (problems.length > 0) throw invalidDraft(problems);
  const what = `list the campaigns of ${account}`;
  const res = await exec.call(
    {
      method: 'GET',
      base: baseUrl,
      path: campaignsPath(account),
      // fetch_level is always sent: the spec's default contradicts itself (DECISIONS client 1).
      query: campaignListSearchParams(query),
      rate: { account, group: 'campaigns.list' },
      what,
    },
    opts,
  );
  const envelope = readJson(res, campaignListEnvelopeSchema, what);
  const campaigns: Campaign[] = [];
  for (const item of envelope.results) {
    const c = campaignSchema.safeParse(item);
    if (!c.success) throw unreadableAnswer(what, res.status);
    campaigns.push(c.data);
  }
  return { campaigns, total: envelope.metadata.total, count: envelope.metadata.count, metadata: envelope.metadata };
}

function listQueryProblems(q: CampaignListQuery): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (q.fetchLevel !== 'R' && q.fetchLevel !== 'RAP') out.push({ field: 'fetch_level', message: 'fetch_level must be R or RAP' });
  if (q.page !== undefined && (!Number.isInteger(q.page) || q.page < 1)) out.push({ field: 'page', message: 'page must be a whole number from 1' });
  if (q.pageSize !== undefined && (!Number.isInteger(q.pageSize) || q.pageSize < 1)) {
    out.push({ field: 'page_size', message: 'page_size must be a whole number from 1' });
  }
  for (const id of q.campaignIds ?? []) {
    if (!/^\d+$/.test(String(id))) out.push({ field: 'campaign_ids', message: `campaign id ${String(id)} is not a number` });
  }
  if (q.sort && (!/^[a-z_]+$/.test(q.sort.field) || (q.sort.direction !== 'asc' && q.sort.direction !== 'desc'))) {
    out.push({ field: 'sort', message: 'sort must name a field and asc or desc' });
  }
  return out;
}

/**
 * Every page of a listing, in order. Stops when the pages have covered `total` or a page comes
 * back empty; campaigns that shift between pages while we read are kept once.
 */
export async function listAllCampaigns(
  exec: RequestExecutor,
  baseUrl: string,
  accountId: string,
  query: { fetchLevel: FetchLevel; sort?: CampaignListQuery['sort']; campaignIds?: CampaignListQuery['campaignIds']; pageSize?: number },
  opts: ListAllOptions = {},
): Promise<{ campaigns: Campaign[]; total: number }> {
  const pageSize = query.pageSize ?? MAX_PAGE_SIZE;
  const byId = new Map<string, Campaign>();
  let seen = 0;
  let total = 0;
  for (let page = 1; ; page++) {
    if (opts.signal?.aborted) {
      throw new ServiceError({ kind: 'cancelled', requestWritten: false, message: `Listing the campaigns of ${accountId} was cancelled.` });
    }
    const p = await listCampaigns(exec, baseUrl, accountId, { ...query, page, pageSize }, opts);
    total = p.total;
    seen += p.campaigns.length;
    for (const c of p.campaigns) if (!byId.has(c.id)) byId.set(c.id, c);
    opts.onProgress?.({ page, fetched: byId.size, total });
    // A page shorter than asked is not the end on its own: a real service may cap page_size.
    if (p.campaigns.length === 0 || seen >= total) break;
  }
  return { campaigns: [...byId.values()], total };
}
