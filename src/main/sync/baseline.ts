// Which ids on the service must never be taken for an item's own work: those that already looked
// like it before it was first sent (from the cache, recorded in the item's send note) and those
// that other outbox items have already claimed as theirs (recorded in their results).
import { z } from 'zod';
import type { OutboxItem, Store } from '../store';
import { campaignSignature, targetApps, taskMatches } from './signature';

export const createResultSchema = z.looseObject({ campaignId: z.string() });
export const pushResultSchema = z.looseObject({ taskIds: z.array(z.string()) });

const QUERY_PAGE = 1000;

/** Cached campaigns of the account with the same content as the create. */
export function campaignBaseline(store: Store, item: Extract<OutboxItem, { kind: 'create_campaign' }>): string[] {
  const sig = campaignSignature(item.payload.body);
  const out: string[] = [];
  const ref = { profileId: item.profileId, accountId: item.accountId ?? '' };
  for (let offset = 0; ; offset += QUERY_PAGE) {
    const page = store.campaigns.query({ ...ref, text: item.payload.body.name.slice(0, 200), limit: QUERY_PAGE, offset });
    for (const c of page.rows) if (campaignSignature(c) === sig) out.push(c.id);
    if (page.rows.length < QUERY_PAGE) break;
  }
  return out;
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
