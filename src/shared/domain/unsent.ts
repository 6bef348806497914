// Everything of an account or a connection that has not reached the service yet: editable drafts
// and outbox items that are queued, on their way, being checked, failed or blocked. Removing an
// account or a connection deletes all of it, so the core refuses until the person has seen the
// list and chosen to discard it, and the dialog shows the same list grouped the same way.
import { z } from 'zod';

/** How the removal dialog groups unsent work, in the order it lists the groups. */
export const UNSENT_GROUPS = ['draft', 'queued', 'sending', 'uncertain', 'failed', 'blocked'] as const;
export type UnsentGroup = (typeof UNSENT_GROUPS)[number];

/** What the change does: a draft's kind, or an outbox item's. */
export const UNSENT_KINDS = ['campaign', 'push', 'update_task', 'cancel_task', 'set_sw_path'] as const;

export const unsentItemSchema = z.object({
  /** A draft's id, or an outbox item's id (its sequence number as text). */
  id: z.string(),
  source: z.enum(['draft', 'outbox']),
  group: z.enum(UNSENT_GROUPS),
  kind: z.enum(UNSENT_KINDS),
  /** The account it belongs to; empty for a connection's own push work. */
  accountId: z.string(),
  summary: z.string(),
  /** The service's words for a failed item, the fix for a blocked one, why a queued one waits. */
  words: z.string().nullable(),
  /**
   * A draft's problems by the shared rules, by field: the window says them under its own labels
   * (the same as the editor's), so they travel as data, not as the rules' interface words.
   */
  problems: z.array(z.object({ field: z.string(), message: z.string() })).default([]),
  /** What would be sent: a campaign's create fields, a push's events, a task change. No secret is ever in it. */
  payload: z.record(z.string(), z.unknown()),
  updatedAt: z.number(),
});
export type UnsentItem = z.infer<typeof unsentItemSchema>;

/**
 * What names one unsent change across a list and a removal: a removal says which ones the person
 * saw, so that a change made meanwhile (another window, an import) is never discarded unseen.
 */
export const unsentKey = (i: Pick<UnsentItem, 'source' | 'id'>) => `${i.source}:${i.id}`;

export const unsentListSchema = z.object({ items: z.array(unsentItemSchema) });
export type UnsentList = z.infer<typeof unsentListSchema>;

export type UnsentCounts = Record<UnsentGroup, number>;

export function countUnsent(items: readonly Pick<UnsentItem, 'group'>[]): UnsentCounts {
  const counts = Object.fromEntries(UNSENT_GROUPS.map((g) => [g, 0])) as UnsentCounts;
  for (const i of items) counts[i.group] += 1;
  return counts;
}

const ADJECTIVE: Record<Exclude<UnsentGroup, 'draft'>, string> = {
  queued: 'queued',
  sending: 'sending',
  uncertain: 'being checked',
  failed: 'failed',
  blocked: 'blocked',
};

function joinWords(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * The unsent work counted by kind, as a sentence's subject with its verb: "3 drafts, 1 queued and
 * 2 failed changes are not sent". Empty when nothing is unsent.
 */
export function unsentPhrase(counts: UnsentCounts): string {
  const drafts = counts.draft;
  const changeGroups = UNSENT_GROUPS.filter((g): g is Exclude<UnsentGroup, 'draft'> => g !== 'draft' && counts[g] > 0);
  const changes = changeGroups.reduce((n, g) => n + counts[g], 0);
  const parts: string[] = [];
  if (drafts > 0) parts.push(`${drafts} ${drafts === 1 ? 'draft' : 'drafts'}`);
  changeGroups.forEach((g, i) => {
    const last = i === changeGroups.length - 1;
    // The noun once, after the last adjective: "1 queued and 2 failed changes".
    parts.push(last ? `${counts[g]} ${ADJECTIVE[g]} ${changes === 1 ? 'change' : 'changes'}` : `${counts[g]} ${ADJECTIVE[g]}`);
  });
  if (parts.length === 0) return '';
  const total = drafts + changes;
  return `${joinWords(parts)} ${total === 1 ? 'is' : 'are'} not sent`;
}

/** Why a removal was refused, and what to do: export them or choose to discard them. */
export function unsentRefusal(counts: UnsentCounts): string {
  const total = UNSENT_GROUPS.reduce((n, g) => n + counts[g], 0);
  return `${unsentPhrase(counts)}: export ${total === 1 ? 'it' : 'them'} or choose to discard ${total === 1 ? 'it' : 'them'}.`;
}
