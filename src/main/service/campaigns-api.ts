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
import { readListedCampaign } from '../../shared/domain/campaign-reader';
import { invalidDraft, ServiceError } from './errors';
import type { HttpResponse, StreamingResponse } from './http-transport';
import { ListingStreamParser, RecordTooLargeError, recordTooLarge, UnreadableListingError, type ListingPart } from './listing-stream';
import type { CallOptions, RequestExecutor } from './request-executor';
import { parseJsonBody, unreadableAnswer } from './response-errors';
import { parseJsonLossless } from './lossless-json';
import { IdSet } from './id-set';
import { recordDigest } from './record-digest';
import { systemClock, type Clock } from '../clock/clock';

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
  /**
   * Every row as a read shows it, readings that will not add up included: what a look-up that
   * needs one sighting (a lost create's presence) may conclude from before the walk ends or fails.
   */
  onRows?: (rows: readonly Campaign[]) => void;
  /** What the service was found to refuse (the connection's own: ServiceClient.sortMemory). */
  sortMemory?: SortMemory;
  /** How a failed page is waited for before it is read again: on the caller's clock (ServiceClient.readRetry). */
  retry?: ReadRetry;
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

/**
 * The create body as the interface shows it: a field a draft holds as null ("none": no cpc for
 * MAX_CONVERSIONS, no limit for NONE) is left out, as spec 4.1 rule 4 says ("omit
 * spending_limit"); a service may refuse a null it was not shown to accept.
 */
function withoutNulls(body: CampaignCreate): CampaignCreate {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null)) as CampaignCreate;
}

const campaignsPath = (accountId: string) => `/core/api/1.0/${encodeURIComponent(accountId)}/campaigns`;

/** A create the service took (a 2xx) whose answer did not say which campaign it made. */
export const POSTED_ID_UNKNOWN = null;

/** The created campaign, or POSTED_ID_UNKNOWN when the answer took it without naming it. */
export async function createCampaign(
  exec: RequestExecutor,
  baseUrl: string,
  accountId: string,
  draft: CampaignCreate,
  opts: CallOptions & { rules?: CampaignRuleContext } = {},
): Promise<Campaign | typeof POSTED_ID_UNKNOWN> {
  const account = checkAccount(accountId);
  const typed = campaignCreateSchema.safeParse(draft);
  if (!typed.success) {
    throw invalidDraft(typed.error.issues.map((i) => ({ field: i.path.join('.') || 'campaign', message: i.message })));
  }
  const problems = campaignCreateProblems(typed.data, opts.rules);
  if (problems.length > 0) throw invalidDraft(problems);
  const what = `create a campaign in ${account}`;
  const sent = withoutNulls(typed.data);
  const res = await exec.call(
    { method: 'POST', base: baseUrl, path: `${campaignsPath(account)}/`, json: sent, rate: { account, group: 'campaigns' }, what },
    opts,
  );
  const body = parseJsonBody(res.body);
  const answered = createdCampaign(body);
  if (answered === undefined) {
    // A 2xx says the campaign was posted even when it does not say what was made: an empty body,
    // 204, 202 (spec 4.1 does not show the success status; RFC 9110 15.3 makes each a success) or
    // JSON naming no one campaign. Posted, id unknown: the caller looks it up, never sends it again.
    // Only an answer that is not JSON at all may not be the service's, and stays unreadable.
    if (body === undefined && res.body.toString('utf8').trim() !== '') throw unreadableAnswer(what, res.status);
    return POSTED_ID_UNKNOWN;
  }
  // What the answer leaves out is what was sent: the service holds it (the answer's own values,
  // normalised or filled in, win), so the cache does not show a new campaign half empty.
  const parsed = campaignSchema.safeParse({ ...sent, ...answered });
  if (!parsed.success) throw unreadableAnswer(what, res.status);
  return parsed.data;
}

const hasId = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.hasOwn(v, 'id');

/**
 * The created campaign in a create's answer, read by content (DECISIONS client 17): the answer
 * itself when it holds an id (spec 4.1), else the one record with an id it wraps, under any key,
 * alone or as a list of one. Undefined when there is none, or more than one to choose from.
 */
export function createdCampaign(body: unknown): Record<string, unknown> | undefined {
  if (hasId(body)) return body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return Array.isArray(body) && body.length === 1 && hasId(body[0]) ? body[0] : undefined;
  const found = Object.values(body).flatMap((v) => (hasId(v) ? [v] : Array.isArray(v) && v.length === 1 && hasId(v[0]) ? [v[0]] : []));
  return found.length === 1 ? found[0] : undefined;
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

async function listOnce(
  exec: RequestExecutor,
  baseUrl: string,
  account: string,
  query: CampaignListQuery,
  opts: CallOptions,
): Promise<CampaignPage> {
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
    const c = readListedCampaign(item);
    if (c === null) throw unreadableAnswer(what, res.status);
    campaigns.push(c);
  }
  return { campaigns, total: envelope.metadata.total, count: envelope.metadata.count ?? campaigns.length, metadata: envelope.metadata };
}

