// One outbox item as a service call, and the look-up that finds it on the service after its
// answer was lost. Pure service work: no state changes here, the drainer decides what they mean.
import { MAX_PAGE_SIZE, type Campaign, type CampaignCreate } from '../../shared/domain/campaign';
import type { PushEvent, Task } from '../../shared/domain/push';
import { compareIds } from '../../shared/domain/service-id';
import { isServiceError, readAgainOnFailure, readPageAt, type ListAllOptions, type ServiceClient } from '../service';
import type { OutboxItem } from '../store';
import { campaignMatchesCreate, targetApps, taskMatches } from './signature';

export type SendResult =
  /** campaign null: posted, but the answer did not say which campaign it made (look it up). */
  | { kind: 'create_campaign'; campaign: Campaign | null }
  | { kind: 'send_push'; ack: string }
  | { kind: 'update_task' | 'cancel_task'; ack: string }
  | { kind: 'set_sw_path' };

const PRIORITY = { priority: 'outbox' as const };

export async function performItem(client: ServiceClient, item: OutboxItem): Promise<SendResult> {
  switch (item.kind) {
    case 'create_campaign':
      return { kind: item.kind, campaign: await client.createCampaign(item.accountId ?? '', item.payload.body, PRIORITY) };
    case 'send_push':
      return { kind: item.kind, ack: await client.sendPush(item.payload.mode, item.payload.events, PRIORITY) };
    case 'update_task':
      return { kind: item.kind, ack: await client.updateTask(item.payload.taskId, item.payload.update, PRIORITY) };
    case 'cancel_task':
      return { kind: item.kind, ack: await client.deleteTask(item.payload.taskId, PRIORITY) };
    case 'set_sw_path':
      await client.setSwPath(item.payload, PRIORITY);
      return { kind: item.kind };
  }
}

/** A look-up's first read: the newest campaigns, a page small enough to be cheap. */
export const LOOKUP_PAGE_SIZE = 100;
/** Reads of the newest-first walk after which it gives way to one listing of everything. */
const NEWEST_FIRST_MAX_READS = 12;

const isDigits = (id: string): boolean => /^\d+$/.test(id);

/** What a read of the listing saw, and whether that was every row the listing holds. */
export interface ListingRead {
  campaigns: Campaign[];
  complete: boolean;
}

/**
 * The newest campaigns of the account (`sort=id,desc`), a cheap first look: one read of
 * LOOKUP_PAGE_SIZE usually covers what was created since the cache's newest campaign
 * (`newestKnownId`) on a service whose ids grow (issue #15: at most 2 reads). It widens only while
 * every row it read is newer than that id, in descending order. What it read proves presence, never
 * absence (ids need not grow): `complete` only when it read the whole listing. A page that fails
 * for the moment is read again (readAgainOnFailure); `seen` hears every page as it is read.
 */
export async function listNewestFirst(
  client: ServiceClient,
  accountId: string,
  newestKnownId: string | undefined,
  seen: (rows: readonly Campaign[]) => void = () => undefined,
): Promise<ListingRead> {
  const horizon = newestKnownId !== undefined && isDigits(newestKnownId) ? newestKnownId : undefined;
  const rows = new Map<string, Campaign>();
  let size = LOOKUP_PAGE_SIZE;
  let capped = false;
  // Rows covered so far, counted from the newest.
  let offset = 0;
  // The oldest id read so far: every row not read before must be older still (compared exactly, as digits).
  let oldest: string | undefined;
  const newestFirst = (page: number, pageSize: number) =>
    client.listCampaigns(accountId, { fetchLevel: 'RAP', page, pageSize, sort: { field: 'id', direction: 'desc' } }, PRIORITY);
  const read = (complete: boolean): ListingRead => ({ campaigns: [...rows.values()], complete });
  for (let reads = 0; reads < NEWEST_FIRST_MAX_READS; reads++) {
    const { page: p, end } = await readAgainOnFailure(client.readRetry, undefined, () => readPageAt(newestFirst, offset, size));
    seen(p.campaigns);
    let ordered = true;
    for (const c of p.campaigns) {
      if (rows.has(c.id)) continue; // read before: a page read again larger, or the listing moved down
      if (!isDigits(c.id) || (oldest !== undefined && compareIds(c.id, oldest) >= 0)) ordered = false; // not in descending id order: the sort was ignored
      else oldest = c.id;
      rows.set(c.id, c);
    }
    // Everything the listing holds has been read: nothing can hide further down.
    if (end >= p.total || p.campaigns.length === 0) return read(true);
    if (!ordered || horizon === undefined || end <= offset) return read(false);
    offset = end;
    // Reached a campaign the cache knew before the send, with the order shown by two rows or more.
    if (oldest !== undefined && compareIds(oldest, horizon) <= 0 && rows.size >= 2) return read(false);
    // A page cut short of what was asked while more rows follow: the service's own page size,
    // which page numbers count in from now on (and which asking for more would not change). A
    // full page of a service that serves what it is asked: widen, up to the largest page.
    if (p.campaigns.length < size) {
      size = p.campaigns.length;
      capped = true;
    } else if (!capped) size = Math.min(MAX_PAGE_SIZE, size * 10);
  }
  return read(false);
}


/** A query the service refused as such (4xx other than auth, limits and access): another one may do. */
const refusedQuery = (e: unknown) => isServiceError(e) && (e.kind === 'validation' || e.kind === 'not_found');

/**
 * Every campaign of the account, unsorted: in one request, or in pages when the service refuses
 * that. `seen` hears every row as it is read, readings that will not add up included.
 */
