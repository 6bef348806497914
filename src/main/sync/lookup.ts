// The look-up of a create or push whose answer was lost: the reads of the service that may show it
// (newest campaigns first, the whole listing when that proves nothing; the target apps' tasks) and
// the matching of what they show against what the item sent (signature.ts), minus what must never
// be taken for it (baseline.ts). Reads only: lost-answers.ts decides what a result means.
import { MAX_PAGE_SIZE, type Campaign, type CampaignCreate } from '../../shared/domain/campaign';
import type { PushEvent, Task } from '../../shared/domain/push';
import { compareIds } from '../../shared/domain/service-id';
import {
  isServiceError,
  readAgainOnFailure,
  readPageAt,
  smallerPageAfterRefusal,
  wasCut,
  type ListAllOptions,
  type ServiceClient,
} from '../service';
import type { OutboxItem, SendNote, Store } from '../store';
import { claimedCampaignIds, claimedTaskIds, tasksOwedElsewhere } from './baseline';
import { noteOnServiceClock, sendNoteRef, type SendNotes } from './send-notes';
import { campaignMatchesCreate, targetApps, taskMatches } from './signature';

const PRIORITY = { priority: 'outbox' as const };

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
  signal?: AbortSignal,
): Promise<ListingRead> {
  const horizon = newestKnownId !== undefined && isDigits(newestKnownId) ? newestKnownId : undefined;
  const rows = new Map<string, Campaign>();
  // Not larger than what got through a service that cuts large answers, or than the largest page a
  // service that refuses larger ones took (both learned by earlier walks).
  const largest = Math.min(client.sortMemory.pagesGetThroughAt ?? Infinity, client.sortMemory.pagesTakenUpTo ?? Infinity);
  let size = Math.min(LOOKUP_PAGE_SIZE, largest);
  let capped = Number.isFinite(largest);
  // Rows covered so far, counted from the newest.
  let offset = 0;
  // The oldest id read so far: every row not read before must be older still (compared exactly, as digits).
  let oldest: string | undefined;
  // Every metadata.total the answers gave: more than one, and the listing moved while it was read.
  const totals = new Set<number>();
  // The signal reaches the request too: a read waiting for the budget stops with the look-up.
  const newestFirst = (page: number, pageSize: number) =>
    client.listCampaigns(
      accountId,
      { fetchLevel: 'RAP', page, pageSize, sort: { field: 'id', direction: 'desc' } },
      { ...PRIORITY, ...(signal ? { signal } : {}) },
    );
  const read = (complete: boolean): ListingRead => ({ campaigns: [...rows.values()], complete });
  for (let reads = 0; reads < NEWEST_FIRST_MAX_READS; reads++) {
    let shrunk = false;
    const readOnce = () =>
      readAgainOnFailure(
        client.readRetry,
        signal,
        () => readPageAt(newestFirst, offset, size),
        // A cut answer is asked for again in a quarter of the size, as a walk does (its tries count afresh).
        (e) => {
          if (!wasCut(e) || size <= 1) return false;
          size = Math.max(1, Math.floor(size / 4));
          shrunk = capped = true;
          return true;
        },
      );
    let answer: Awaited<ReturnType<typeof readOnce>> | undefined;
    while (answer === undefined) {
      try {
        answer = await readOnce();
      } catch (e) {
        // A page larger than the service takes, refused in words that name its largest: asked again
        // at that size. Without such words the refusal may be of the sort: the caller reads whole.
        const smaller = smallerPageAfterRefusal(e, size, { namedOnly: true });
        if (smaller === undefined) throw e;
        size = smaller;
        capped = true;
        client.sortMemory.pagesTakenUpTo = Math.min(client.sortMemory.pagesTakenUpTo ?? Infinity, size);
      }
    }
    const { page: p, end } = answer;
    if (shrunk) client.sortMemory.pagesGetThroughAt = Math.min(client.sortMemory.pagesGetThroughAt ?? Infinity, size);
    seen(p.campaigns);
    let ordered = true;
    for (const c of p.campaigns) {
      if (rows.has(c.id)) continue; // read before: a page read again larger, or the listing moved down
      if (!isDigits(c.id) || (oldest !== undefined && compareIds(c.id, oldest) >= 0))
        ordered = false; // not in descending id order: the sort was ignored
      else oldest = c.id;
      rows.set(c.id, c);
    }
    // Everything the listing holds has been read: as many distinct rows as every answer counted.
    // Not where the pages end: rows may be filtered after paging (short or empty pages before the
    // last), so neither an empty page nor a position past the total proves that nothing follows
    // (chaos seed 773999938: an empty first page of the newest ids was taken for the whole listing,
    // and a posted create found in no look-up was settled without its id).
    totals.add(p.total);
    if (rows.size >= p.total && totals.size === 1) return read(true);
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
async function listWhole(
  client: ServiceClient,
  accountId: string,
  seen: ListAllOptions['onRows'],
  signal: AbortSignal,
): Promise<Campaign[]> {
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
  closing?: AbortSignal,
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
        const newest = await listNewestFirst(client, accountId, newestKnownId, seen, closing);
        if (newest.complete || found.signal.aborted) return newest.campaigns;
      } catch (e) {
        if (!refusedQuery(e)) throw e;
        // A 400 is taken for the sort's refusal; a 404 is a page that does not exist (the listing
        // shrank meanwhile), not the sort's.
        if (isServiceError(e) && e.kind === 'validation') client.sortMemory.idRefused = true;
      }
    }
    return await listWhole(client, accountId, seen, closing ? AbortSignal.any([found.signal, closing]) : found.signal);
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
    const matching = tasks.filter(
      (t) => !excluded.has(t.taskId) && events.some((ev) => taskMatches(t, ev, appId, item.payload.mode, firstSentAt)),
    );
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

/** What a look-up concluded: the ids found (a create's campaign as listed), none, or several to ask about. */
export type LookUpResult =
  | { kind: 'found'; ids: string[]; campaign?: Campaign }
  | { kind: 'absent' }
  | { kind: 'ambiguous'; candidates: string[] };

/**
 * The tasks a push made, among those `listTasks` gives per target app (default: the service's
 * list of the push's mode). Read first, then matched: the answers teach the service's clock,
 * which the note's times are moved to before they are compared with the tasks' times.
 */
export async function findPush(
  store: Store,
  notes: SendNotes,
  item: Extract<OutboxItem, { kind: 'send_push' }>,
  client: ServiceClient,
  listTasks?: (appId: string) => Promise<Task[]>,
  signal?: AbortSignal,
): Promise<PushTasksFound | undefined> {
  const stored = notes.get(item.seq, sendNoteRef(item));
  if (!stored) return undefined;
  const read =
    listTasks ?? ((appId: string) => client.listTasks(appId, item.payload.mode, { priority: 'outbox', ...(signal ? { signal } : {}) }));
  const byApp = new Map<string, Task[]>();
  for (const appId of new Set(item.payload.events.flatMap(targetApps))) byApp.set(appId, await read(appId));
  const note = noteOnServiceClock(stored, client.serviceClock.offsetMs());
  const claimed = claimedTaskIds(store, item);
  const excluded = new Set([...note.baseline, ...claimed]);
  const before = new Set(note.baseline);
  const owed = (appId: string, candidates: readonly Task[], listed: readonly Task[]) =>
    tasksOwedElsewhere(
      store,
      item,
      appId,
      candidates,
      listed.filter((t) => before.has(t.taskId) && !claimed.has(t.taskId)),
    );
  return findPushTasks(async (appId) => byApp.get(appId) ?? [], item, note.firstSentAt, excluded, owed);
}

/** Looks for an uncertain create or push on the service: found, absent, or ambiguous. */
export async function lookUp(
  store: Store,
  notes: SendNotes,
  item: Extract<OutboxItem, { kind: 'create_campaign' | 'send_push' }>,
  client: ServiceClient,
  note: SendNote,
  closing?: AbortSignal,
): Promise<LookUpResult> {
  if (item.kind === 'create_campaign') {
    const excluded = new Set([...note.baseline, ...claimedCampaignIds(store, item)]);
    const isCandidate = (c: Campaign) => !excluded.has(c.id) && campaignMatchesCreate(c, item.payload.body);
    const listed = await listForMatch(client, item.accountId ?? '', note.newestKnownId, isCandidate, closing);
    const r = matchCampaign(listed, item.payload.body, excluded);
    if (r.kind === 'found') return { kind: 'found', ids: [r.match.id], campaign: r.match };
    if (r.kind === 'ambiguous') return { kind: 'ambiguous', candidates: r.candidates.map((c) => c.id) };
    return r;
  }
  const r = await findPush(store, notes, item, client, undefined, closing);
  if (!r || (r.found.length === 0 && r.ambiguous.length === 0)) return { kind: 'absent' };
  if (r.ambiguous.length > 0) return { kind: 'ambiguous', candidates: r.ambiguous };
  // The service creates all of a push's tasks or none: some found means it was applied.
  return { kind: 'found', ids: r.found };
}
