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
  const { campaignIds, ...rest } = query;
  if (campaignIds !== undefined && campaignIds.length > 0) {
    const groups = campaignIdGroups(rest, campaignIds);
    if (groups.length > 1) return listByIdGroups(exec, baseUrl, account, rest, groups, opts);
  }
  return listOnce(exec, baseUrl, account, query, opts);
}

/**
 * One unpaged look-up by more ids than one URL can carry: a request per group, merged into one
 * answer (the groups share no id, so their totals add up). A page of such a look-up has no
 * meaning across groups: listAllCampaigns walks each group instead.
 */
async function listByIdGroups(
  exec: RequestExecutor,
  baseUrl: string,
  account: string,
  query: Omit<CampaignListQuery, 'campaignIds'>,
  groups: (string | number)[][],
  opts: CallOptions,
): Promise<CampaignPage> {
  if (query.page !== undefined || query.pageSize !== undefined) {
    throw invalidDraft([{ field: 'campaign_ids', message: 'too many campaign ids for one page: list them all with listAllCampaigns' }]);
  }
  const merged: CampaignPage = { campaigns: [], total: 0, count: 0, metadata: {} };
  for (const ids of groups) {
    const p = await listOnce(exec, baseUrl, account, { ...query, campaignIds: ids }, opts);
    merged.campaigns.push(...p.campaigns);
    merged.total += p.total;
    merged.count += p.count;
  }
  merged.metadata = { total: merged.total, count: merged.count };
  return merged;
}

