// What the service calls a posted change, read from what the engine stored when it settled the
// item as sent (after-sent.ts, a look-up after a lost answer, or the person's "It is campaign N"):
// a create's campaign id, a push's task ids. Shown in the Outbox history and the Activity line.
import { z } from 'zod';

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
