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
import { parseListQuery } from '../../shared/domain/campaign-listing';
import { invalidDraft, ServiceError } from './errors';
import type { HttpResponse, StreamingResponse } from './http-transport';
import { ListingStreamParser, UnreadableListingError, type ListingPart } from './listing-stream';
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
  groups: string[][],
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

/** What an unpaged listing yields as it is parsed: campaigns in order, and its metadata once read. */
export interface StreamedListing {
  campaigns: Campaign[];
  /** metadata.total and .count once the answer's metadata has been parsed (it may come first or last). */
  metadata: { total: number; count: number } | null;
}

const listingMetadataSchema = campaignListEnvelopeSchema.shape.metadata;

/**
 * The whole listing in one request (no page, no page_size: paging is optional, spec 4.2), parsed
 * as the body arrives (listing-stream.ts: native JSON.parse of each chunk's complete campaigns):
 * each campaign is checked with the shared schema and handed on in the batches the network
 * delivers, so memory holds one batch, never the ~50 MB answer of a 100,000-campaign account.
 * The last item carries the metadata; an answer without it, or with a campaign that does not
 * parse, is unreadable like any other.
 */
export async function* streamCampaigns(
  exec: RequestExecutor,
  baseUrl: string,
  accountId: string,
  query: { fetchLevel: FetchLevel; sort?: CampaignListQuery['sort']; campaignIds?: CampaignListQuery['campaignIds'] },
  opts: CallOptions = {},
): AsyncGenerator<StreamedListing, void, void> {
  const account = checkAccount(accountId);
  const problems = listQueryProblems(query);
  if (problems.length > 0) throw invalidDraft(problems);
  const what = `list the campaigns of ${account}`;
  const res: StreamingResponse = await exec.stream(
    { method: 'GET', base: baseUrl, path: campaignsPath(account), query: campaignListSearchParams(query), rate: { account, group: 'campaigns.list' }, what },
    opts,
  );
  const parser = new ListingStreamParser();
  let metadata: { total: number; count: number } | null = null;
  const unreadable = (e: unknown) => (e instanceof UnreadableListingError ? unreadableAnswer(what, res.status) : e);
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      let part: ListingPart;
      try {
        part = parser.write(chunk);
      } catch (e) {
        throw unreadable(e);
      }
      if (part.metadata) {
        const m = listingMetadataSchema.safeParse(part.metadata.value);
        if (!m.success) throw unreadableAnswer(what, res.status);
        metadata = { total: m.data.total, count: m.data.count };
      }
      if (part.results.length === 0) continue;
      const batch: Campaign[] = [];
      for (const item of part.results) {
        const c = campaignSchema.safeParse(item);
        if (!c.success) throw unreadableAnswer(what, res.status);
        batch.push(c.data);
      }
      yield { campaigns: batch, metadata };
    }
    try {
      parser.end();
    } catch (e) {
      throw unreadable(e);
    }
    if (metadata === null) throw unreadableAnswer(what, res.status);
    yield { campaigns: [], metadata };
  } finally {
    // Stopped early (cancelled, failed): the rest of the answer is not read.
    res.body.destroy();
  }
}

/**
 * What is wrong with a query before it is sent, by the rules the sandbox parses it with (spec
 * 4.2): the same parser reads what this client would put on the wire.
 */