/** What an unpaged listing yields as it is parsed: campaigns in order, and its metadata once read. */
export interface StreamedListing {
  campaigns: Campaign[];
  /** The digest of each campaign's record bytes (record-digest.ts), index for index. */
  digests?: string[];
  /**
   * Ids of listed campaigns whose record bytes are those of a cached row (StreamOptions.known):
   * not parsed, nothing to write. None unless `known` was given.
   */
  unchanged?: string[];
  /** metadata.total and .count once the answer's metadata has been parsed (it may come first or last). */
  metadata: { total: number; count: number } | null;
}

const listingMetadataSchema = campaignListEnvelopeSchema.shape.metadata;

export interface StreamOptions {
  /**
   * The id of the cached campaign whose record had exactly the bytes of this digest
   * (record-digest.ts), if any: such a record is listed as unchanged, not parsed.
   */
  known?: (digest: string) => string | undefined;
}

const COMMA_BYTES = Buffer.from(',');

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
  stream: StreamOptions = {},
): AsyncGenerator<StreamedListing, void, void> {
  const account = checkAccount(accountId);
  const problems = listQueryProblems(query);
  if (problems.length > 0) throw invalidDraft(problems);
  const what = `list the campaigns of ${account}`;
  const res: StreamingResponse = await exec.stream(
    {
      method: 'GET',
      base: baseUrl,
      path: campaignsPath(account),
      query: campaignListSearchParams(query),
      rate: { account, group: 'campaigns.list' },
      what,
    },
    opts,
  );
  // Each record's bytes are digested before any is parsed: a known one is not parsed at all, and
  // the others carry their digest into the cache (the next refresh's `known`).
  const parser = new ListingStreamParser({ raw: true });
  const known = stream.known;
  let metadata: { total: number; count: number } | null = null;
  // metadata.count as the service gave it; without one, the rows read so far are the count.
  let countGiven: number | undefined;
  let rows = 0;
  const counted = (m: { total: number; count: number } | null) => (m === null ? null : { total: m.total, count: countGiven ?? rows });
  const unreadable = (e: unknown) =>
    e instanceof RecordTooLargeError
      ? unreadableAnswer(what, res.status, recordTooLarge())
      : e instanceof UnreadableListingError
        ? unreadableAnswer(what, res.status)
        : e;
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
        countGiven = m.data.count;
        metadata = { total: m.data.total, count: 0 };
      }
      if (part.raw.length === 0) continue;
      const unchanged: string[] = [];
      const digests: string[] = [];
      const toParse: Buffer[] = [];
      for (const bytes of part.raw) {
        const digest = recordDigest(bytes);
        const id = known?.(digest);
        if (id !== undefined) {
          unchanged.push(id);
          continue;
        }
        if (toParse.length > 0) toParse.push(COMMA_BYTES);
        toParse.push(bytes);
        digests.push(digest);
      }
      const batch: Campaign[] = [];
      if (digests.length > 0) {
        // One native parse for the chunk's new and changed records together (see listing-stream.ts).
        let items: unknown[];
        try {
          items = parseJsonLossless(`[${Buffer.concat(toParse).toString('utf8')}]`, part.longDigitRun) as unknown[];
        } catch {
          throw unreadable(new UnreadableListingError('it is not valid JSON'));
        }
        if (items.length !== digests.length) throw unreadable(new UnreadableListingError('a list item is not one value'));
        for (let k = 0; k < items.length; k++) {
          // campaignSchema's rules without zod's cost (campaign-reader.ts): this runs for every record.
          const c = readListedCampaign(items[k]);
          if (c === null) throw unreadableAnswer(what, res.status);
          batch.push(c);
        }
      }
      rows += batch.length + unchanged.length;
      yield { campaigns: batch, digests, unchanged, metadata: counted(metadata) };
    }
    try {
      parser.end();
    } catch (e) {
      throw unreadable(e);
    }
    if (metadata === null) throw unreadableAnswer(what, res.status);
    yield { campaigns: [], metadata: counted(metadata) };
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
export function campaignIdGroups(
  query: Omit<CampaignListQuery, 'campaignIds' | 'page' | 'pageSize'>,
  ids: readonly string[],
  most = Infinity,
): string[][] {
  // Paging parameters, whether given or added later by a walk, are counted as PAGING_ROOM.
  const base =
    campaignListSearchParams({ fetchLevel: query.fetchLevel, ...(query.sort ? { sort: query.sort } : {}) }).toString().length + PAGING_ROOM;
  const groups: string[][] = [];
  let group: string[] = [];
  let length = base;
  const seen = new Set<string>();
  for (const id of ids) {
    // A repeated id would be counted in two groups' totals.
    if (seen.has(id)) continue;
    seen.add(id);
    const added = `&campaign_ids=${encodeURIComponent(id)}`.length;
    if (group.length > 0 && (length + added > MAX_LIST_QUERY_LENGTH || group.length >= most)) {
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
export async function readPageAt(
  read: PageReader,
  offset: number,
  size: number,
): Promise<{ page: CampaignPage; start: number; end: number }> {
  const number = Math.floor(offset / size) + 1;
  const start = (number - 1) * size;
  const page = await read(number, size);
  return { page, start, end: start + page.campaigns.length };
}

/** One page of a walk, as it arrives. */
export interface ListingStep {
  campaigns: Campaign[];
  /** The digest of each campaign's record bytes, index for index, when the answer was streamed (StreamedListing.digests). */
  digests?: string[];
  /** Listed campaigns whose record bytes are a cached row's (StreamedListing.unchanged): absent when none. */
  unchanged?: string[];
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
   * Which reading of the listing this step belongs to, from 1. A new reading (after one that did
   * not add up, or the rows confirmed by id) stands on its own: what earlier ones listed is not
   * counted in it.
   */
  pass: number;
  /** A batch of the unpaged request while it is still being read (its request is pagesDone + 1). */
  streaming?: true;
}

/**
 * The listing did not add up to its own `metadata.total` on any reading, nor could a look-up by id
 * make it add up: a cache or a look-up built from it would be missing campaigns without saying so.
 */
export class IncompleteListingError extends ServiceError {
  readonly listed: number;
  readonly total: number;

  constructor(what: string, listed: number, total: number, readings: number) {
    super({
      kind: 'protocol',
      requestWritten: false,
      message:
        `The service counts ${total} campaigns in ${what} but listed ${listed}, on ${readings} readings. ` +
        'The ones it listed are kept; refresh again later, and if the numbers still differ, tell the service provider.',
    });
    this.name = 'IncompleteListingError';
    this.listed = listed;
    this.total = total;
  }
}

/**
 * The page size the service used for its first answer. A page that comes back shorter than asked
 * while the answer's own total says more rows follow may have been cut to the service's own page
 * size (the spec does not forbid a cap), or filtered after paging: asking for that size from then
 * on is right either way (page numbers then count pages no larger than the service's), at worst
 * reading some rows twice.
 */
function sizeUsed(asked: number, rows: number, start: number, total: number): number {
  return rows > 0 && rows < asked && start + rows < total ? rows : asked;
}

/** Readings of a listing at most, before a look-up by id or a failure that says so. */
export const MAX_READINGS = 4;

/**
 * Pages in a row that add no campaign, past the pages the total allows, that end a first reading,
 * at least. Pages may be short or empty before the last (rows filtered after paging), so one is not
 * the end; and a run as long as one the reading has already crossed is not either. Nor is a run as
 * long as the one that ended the reading before: any number of rows the listing leaves out may lie
 * before its last campaign, and a reading that stopped at the same run as the one before would list
 * the same rows and miss the same campaign (chaos seed 101, issue #25: a listing that held still
 * never added up). So after a reading that held still (one total) and listed fewer ids than it, the
 * next follows a run twice as long. A reading whose total moved is not short for that reason (other
 * users changed the listing while it was read), and a longer one would only cross more changes.
 */
export const EMPTY_RUN = 3;

/** The run of pages adding nothing, past the total, that ends a reading (`scale`: 1, doubled after each short still reading). */
export const emptyRunEnding = (scale: number, longestCrossed: number): number => Math.max(EMPTY_RUN, longestCrossed + 1) * scale;

/**
 * Reads of one reading beyond which a listing that keeps growing or never ends is not followed:
 * ten times the pages its total needs in pages of the most rows one held (rows filtered after
 * paging may leave most pages short).
 */
const readLimit = (total: number, rows: number) => 10 * Math.ceil(total / Math.max(1, rows)) + 10;

/** Ids a walk confirms by look-up to reconcile readings that did not add up (about 25 requests). */
export const MAX_CONFIRMED_IDS = 2000;

/** Tries of one failed page read (a 5xx, a dropped or cut answer), the first included. */
export const MAX_READ_ATTEMPTS = 6;

/** The whole listing in one request, streamed (streamCampaigns of the same query). */
export type WholeReader = () => AsyncIterable<StreamedListing>;

/** How a walk waits before it reads a failed page again: on the injected clock. */
export interface ReadRetry {
  clock: Clock;
  /** Exponential backoff with jitter from `baseMs` up to `maxMs`, when the answer named no Retry-After. */
  baseMs: number;
  maxMs: number;
}

/** The backoff of a failed read when nothing else is said: from 1 s up to 30 s. */
export const READ_RETRY_BACKOFF = { baseMs: 1_000, maxMs: 30_000 } as const;

const DEFAULT_RETRY: ReadRetry = { clock: systemClock, ...READ_RETRY_BACKOFF };

export interface WalkOptions {
  pageSize: number;
  what: string;
  signal?: AbortSignal;
  whole?: WholeReader;
  retry?: ReadRetry;
  /** The ones of these ids the service has now (a campaign_ids look-up): reconciles readings that did not add up. */
  confirm?: (ids: string[]) => Promise<Campaign[]>;
  /** What earlier walks of the connection learned (the page size that gets through). */
  memory?: SortMemory;
}

/** A failed read worth asking again: the service or the way to it failed this once, nothing was refused. */
function isTransient(e: ServiceError): boolean {
  if (e.kind === 'server' || e.kind === 'outcome_unknown' || e.kind === 'timeout' || e.kind === 'rate_limited') return true;
  // A 2xx whose body could not be read (cut short).
  return e.kind === 'protocol' && e.status !== undefined && e.status >= 200 && e.status < 300;
}

/** Page sizes tried after a refusal that names no size: each a divisor of 1,000, as are the sizes asked. */
const SMALLER_PAGES = [500, 250, 100, 50, 20, 10, 5, 2, 1];

/**
 * The page size to ask after `e` refused a read of `size` rows, or undefined when a smaller page
 * cannot be what the service wants. The interface names no largest page_size (4.2), and a service
 * may refuse one above its own (400) rather than serve less. The refusal's words usually name the
 * largest ("page_size must be between 1 and 100"): when they speak of the page size, the largest
 * number in them below `size` is tried first, else the next of SMALLER_PAGES (not with `namedOnly`). A query refused for another reason is refused at every size: it ends at 1.
 */
export function smallerPageAfterRefusal(e: unknown, size: number, opts: { namedOnly?: boolean } = {}): number | undefined {
  if (!(e instanceof ServiceError) || e.kind !== 'validation' || size <= 1) return undefined;
  const words = e.serverText ?? '';
  const named = /page.?size/i.test(words) ? (words.match(/\d+/g)?.map(Number) ?? []) : [];
  const hinted = Math.max(0, ...named.filter((n) => n >= 1 && n < size));
  if (hinted > 0) return hinted;
  return opts.namedOnly ? undefined : (SMALLER_PAGES.find((n) => n < size) ?? 1);
}

/**
 * A page refused as one that does not exist: 4.2 does not say what a page after the last answers,
 * and paging frameworks commonly refuse it (404, or 400 "Invalid page"). A 400 counts only where
 * it cannot be a refusal of the size: at a page size the service has taken, or at a page that
 * starts at or after the total the service gave.
 */
function pageDoesNotExist(e: unknown, notTheSize: boolean): boolean {
  return e instanceof ServiceError && (e.kind === 'not_found' || (e.kind === 'validation' && notTheSize));
}

/**
 * How many ids to name per request after `e` refused a look-up naming `count` of them, or
 * undefined when fewer cannot be what the service wants. 4.2 makes campaign_ids repeatable with
 * no largest count. Words that speak of the ids and name a number below `count` give the count;
 * otherwise half. A query refused for another reason is refused for one id too: it ends there.
 */
function fewerIdsAfterRefusal(e: unknown, count: number): number | undefined {
  if (!(e instanceof ServiceError) || e.kind !== 'validation' || count <= 1) return undefined;
  const words = e.serverText ?? '';
  const named = /ids?\b/i.test(words) ? (words.match(/\d+/g)?.map(Number) ?? []) : [];
  const hinted = Math.max(0, ...named.filter((n) => n >= 1 && n < count));
  return hinted > 0 ? hinted : Math.ceil(count / 2);
}

/** An answer that came and was then cut: a smaller one may get through. */
export const wasCut = (e: ServiceError) =>
  (e.kind === 'outcome_unknown' || e.kind === 'protocol' || e.kind === 'timeout') && e.status !== undefined;

/**
 * One read of a listing (a page, a look-up's page), asked again after a transient failure (5xx,
 * dropped, cut, limits given up) once its Retry-After has passed or a backoff with jitter, on the
 * injected clock, up to MAX_READ_ATTEMPTS tries: one failed page is no reason to throw away what a
 * walk has read. `failed` hears each failure that is retried (a walk shrinks its pages after a cut);
 * when it says the next read is a smaller request, that one's tries count afresh: a cut answer that
 * made the page smaller is progress, not a failure of the same read (a service that cuts answers
 * of more than 9 rows used up a page's tries on shrinking alone, and a 5xx then failed the refresh).
 */
export async function readAgainOnFailure<T>(
  retry: ReadRetry,
  signal: AbortSignal | undefined,
  read: () => Promise<T>,
  failed?: (e: ServiceError) => boolean | void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof ServiceError) || !isTransient(e) || attempt >= MAX_READ_ATTEMPTS || signal?.aborted) throw e;
      const smaller = failed?.(e) === true;
      const step = Math.min(retry.maxMs, retry.baseMs * 2 ** (attempt - 1));
      await waitOn(retry.clock, e.retryAfterMs ?? Math.round(step / 2 + Math.random() * (step / 2)), signal);
      // Cancelled while waiting (a refresh stopped, the app closing): not read again.
      if (signal?.aborted) throw e;
      if (smaller) attempt = 0;
    }
  }
}