async function listOnce(exec: RequestExecutor, baseUrl: string, account: string, query: CampaignListQuery, opts: CallOptions): Promise<CampaignPage> {
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
 * Longest query string a list request is given. Servers refuse long request lines and headers
 * (431 or 414; ~1,000 campaign ids is about 21 KB), so a look-up by ids is split into requests
 * whose query stays under this, well below the common 4-8 KB limits.
 */
export const MAX_LIST_QUERY_LENGTH = 2048;

/** Room kept in each request's query for paging parameters that a walk adds later. */
const PAGING_ROOM = '&page=9999999&page_size=9999999'.length;

/**
 * The ids split into groups, in order, each small enough that the list request naming them
 * (with the rest of `query` and room for paging) keeps its query under MAX_LIST_QUERY_LENGTH.
 * Each id is named once.
 */
export function campaignIdGroups(query: Omit<CampaignListQuery, 'campaignIds' | 'page' | 'pageSize'>, ids: readonly (string | number)[]): (string | number)[][] {
  // Paging parameters, whether given or added later by a walk, are counted as PAGING_ROOM.
  const base = campaignListSearchParams({ fetchLevel: query.fetchLevel, ...(query.sort ? { sort: query.sort } : {}) }).toString().length + PAGING_ROOM;
  const groups: (string | number)[][] = [];
  let group: (string | number)[] = [];
  let length = base;
  const seen = new Set<string>();
  for (const id of ids) {
    // A repeated id would be counted in two groups' totals.
    if (seen.has(String(id))) continue;
    seen.add(String(id));
    const added = `&campaign_ids=${encodeURIComponent(String(id))}`.length;
    if (group.length > 0 && length + added > MAX_LIST_QUERY_LENGTH) {
      groups.push(group);
      group = [];
      length = base;
    }
    group.push(id);
    length += added;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** One page of a listing: what a walk asks for. */
export type PageReader = (page: number, pageSize: number) => Promise<CampaignPage>;

/** One page of a walk, as it arrives. */
export interface ListingStep {
  campaigns: Campaign[];
  /** metadata.total of this answer. */
  total: number;
  /** Requests made by the walk so far, this one included. */
  pagesDone: number;
  /** How many requests the walk takes in all, as far as is known after this answer. */
  pagesTotal: number;
  /**
   * 1, or 2 for the careful second reading after the first did not add up to `total`. The
   * second reading stands on its own: what the first listed is not counted in it.
   */
  pass: 1 | 2;
}

/**
 * The listing did not add up to its own `metadata.total`, read twice: a cache or a look-up built
 * from it would be missing campaigns without saying so.
 */
export class IncompleteListingError extends ServiceError {
  readonly listed: number;
  readonly total: number;

  constructor(what: string, listed: number, total: number) {
    super({
      kind: 'protocol',
      requestWritten: false,
      message:
        `The service counts ${total} campaigns in ${what} but listed ${listed}, on two full readings. ` +
        'The ones it listed are kept; refresh again later, and if the numbers still differ, tell the service provider.',
    });
    this.name = 'IncompleteListingError';
    this.listed = listed;
    this.total = total;
  }
}

/**
 * The page size the service used for its first answer. A page that comes back shorter than asked
 * while the answer's own total says more rows follow was cut to the service's own page size (the
 * spec does not forbid a cap): from then on we ask for that size, since page numbers only mean the
 * same rows to both sides when they count pages of the same size.
 */
function sizeUsed(asked: number, rows: number, start: number, total: number): number {
  return rows > 0 && rows < asked && start + rows < total ? rows : asked;
}

/** Reads of one pass beyond which a listing that keeps growing is not followed further. */
const readLimit = (total: number, size: number) => 2 * Math.ceil(total / size) + 10;

/**
 * Every page of a listing, in order: the one paging walk of the client (the refresher and
 * listAllCampaigns both use it). It asks for `pageSize` rows, learns from the first answer the
 * size the service actually serves and continues with pages of that size, and ends when the
 * pages have covered the total or one comes back empty. A reading whose distinct ids differ from
 * the total (the listing moved underneath, or a page was lost) is read once more from the start;
 * when that also differs, the walk fails with IncompleteListingError instead of passing off a
 * part as the whole. Rows may repeat between pages; callers key them by id.
 */
export async function* walkListing(read: PageReader, opts: { pageSize: number; what: string; signal?: AbortSignal }): AsyncGenerator<ListingStep, void, void> {
  let size = opts.pageSize;
  // Learned from the first answer only: a short page later on is the end of a listing that moved
  // or miscounted, not a smaller page size (shrinking to it would make every later read tiny).
  let sizeLearned = false;
  let pagesDone = 0;
  let lastTotal = 0;
  let lastListed = 0;
  for (const pass of [1, 2] as const) {
    const ids = new Set<string>();
    // Rows covered so far in the listing's order.
    let offset = 0;
    let reads = 0;
    for (;;) {
      if (opts.signal?.aborted) {
        throw new ServiceError({ kind: 'cancelled', requestWritten: false, message: `Listing the campaigns of ${opts.what} was cancelled.` });
      }
      // The offset is a whole number of pages (the size changes only after the first answer,
      // which held that many rows); computed all the same, a page it falls inside is read whole.
      const page = Math.floor(offset / size) + 1;
      const start = (page - 1) * size;
      const p = await read(page, size);
      pagesDone++;
      reads++;
      for (const c of p.campaigns) ids.add(c.id);
      if (!sizeLearned) {
        size = sizeUsed(size, p.campaigns.length, start, p.total);
        sizeLearned = true;
      }
      const end = start + p.campaigns.length;
      const progressed = end > offset;
      offset = Math.max(offset, end);
      const more = progressed && offset < p.total && reads < readLimit(p.total, size);
      lastTotal = p.total;
      yield { campaigns: p.campaigns, total: p.total, pagesDone, pagesTotal: pagesDone + (more ? Math.ceil((p.total - offset) / size) : 0), pass };
      if (!more) break;
    }
    if (ids.size === lastTotal) return;
    lastListed = ids.size;
  }
  throw new IncompleteListingError(opts.what, lastListed, lastTotal);
}

/**
 * Every campaign of a listing (all pages; with `campaignIds`, in as many requests as keep each
 * URL short enough, merged). Fails with IncompleteListingError rather than return a listing that
 * does not add up to its total.
 */
export async function listAllCampaigns(
  exec: RequestExecutor,
  baseUrl: string,
  accountId: string,
  query: { fetchLevel: FetchLevel; sort?: CampaignListQuery['sort']; campaignIds?: CampaignListQuery['campaignIds']; pageSize?: number },
  opts: ListAllOptions = {},
): Promise<{ campaigns: Campaign[]; total: number }> {
  const { campaignIds, pageSize, ...rest } = query;
  const groups = campaignIds !== undefined && campaignIds.length > 0 ? campaignIdGroups(rest, campaignIds) : [undefined];
  const byId = new Map<string, Campaign>();
  let pagesDone = 0;
  for (const ids of groups) {
    const read: PageReader = (page, size) =>
      listCampaigns(exec, baseUrl, accountId, { ...rest, ...(ids ? { campaignIds: ids } : {}), page, pageSize: size }, opts);
    // A second reading of a group stands on its own: what the first one listed is dropped.
    let group = new Map<string, Campaign>();
    let pass = 1;
    for await (const step of walkListing(read, { pageSize: pageSize ?? MAX_PAGE_SIZE, what: accountId, ...(opts.signal ? { signal: opts.signal } : {}) })) {
      if (step.pass !== pass) {
        pass = step.pass;
        group = new Map();
      }
      pagesDone++;
      for (const c of step.campaigns) if (!group.has(c.id)) group.set(c.id, c);
      opts.onProgress?.({ page: pagesDone, fetched: byId.size + group.size, total: byId.size + step.total });
    }
    for (const [id, c] of group) byId.set(id, c);
  }
  return { campaigns: [...byId.values()], total: byId.size };
}
