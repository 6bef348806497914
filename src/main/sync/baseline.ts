// Which ids on the service must never be taken for an item's own work: those that already looked
// like it before it was first sent (from the cache, recorded in the item's send note) and those
// that other outbox items have already claimed as theirs (recorded in their results). Also where a
// create's newest-first look-up may stop early once it found something: the newest campaign the
// cache knew before the send (a hint only: ids need not grow, so "absent" never rests on it).
import { z } from 'zod';
import type { OutboxItem, Store } from '../store';
import type { PushEvent, PushMode, Task } from '../../shared/domain/push';
import { campaignMatchesCreate, normalText, targetApps, taskMatches } from './signature';

export const createResultSchema = z.looseObject({ campaignId: z.string() });
export const pushResultSchema = z.looseObject({ taskIds: z.array(z.string()) });

const QUERY_PAGE = 1000;

/** Cached campaigns of the account that the create would be taken for. */
export function campaignBaseline(store: Store, item: Extract<OutboxItem, { kind: 'create_campaign' }>): string[] {
  const body = item.payload.body;
  const out: string[] = [];
  const ref = { profileId: item.profileId, accountId: item.accountId ?? '' };
  // The text filter narrows to names containing ours. The cache holds names as the service stored
  // them (perhaps normalised), so the needle is the longest run of ASCII letters and digits, which
  // no normal form changes; without one, every cached campaign is compared.
  const needle = (normalText(body.name).match(/[A-Za-z0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '').slice(0, 200);
  for (let offset = 0; ; offset += QUERY_PAGE) {
    const page = store.campaigns.query({ ...ref, ...(needle ? { text: needle } : {}), limit: QUERY_PAGE, offset });
    for (const c of page.rows) if (campaignMatchesCreate(c, body)) out.push(c.id);
    if (page.rows.length < QUERY_PAGE) break;
  }
  return out;
}

/**
 * The newest (largest numeric) campaign id the cache holds for the create's account, before it
 * is sent: where a look-up reading the newest campaigns first stops widening when it found nothing
 * new (it then reads the whole listing, since a service may give new campaigns smaller ids).
 * Undefined for an empty cache.
 */
export function newestCachedCampaignId(store: Store, item: Extract<OutboxItem, { kind: 'create_campaign' }>): string | undefined {
  const ref = { profileId: item.profileId, accountId: item.accountId ?? '' };
  const [newest] = store.campaigns.query({ ...ref, sort: { field: 'id', direction: 'desc' }, limit: 1, offset: 0 }).rows;
  return newest && /^\d+$/.test(newest.id) ? newest.id : undefined;
}

/** Cached tasks that the push would be taken for. */
export function taskBaseline(store: Store, item: Extract<OutboxItem, { kind: 'send_push' }>): string[] {
  const out = new Set<string>();
  for (const ev of item.payload.events) {
    for (const appId of targetApps(ev)) {
      for (const t of store.tasks.list(item.profileId, appId)) {
        if (taskMatches(t, ev, appId, item.payload.mode, -Infinity)) out.add(t.taskId);
      }
    }
  }
  return [...out];
}

/** Campaign ids that sent creates of the same account are known to have made. */
export function claimedCampaignIds(store: Store, item: OutboxItem): Set<string> {
  const out = new Set<string>();
  for (const other of store.outbox.list({ profileId: item.profileId, accountId: item.accountId, states: ['sent'] })) {
    if (other.kind !== 'create_campaign' || other.seq === item.seq) continue;
    const r = createResultSchema.safeParse(other.result);
    if (r.success) out.add(r.data.campaignId);
  }
  return out;
}

/** Task ids that sent pushes of the profile are known to have made. */
export function claimedTaskIds(store: Store, item: OutboxItem): Set<string> {
  const out = new Set<string>();
  for (const other of store.outbox.list({ profileId: item.profileId, states: ['sent'] })) {
    if (other.kind !== 'send_push' || other.seq === item.seq) continue;
    const r = pushResultSchema.safeParse(other.result);
    if (r.success) for (const id of r.data.taskIds) out.add(id);
  }
  return out;
}

/**
 * How many of `candidates` (tasks of `appId` that look like `item`'s, outside its baseline and
 * unclaimed) other pushes of the profile own without knowing which: pushes sent whose tasks the
 * list did not show yet (a lagging or failed read right after the send). Each event of theirs for
 * that app is given one task of its content: first one of `baseline` (unclaimed tasks that
 * existed before `item` was sent: its task may be there), else one of the candidates, which is
 * then owed. A look-up for `item` leaves that many candidates for them, so that two identical
 * pushes never both count one task, and a push that never arrived is not taken for sent.
 */
export function tasksOwedElsewhere(
  store: Store,
  item: OutboxItem,
  appId: string,
  candidates: readonly Task[],
  baseline: readonly Task[],
): number {
  const inBaseline = [...baseline];
  const inCandidates = [...candidates];
  let owed = 0;
  const take = (pool: Task[], ev: PushEvent, mode: PushMode): boolean => {
    // Its time is not known on the service's clock: content alone says it could be one of these.
    const i = pool.findIndex((t) => taskMatches(t, ev, appId, mode, -Infinity));
    if (i < 0) return false;
    pool.splice(i, 1);
    return true;
  };
  for (const other of store.outbox.list({ profileId: item.profileId, states: ['sent'] })) {
    if (other.kind !== 'send_push' || other.seq === item.seq) continue;
    const r = pushResultSchema.safeParse(other.result);
    if (r.success && r.data.taskIds.length > 0) continue;
    for (const ev of other.payload.events) {
      if (!targetApps(ev).includes(appId) || take(inBaseline, ev, other.payload.mode)) continue;
      if (take(inCandidates, ev, other.payload.mode)) owed++;
    }
  }
  return owed;
}