/**
 * The unpaged answer failed in a way pages may not: cut, slow to start, refused or failed by the
 * service. A connection that cannot be made at all, a cancel or a refusal of our credentials or
 * access ends the walk instead.
 */
/**
 * Rows an unpaged answer (or one reading) may hold: its own count with room for what churn adds
 * while it streams (twice the total, at least a thousand more), or, before its metadata has come, a
 * bound far above any account (DECISIONS client 15; issue #26: an endless listing once wrote
 * 623,532 junk rows). More than that is junk, not an account.
 */
export const MAX_UNPAGED_ROWS_WITHOUT_TOTAL = 5_000_000;
export const unpagedRowLimit = (total: number | null): number => (total === null ? MAX_UNPAGED_ROWS_WITHOUT_TOTAL : 2 * total + 1000);

function unpagedBeyondLimit(what: string, rows: number, total: number | null): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    requestWritten: true,
    status: 200,
    message:
      total === null
        ? `The service kept listing campaigns of ${what} past ${rows} without saying how many there are; the rest is read in pages.`
        : `The service listed ${rows} campaigns of ${what} while counting ${total}; the rest is read in pages.`,
  });
}

const fallsBackToPages = (e: unknown) => e instanceof ServiceError && (isTransient(e) || e.kind === 'validation' || e.kind === 'not_found');