function listQueryProblems(q: CampaignListQuery): FieldProblem[] {
  const parsed = parseListQuery(campaignListSearchParams(q));
  return typeof parsed === 'string' ? [{ field: 'query', message: parsed }] : [];
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
export function campaignIdGroups(query: Omit<CampaignListQuery, 'campaignIds' | 'page' | 'pageSize'>, ids: readonly string[]): string[][] {
  // Paging parameters, whether given or added later by a walk, are counted as PAGING_ROOM.
  const base = campaignListSearchParams({ fetchLevel: query.fetchLevel, ...(query.sort ? { sort: query.sort } : {}) }).toString().length + PAGING_ROOM;
  const groups: string[][] = [];
  let group: string[] = [];
  let length = base;
  const seen = new Set<string>();
  for (const id of ids) {
    // A repeated id would be counted in two groups' totals.
    if (seen.has(id)) continue;
    seen.add(id);
    const added = `&campaign_ids=${encodeURIComponent(id)}`.length;
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

/**
 * The one paging step of every listing read (the walk and the newest-first look-up): reads the
 * page, in pages of `size`, that holds row `offset`, and says where its rows start and end in the
 * listing. An offset inside a page reads that page whole.
 */
export async function readPageAt(read: PageReader, offset: number, size: number): Promise<{ page: CampaignPage; start: number; end: number }> {
  const number = Math.floor(offset / size) + 1;
  const start = (number - 1) * size;
  const page = await read(number, size);
  return { page, start, end: start + page.campaigns.length };
}

/** One page of a walk, as it arrives. */
export interface ListingStep {
  campaigns: Campaign[];
  /** metadata.total of this answer. */
  total: number;
  /**
   * Requests the walk has completed (a batch of the unpaged request while it still streams
   * counts the requests before it).
   */
  pagesDone: number;
  /** How many requests the walk takes in all, as far as is known after this answer. */
  pagesTotal: number;
  /**
   * 1, or 2 for the careful second reading after the first did not add up to `total`. The
   * second reading stands on its own: what the first listed is not counted in it.
   */
  pass: 1 | 2;
  /** A batch of the unpaged request while it is still being read (its request is pagesDone + 1). */
  streaming?: true;
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

/** The whole listing in one request, streamed (streamCampaigns of the same query). */
export type WholeReader = () => AsyncIterable<StreamedListing>;

/**
 * Every row of a listing, in order: the one listing walk of the client (the refresher and
 * listAllCampaigns both use it). Given `whole`, each reading begins with the whole listing in one
 * unpaged, streamed request, handed on batch by batch as it is parsed; when that answer holds
 * fewer rows than its own total (a service may cap it), the reading goes on from page 2 in pages
 * of the size the service used. Without `whole` (or when the unpaged answer was empty), it asks
 * for `pageSize` rows and learns from the first answer the size the service actually serves. A
 * reading ends when the rows cover the total or a page comes back empty. A reading whose distinct
 * ids differ from the total (the listing moved underneath, or a row was lost) is read once more
 * from the start; when that also differs, the walk fails with IncompleteListingError instead of
 * passing off a part as the whole. Rows may repeat between pages; callers key them by id.
 */
export async function* walkListing(
  read: PageReader,
  opts: { pageSize: number; what: string; signal?: AbortSignal; whole?: WholeReader },
): AsyncGenerator<ListingStep, void, void> {
  let pagesDone = 0;
  let lastTotal = 0;
  let lastListed = 0;
  let size = opts.pageSize;
  // Learned from the first answer only: a short page later on is the end of a listing that moved
  // or miscounted, not a smaller page size (shrinking to it would make every later read tiny).
  let sizeLearned = false;
  const cancelled = () => {
    if (opts.signal?.aborted) {
      throw new ServiceError({ kind: 'cancelled', requestWritten: false, message: `Listing the campaigns of ${opts.what} was cancelled.` });
    }
  };
  for (const pass of [1, 2] as const) {
    const ids = new Set<string>();
    // Rows covered so far in the listing's order.
    let offset = 0;
    let reads = 0;
    let more = true;
    if (opts.whole) {
      cancelled();
      let rows = 0;
      let total = 0;
      // While it streams, the walk is one request; the total is known once the metadata is.
      for await (const part of opts.whole()) {
        rows += part.campaigns.length;
        for (const c of part.campaigns) ids.add(c.id);
        if (part.metadata) total = part.metadata.total;
        if (part.campaigns.length > 0) yield { campaigns: part.campaigns, total: Math.max(total, rows), pagesDone, pagesTotal: pagesDone + 1, pass, streaming: true };
      }
      pagesDone++;
      reads++;
      lastTotal = total;
      offset = rows;
      // A capped answer: its row count is the service's page size, and this was page 1 of it.
      if (rows > 0 && rows < total && !sizeLearned) {
        size = rows;
        sizeLearned = true;
      }
      more = rows > 0 && rows < total;
      yield { campaigns: [], total, pagesDone, pagesTotal: pagesDone + (more ? Math.ceil((total - offset) / size) : 0), pass };
      if (rows === 0 && total > 0) {
        // Nothing unpaged although the total says there is: read it in pages after all.
        more = true;
        offset = 0;
      }
    }
    while (more) {
      cancelled();
      // The offset is a whole number of pages (the size changes only after the first answer,
      // which held that many rows); computed all the same, a page it falls inside is read whole.
      const { page: p, start, end } = await readPageAt(read, offset, size);
      pagesDone++;
      reads++;
      for (const c of p.campaigns) ids.add(c.id);
      if (!sizeLearned) {
        size = sizeUsed(size, p.campaigns.length, start, p.total);
        sizeLearned = true;
      }
      const progressed = end > offset;
      offset = Math.max(offset, end);
      more = progressed && offset < p.total && reads < readLimit(p.total, size);
      lastTotal = p.total;
      yield { campaigns: p.campaigns, total: p.total, pagesDone, pagesTotal: pagesDone + (more ? Math.ceil((p.total - offset) / size) : 0), pass };
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
    // Without a page size asked for, each group is first asked for whole (one request).
    const whole: WholeReader | undefined =
      pageSize === undefined ? () => streamCampaigns(exec, baseUrl, accountId, { ...rest, ...(ids ? { campaignIds: ids } : {}) }, opts) : undefined;
    const before = pagesDone;
    for await (const step of walkListing(read, { pageSize: pageSize ?? MAX_PAGE_SIZE, what: accountId, ...(whole ? { whole } : {}), ...(opts.signal ? { signal: opts.signal } : {}) })) {
      if (step.pass !== pass) {
        pass = step.pass;
        group = new Map();
      }
      pagesDone = before + step.pagesDone + (step.streaming ? 1 : 0);
      for (const c of step.campaigns) if (!group.has(c.id)) group.set(c.id, c);
      opts.onProgress?.({ page: pagesDone, fetched: byId.size + group.size, total: byId.size + step.total });
    }
    for (const [id, c] of group) byId.set(id, c);
  }
  return { campaigns: [...byId.values()], total: byId.size };
}