async function listWhole(client: ServiceClient, accountId: string, seen: ListAllOptions['onRows'], signal: AbortSignal): Promise<Campaign[]> {
  const opts = { ...PRIORITY, onRows: seen, signal };
  try {
    return (await client.listAllCampaigns(accountId, { fetchLevel: 'RAP' }, opts)).campaigns;
  } catch (e) {
    if (!refusedQuery(e)) throw e;
    return (await client.listAllCampaigns(accountId, { fetchLevel: 'RAP', pageSize: MAX_PAGE_SIZE }, opts)).campaigns;
  }
}

/**
 * The campaigns a lost create may have made. The newest first: enough when they hold a candidate
 * (`isCandidate`: not in the pre-send baseline, matching what was sent) or are the whole listing.
 * Otherwise the whole account, since only every row proves a create absent on a service whose new
 * ids may lie anywhere. A refused newest-first query (unsupported sort) falls back to that too.
 *
 * Presence needs one sighting, absence the whole listing: every row any read showed is kept, and
 * the walk stops at the first candidate. A walk that fails or gives up (pages failing past their
 * retries, a listing that never adds up while other users change the account) after a candidate
 * was shown still proves it present; without one it proves nothing and the look-up fails (looked
 * for again later), never "absent". So a present create is found within the reads of one walk,
 * whatever the page size, the order or the churn.
 */
export async function listForMatch(
  client: ServiceClient,
  accountId: string,
  newestKnownId: string | undefined,
  isCandidate: (c: Campaign) => boolean,
): Promise<Campaign[]> {
  const shown = new Map<string, Campaign>();
  // Stops the whole walk once a candidate is shown: reading on would only look for a second one.
  const found = new AbortController();
  const seen = (rows: readonly Campaign[]) => {
    for (const c of rows) shown.set(c.id, c);
    if (rows.some(isCandidate)) found.abort();
  };
  try {
    // A service known to refuse a sort by id (the interface names id among no commonly sorted
    // fields; the refresh may have learned it too) is read whole at once.
    if (!client.sortMemory.idRefused) {
      try {
        const newest = await listNewestFirst(client, accountId, newestKnownId, seen);
        if (newest.complete || found.signal.aborted) return newest.campaigns;
      } catch (e) {
        if (!refusedQuery(e)) throw e;
        client.sortMemory.idRefused = true;
      }
    }
    return await listWhole(client, accountId, seen, found.signal);
  } catch (e) {
    if (found.signal.aborted) return [...shown.values()];
    throw e;
  }
}

/** What a look-up found: one match, none, or several the person must choose between. */
export type MatchResult<T> = { kind: 'found'; match: T } | { kind: 'absent' } | { kind: 'ambiguous'; candidates: T[] };


/**
 * The campaign a create made, among those listed: one with what the create sent that is neither
 * in the baseline (it looked the same before we sent) nor claimed by another outbox item. More
 * than one such campaign is ambiguous: never guessed, never resolved by resending.
 */
export function matchCampaign(listed: readonly Campaign[], body: CampaignCreate, excluded: ReadonlySet<string>): MatchResult<Campaign> {
  const candidates = listed.filter((c) => !excluded.has(c.id) && campaignMatchesCreate(c, body)).sort((a, b) => compareIds(a.id, b.id));
  if (candidates.length === 0) return { kind: 'absent' };
  if (candidates.length === 1) return { kind: 'found', match: candidates[0] };
  return { kind: 'ambiguous', candidates };
}

/** The tasks a push's look-up found on the service. */
export interface PushTasksFound {
  /** Task ids taken for the push's own (per app, at most one per event sent to it). */
  found: string[];
  /** Tasks the push should have made: one per event and target app. */
  expected: number;
  /** When an app lists more matching tasks than the push sent it events: all of them (ask the person). */
  ambiguous: string[];
}

/**
 * The tasks a push made: one per event and target app, looked up with `listTasks` (the service,
 * or the cache just refreshed). `firstSentAt` is on the service's clock.
 */
export async function findPushTasks(
  listTasks: (appId: string) => Promise<Task[]>,
  item: Extract<OutboxItem, { kind: 'send_push' }>,
  firstSentAt: number,
  excluded: ReadonlySet<string>,
  owedElsewhere: (appId: string, candidates: readonly Task[], listed: readonly Task[]) => number = () => 0,
): Promise<PushTasksFound> {
  const eventsByApp = new Map<string, PushEvent[]>();
  for (const ev of item.payload.events) {
    for (const appId of targetApps(ev)) eventsByApp.set(appId, [...(eventsByApp.get(appId) ?? []), ev]);
  }
  const out: PushTasksFound = { found: [], expected: 0, ambiguous: [] };
  for (const [appId, events] of eventsByApp) {
    out.expected += events.length;
    const tasks = await listTasks(appId);
    const matching = tasks.filter((t) => !excluded.has(t.taskId) && events.some((ev) => taskMatches(t, ev, appId, item.payload.mode, firstSentAt)));
    const candidates = matching.map((t) => t.taskId).sort(compareIds);
    // Tasks other pushes of the same content own without knowing which (sent while the list did
    // not show them yet) are not ours to take: only what is left over can be this push's.
    const owed = Math.min(candidates.length, owedElsewhere(appId, matching, tasks));
    const ours = candidates.length - owed;
    if (ours > events.length) out.ambiguous.push(...candidates);
    else out.found.push(...candidates.slice(owed));
  }
  return out;
}