function waitOn(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      timer.cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimer(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

interface Reading {
  ids: IdSet;
  /** Every metadata.total its answers gave: more than one means the listing moved while it was read. */
  totals: Set<number>;
  total: number;
  /** It ended early (the unpaged answer failed after some rows): not a whole reading. */
  broken: boolean;
}

/**
 * Every row of a listing: the one listing walk of the client (the refresher and listAllCampaigns
 * both use it). A listing is not a snapshot (DECISIONS client 15): pages may be short or empty
 * before the last, the order may move and campaigns come and go between two reads. So:
 *
 * - A reading begins, given `whole`, with the whole listing in one unpaged, streamed request,
 *   handed on batch by batch. When that answer holds fewer rows than its total (a cap), the reading
 *   goes on from page 2 in pages of the size it used; when it is cut, slow to start or refused, the
 *   rows that came are handed on and the listing is read again in pages.
 * - Pages are read by number, a short page is not the end: a reading ends when its distinct ids
 *   cover the total, after a run of pages that add no campaign past the pages the total allows
 *   (EMPTY_RUN, or longer than any run the reading crossed), or after readLimit reads.
 * - A failed page (5xx, dropped, cut) is read again after its Retry-After or a backoff with jitter,
 *   up to MAX_READ_ATTEMPTS tries, a cut one in quarter-size pages; the pages already read are kept.
 * - A reading whose answers all gave the same total and whose distinct ids match it is the
 *   listing. Otherwise the listing moved (or miscounts): it is read again, up to MAX_READINGS
 *   times; once the ids read over all readings are at least the total and at most
 *   MAX_CONFIRMED_IDS, they are looked up by id (`confirm`), and the ones found, when they are as
 *   many as the total, are the listing (handed on as a reading of their own). Two readings that
 *   list the same ids under the same total end the walk at once: reading again would not change
 *   them. Then the walk fails with IncompleteListingError instead of passing off a part as the
 *   whole.
 *
 * Rows may repeat between pages; callers key them by id.
 */
export async function* walkListing(read: PageReader, opts: WalkOptions): AsyncGenerator<ListingStep, void, void> {
  const retry = opts.retry ?? DEFAULT_RETRY;
  let pagesDone = 0;
  const learned = opts.memory?.pagesGetThroughAt;
  let size = Math.min(opts.pageSize, learned ?? Infinity, opts.memory?.pagesTakenUpTo ?? Infinity);
  // Answers were cut before: pages made smaller got through, so neither the whole listing nor a
  // larger page is asked for again.
  let shrunk = false;
  // Learned from the first answer only: a short page later on holds rows filtered after paging, or
  // ends a listing that moved or miscounted; it is not a smaller page size (shrinking to it would
  // make every later read tiny).
  let sizeLearned = false;
  let wholeWorks = opts.whole !== undefined && learned === undefined;
  const cancelled = () => {
    if (opts.signal?.aborted) {
      throw new ServiceError({ kind: 'cancelled', requestWritten: false, message: `Listing the campaigns of ${opts.what} was cancelled.` });
    }
  };

  /**
   * One page, asked again after a transient failure; a cut answer is asked for in a quarter of the
   * size, a refused one smaller until the service takes it (smallerPageAfterRefusal).
   */
  const readPage = async (position: number): Promise<{ page: CampaignPage; start: number }> => {
    for (;;) {
      try {
        const read = await readPageOnce(position);
        if (refusedAbove !== undefined && opts.memory) opts.memory.pagesTakenUpTo = Math.min(opts.memory.pagesTakenUpTo ?? Infinity, size);
        takenSize = size;
        lastTotal = read.page.total;
        return read;
      } catch (e) {
        // A page after the last refused as one that does not exist (404, or 400 where it cannot be
        // of the size): the listing ends before it, as an empty page would say. An empty page
        // would also give the count as it is now (others create and delete meanwhile), which the
        // walk needs to know it has all: the first page is read for it, never the count of before.
        if (position > 0 && lastTotal !== undefined && pageDoesNotExist(e, takenSize === size || position >= lastTotal)) {
          const { page: first } = await readPageOnce(0);
          lastTotal = first.total;
          return { page: { campaigns: [], total: first.total, count: 0, metadata: {} }, start: Math.floor(position / size) * size };
        }
        const sameAsWhole = e instanceof ServiceError && wholeRefusal !== undefined && (e.serverText ?? '') === wholeRefusal;
        const smaller = sameAsWhole ? undefined : smallerPageAfterRefusal(e, size);
        if (smaller === undefined) throw e;
        refusedAbove = size;
        size = smaller;
      }
    }
  };
  // The last page size the service refused in this walk (then the size it took is remembered).
  let refusedAbove: number | undefined;
  // The last page size the service answered in this walk, and the total it gave last.
  let takenSize: number | undefined;
  let lastTotal: number | undefined;
  // The words of a refusal of the unpaged listing (a query refused whatever the page size).
  let wholeRefusal: string | undefined;
  const readPageOnce = (position: number): Promise<{ page: CampaignPage; start: number }> =>
    readAgainOnFailure(
      retry,
      opts.signal,
      async () => {
        cancelled();
        const number = Math.floor(position / size) + 1;
        const page = await read(number, size);
        if (shrunk && opts.memory) opts.memory.pagesGetThroughAt = Math.min(opts.memory.pagesGetThroughAt ?? Infinity, size);
        return { page, start: (number - 1) * size };
      },
      (e) => {
        // A quarter: the service may cap pages below what was asked, so halving the ask may not
        // shrink what it sends for several tries.
        if (!wasCut(e) || size <= 1) return false;
        size = Math.max(1, Math.floor(size / 4));
        shrunk = true;
        return true;
      },
    );

  async function* reading(pass: number): AsyncGenerator<ListingStep, Reading, void> {
    const r: Reading = { ids: new IdSet(), totals: new Set(), total: 0, broken: false };
    // Rows of the listing's order covered so far (the start of the next page).
    let position = 0;
    // The most rows one answer held: the service's page size, as far as the reading can tell.
    let mostRows = 0;
    if (wholeWorks && opts.whole) {
      cancelled();
      let rows = 0;
      let total: number | null = null;
      try {
        // While it streams, the walk is one request; the total is known once the metadata is.
        for await (const part of opts.whole()) {
          const unchanged = part.unchanged ?? [];
          rows += part.campaigns.length + unchanged.length;
          for (const c of part.campaigns) r.ids.add(c.id);
          for (const id of unchanged) r.ids.add(id);
          if (part.metadata) total = part.metadata.total;
          // An answer that never ends (or lists far more than it counts) is read no further: the
          // reading falls back to pages, whose number the total bounds.
          if (rows > unpagedRowLimit(total)) throw unpagedBeyondLimit(opts.what, rows, total);
          if (part.campaigns.length > 0 || unchanged.length > 0)
            yield {
              campaigns: part.campaigns,
              ...(part.digests ? { digests: part.digests } : {}),
              unchanged,
              total: Math.max(total ?? 0, rows),
              pagesDone,
              pagesTotal: pagesDone + 1,
              pass,
              streaming: true,
            };
        }
      } catch (e) {
        if (!fallsBackToPages(e)) throw e;
        // Refused with no page size asked: the same refusal of a page is not of its size.
        if (e instanceof ServiceError && e.kind === 'validation') wholeRefusal = e.serverText ?? '';
        // Pages from now on: the unpaged answer failed once and would most likely fail again.
        wholeWorks = false;
        pagesDone++;
        // Rows came: they are handed on, and the listing is read again in pages, a reading of its own.
        if (rows > 0) return { ...r, broken: true };
        total = null;
      }
      if (total !== null) {
        pagesDone++;
        r.total = total;
        lastTotal = total;
        r.totals.add(total);
        // A capped answer: its row count is the service's page size, and this was page 1 of it.
        if (rows > 0 && rows < total && !sizeLearned) {
          size = rows;
          sizeLearned = true;
        }
        mostRows = rows;
        const more = rows > 0 && r.ids.size < total;
        position = more ? size : 0;
        yield {
          campaigns: [],
          total,
          pagesDone,
          pagesTotal: pagesDone + (r.ids.size < total ? Math.ceil((total - r.ids.size) / size) : 0),
          pass,
        };
        if (r.ids.size >= total) return r;
      }
    }
    let reads = 0;
    // Pages in a row that added nothing, and the longest such run crossed so far.
    let emptyRun = 0;
    let longestRun = 0;
    for (;;) {
      const { page: p, start } = await readPage(position);
      pagesDone++;
      reads++;
      r.total = p.total;
      r.totals.add(p.total);
      const before = r.ids.size;
      for (const c of p.campaigns) r.ids.add(c.id);
      if (!sizeLearned) {
        size = sizeUsed(size, p.campaigns.length, start, p.total);
        sizeLearned = true;
      }
      position = start + size;
      mostRows = Math.max(mostRows, p.campaigns.length);
      if (r.ids.size === before) emptyRun++;
      else {
        longestRun = Math.max(longestRun, emptyRun);
        emptyRun = 0;
      }
      const pastTotal = start / size + 1 > Math.ceil(p.total / Math.max(1, mostRows));
      const ended = pastTotal && emptyRun >= emptyRunEnding(runScale, longestRun);
      // Ids enough for the total end a reading of a listing that held still. One whose total moved
      // while it was read is followed to its end: its ids include campaigns deleted since, and
      // those created meanwhile may sit in the pages not read yet.
      const covered = r.ids.size >= p.total && r.totals.size === 1;
      const more = !covered && !ended && reads < readLimit(p.total, mostRows);
      yield {
        campaigns: p.campaigns,
        total: p.total,
        pagesDone,
        pagesTotal: pagesDone + (more ? Math.max(1, Math.ceil((p.total - r.ids.size) / size)) : 0),
        pass,
      };
      if (!more) return r;
    }
  }

  const everRead = new IdSet();
  let previous: Reading | null = null;
  let last: Reading | null = null;
  let readings = 0;
  // How much longer than EMPTY_RUN a run must be to end a reading (emptyRunEnding).
  let runScale = 1;
  for (let pass = 1; pass <= MAX_READINGS; pass++) {
    const r: Reading = yield* reading(pass);
    readings++;
    last = r;
    if (!r.broken && r.totals.size === 1 && r.ids.size === r.total) return;
    for (const id of r.ids) everRead.add(id);
    if (opts.confirm && !r.broken && everRead.size >= r.total && everRead.size <= MAX_CONFIRMED_IDS) {
      // Reconcile by id: of every campaign any reading listed, the ones the service still has. As
      // many as the count of the reading's last answer (given after every id was read) is the
      // whole listing (see below why the count must come before the look-up).
      cancelled();
      const found = await opts.confirm([...everRead]);
      if (found.length === r.total) {
        yield { campaigns: found, total: r.total, pagesDone, pagesTotal: pagesDone, pass: pass + 1 };
        return;
      }
      // The count may have moved since the reading's last page (other users create and delete
      // while it runs): count again (one page, its rows read too), then look up again. Why the
      // count first: every id read was created before that count was given and ids are not used
      // again, so the ones the look-up finds after it are at most those the count holds; a
      // campaign the reads never saw (a create whose answer was lost) leaves them at least one
      // short. Looked up before the count, one deleted in between would hide such a campaign.
      const { page: now } = await readPage(0);
      pagesDone++;
      for (const c of now.campaigns) everRead.add(c.id);
      if (everRead.size <= MAX_CONFIRMED_IDS) {
        cancelled();
        const again = await opts.confirm([...everRead]);
        if (again.length === now.total) {
          yield { campaigns: again, total: now.total, pagesDone, pagesTotal: pagesDone, pass: pass + 1 };
          return;
        }
      }
    }
    // The same ids under the same total twice: another reading would list them again.
    if (
      previous &&
      !r.broken &&
      r.totals.size === 1 &&
      previous.total === r.total &&
      previous.ids.size === r.ids.size &&
      [...r.ids].every((id) => previous!.ids.has(id))
    )
      break;
    if (!r.broken) previous = r;
    // Held still and listed fewer than it counts: the campaigns it missed may lie past the run it stopped at.
    if (!r.broken && r.totals.size === 1 && r.ids.size < r.total) runScale *= 2;
  }
  throw new IncompleteListingError(opts.what, last?.ids.size ?? 0, last?.total ?? 0, readings);
}

/**
 * Whether the service refuses a sort by id (either direction): learned from one 400 and kept for
 * the connection, so no reader asks a refused query again and again.
 */
export interface SortMemory {
  idRefused: boolean;
  /** The most campaign_ids the service took in one look-up after it refused more (400). */
  idsTakenUpTo?: number;
  /**
   * The largest page size the service took after it refused a larger one (400): later reads of
   * this connection ask no more than that, instead of being refused again.
   */
  pagesTakenUpTo?: number;
  /**
   * The page size that got through after larger answers were cut (a service or a way there that
   * drops bodies above some size): later walks of this connection start there instead of spending
   * reads, on a tight budget, on answers that would be cut again.
   */
  pagesGetThroughAt?: number;
}

/** The order a walk asks for: by id, which nothing but a create or a delete can move. */
export const ID_ORDER = { field: 'id', direction: 'asc' } as const;

/**
 * Asks for ID_ORDER while the service accepts it (spec 4.2: primitive fields can be sorted, id
 * among them). A service that refuses it (400) is asked in its own order from then on: the walk's
 * reconciliation copes with an order that moves.
 */
export class StableOrder {
  /** Shared by every reader of one connection, so a refusal is learned once (ServiceClient.sortMemory). */
  constructor(private readonly memory: SortMemory = { idRefused: false }) {}

  get refused(): boolean {
    return this.memory.idRefused;
  }

  async read<T>(attempt: (sort: CampaignListQuery['sort']) => Promise<T>): Promise<T> {
    if (this.memory.idRefused) return attempt(undefined);
    try {
      return await attempt(ID_ORDER);
    } catch (e) {
      // Asked again without the sort even when the service took it before: a service may change.
      if (!isSortRefusal(e)) throw e;
      this.memory.idRefused = true;
      try {
        return await attempt(undefined);
      } catch (again) {
        // Refused without the sort too: it was the rest of the query (a page too large), not the sort.
        if (isSortRefusal(again)) this.memory.idRefused = false;
        throw again;
      }
    }
  }

  /** The same for a streamed listing: a refusal comes before its first row. */
  async *stream<T>(open: (sort: CampaignListQuery['sort']) => AsyncIterable<T>): AsyncGenerator<T, void, void> {
    if (this.memory.idRefused) {
      yield* open(undefined);
      return;
    }
    let first = true;
    try {
      for await (const part of open(ID_ORDER)) {
        first = false;
        yield part;
      }
    } catch (e) {
      if (!first || !isSortRefusal(e)) throw e;
      this.memory.idRefused = true;
      first = true;
      try {
        for await (const part of open(undefined)) {
          first = false;
          yield part;
        }
      } catch (again) {
        // Refused without the sort too: it was the rest of the query, not the sort.
        if (first && isSortRefusal(again)) this.memory.idRefused = false;
        throw again;
      }
    }
  }
}

const isSortRefusal = (e: unknown) => e instanceof ServiceError && e.kind === 'validation' && e.status === 400;

/**
 * Every campaign of a listing (all pages; with `campaignIds`, in as many requests as keep each
 * URL short enough, merged). Readings of the whole listing that do not add up (other users create
 * and delete meanwhile) are reconciled by a look-up of the ids they listed, as a refresh does.
 * Fails with IncompleteListingError rather than return a listing that does not add up to its total.
 */
export async function listAllCampaigns(
  exec: RequestExecutor,
  baseUrl: string,
  accountId: string,
  query: { fetchLevel: FetchLevel; sort?: CampaignListQuery['sort']; campaignIds?: CampaignListQuery['campaignIds']; pageSize?: number },
  opts: ListAllOptions = {},
): Promise<{ campaigns: Campaign[]; total: number }> {
  const { campaignIds, pageSize, sort, ...rest } = query;
  // Groups keep room for the sort a read adds (ID_ORDER unless the caller chose one).
  const groups: (string[] | undefined)[] =
    campaignIds !== undefined && campaignIds.length > 0
      ? campaignIdGroups({ ...rest, sort: sort ?? ID_ORDER }, campaignIds, opts.sortMemory?.idsTakenUpTo)
      : [undefined];
  const byId = new Map<string, Campaign>();
  let pagesDone = 0;
  // Without an order of the caller's, the stable one while the service accepts it.
  const order = new StableOrder(opts.sortMemory);
  while (groups.length > 0) {
    const ids = groups.shift();
    const only = { ...rest, ...(ids ? { campaignIds: ids } : {}) };
    const read: PageReader = (page, size) => {
      const ask = (s: CampaignListQuery['sort']) =>
        listCampaigns(exec, baseUrl, accountId, { ...only, ...(s ? { sort: s } : {}), page, pageSize: size }, opts);
      return sort ? ask(sort) : order.read(ask);
    };
    // A second reading of a group stands on its own: what the first one listed is dropped.
    let group = new Map<string, Campaign>();
    let pass = 1;
    // Without a page size asked for, each group is first asked for whole (one request).
    const open = (s: CampaignListQuery['sort']) => streamCampaigns(exec, baseUrl, accountId, { ...only, ...(s ? { sort: s } : {}) }, opts);
    const whole: WholeReader | undefined = pageSize === undefined ? () => (sort ? open(sort) : order.stream(open)) : undefined;
    const before = pagesDone;
    // A look-up by ids names a fixed set: each row any reading listed is one of them the service
    // had, so readings of a moving order are reconciled by what they listed together.
    const everListed = new Map<string, Campaign>();
    // The whole listing: the ones of the ids read the service has now, looked up by id.
    const { onProgress: _progress, onRows: _rows, ...quiet } = opts;
    const confirm = ids
      ? (found: string[]) => Promise.resolve(found.flatMap((id) => everListed.get(id) ?? []))
      : async (read: string[]) => (await listAllCampaigns(exec, baseUrl, accountId, { ...rest, campaignIds: read }, quiet)).campaigns;
    const walk: WalkOptions = {
      pageSize: pageSize ?? MAX_PAGE_SIZE,
      what: accountId,
      confirm,
      ...(whole ? { whole } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.retry ? { retry: opts.retry } : {}),
      ...(opts.sortMemory ? { memory: opts.sortMemory } : {}),
    };
    try {
      for await (const step of walkListing(read, walk)) {
        if (step.pass !== pass) {
          pass = step.pass;
          group = new Map();
        }
        pagesDone = before + step.pagesDone + (step.streaming ? 1 : 0);
        opts.onRows?.(step.campaigns);
        for (const c of step.campaigns) everListed.set(c.id, c);
        for (const c of step.campaigns) if (!group.has(c.id)) group.set(c.id, c);
        opts.onProgress?.({ page: pagesDone, fetched: byId.size + group.size, total: byId.size + step.total });
      }
    } catch (e) {
      const fewer = ids ? fewerIdsAfterRefusal(e, ids.length) : undefined;
      if (fewer === undefined) throw e;
      // Named more ids than the service takes at once: asked again in groups it takes (what this
      // group listed is read again with them), the count kept for the connection's later look-ups.
      if (opts.sortMemory) opts.sortMemory.idsTakenUpTo = Math.min(opts.sortMemory.idsTakenUpTo ?? Infinity, fewer);
      const parts: string[][] = [];
      for (let i = 0; i < ids!.length; i += fewer) parts.push(ids!.slice(i, i + fewer));
      groups.unshift(...parts);
      continue;
    }
    for (const [id, c] of group) byId.set(id, c);
  }
  return { campaigns: [...byId.values()], total: byId.size };
}
