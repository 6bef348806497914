// What the service calls a posted change, read from what the engine stored when it settled the
// item as sent (after-sent.ts, a look-up after a lost answer, or the person's "It is campaign N"):
// a create's campaign id, a push's task ids. Shown in the Outbox history and the Activity line.
import { z } from 'zod';
import type { Store } from '../store';

const sentResultSchema = z.object({
  campaignId: z.union([z.string(), z.number()]).optional(),
  taskIds: z.array(z.union([z.string(), z.number()])).optional(),
});

export interface PostedAs {
  kind: 'campaign' | 'task';
  ids: string[];
}

/** undefined when the answer named nothing (a task edit, a service-worker path, an old row). */
export function postedAs(result: unknown): PostedAs | undefined {
  const r = sentResultSchema.safeParse(result);
  if (!r.success) return undefined;
  if (r.data.campaignId !== undefined) return { kind: 'campaign', ids: [String(r.data.campaignId)] };
  if (r.data.taskIds && r.data.taskIds.length > 0) return { kind: 'task', ids: r.data.taskIds.map(String) };
  return undefined;
}

/** "campaign 4100123", "task 77", "tasks 77, 78". */
export function postedWords(p: PostedAs): string {
  return `${p.kind}${p.ids.length > 1 ? 's' : ''} ${p.ids.join(', ')}`;
}

/** How long a listing may take to show a campaign after it was created, unless tuned (DECISIONS client 16). */
export const DEFAULT_LISTING_LAG_MS = 60_000;

/**
 * Campaigns the profile's creates posted since `since` (our clock; when each item was settled as
 * sent). A lagging listing may not show them yet, and a refresh must not remove them for that.
 */
export function justPostedCampaignIds(store: Store, profileId: string, since: number): Set<string> {
  const out = new Set<string>();
  for (const item of store.outbox.list({ profileId, states: ['sent'] })) {
    if (item.kind !== 'create_campaign' || item.updatedAt < since) continue;
    const posted = postedAs(item.result);
    if (posted?.kind === 'campaign') for (const id of posted.ids) out.add(id);
  }
  return out;
}
