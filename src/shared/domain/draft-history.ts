// The drafts' undo history as the core keeps it, so that a reload of the window (or a restart)
// does not take away the person's way back. Bounded three ways, because a bulk step holds every
// touched draft's payload twice: steps per stack, bytes per account, and accounts kept.
import { z } from 'zod';

export const DRAFT_HISTORY_KEPT = {
  /** Steps of each stack (undo, redo) kept; the window keeps more while it is open. */
  steps: 50,
  /**
   * Half a browser-mode request body (ipc/wire's MAX_BODY_BYTES, which this layer does not import:
   * the contract imports the domain): the history travels in one call, with room to spare.
   */
  bytes: 512 * 1024,
  /** The accounts whose history is kept, the most recently changed first. */
  accounts: 20,
} as const;

const snapSchema = z.object({ id: z.string().min(1).max(200), payload: z.record(z.string(), z.unknown()).nullable() });
const stepSchema = z.object({
  label: z.string().max(300),
  before: z.array(snapSchema).max(5000),
  after: z.array(snapSchema).max(5000),
  mergeKey: z.string().max(300).optional(),
});

export const draftHistorySchema = z.object({
  undo: z.array(stepSchema).max(DRAFT_HISTORY_KEPT.steps),
  redo: z.array(stepSchema).max(DRAFT_HISTORY_KEPT.steps),
});
export type StoredDraftHistory = z.infer<typeof draftHistorySchema>;
type StoredStep = StoredDraftHistory['undo'][number];

/**
 * The newest steps of each stack that fit the bounds: the oldest undo steps go first (the least
 * likely to be wanted), then the redo steps furthest from the top.
 */
export function boundDraftHistory<S extends StoredStep>(h: { undo: S[]; redo: S[] }): { undo: S[]; redo: S[] } {
  const undo = h.undo.slice(-DRAFT_HISTORY_KEPT.steps);
  const redo = h.redo.slice(-DRAFT_HISTORY_KEPT.steps);
  const size = (s: S) => JSON.stringify(s).length + 1;
  let total = 24 + [...undo, ...redo].reduce((n, s) => n + size(s), 0);
  while (total > DRAFT_HISTORY_KEPT.bytes && undo.length > 0) total -= size(undo.shift()!);
  while (total > DRAFT_HISTORY_KEPT.bytes && redo.length > 0) total -= size(redo.shift()!);
  return { undo, redo };
}

/** The account's key among the kept histories. */
export const draftHistoryKey = (ref: { profileId: string; accountId: string }) => `${ref.profileId}/${ref.accountId}`;

/** The kept histories without those of the removed account, or of every account of a removed connection. */
export function withoutDraftHistory<H>(kept: Record<string, H>, removed: { profileId: string; accountId?: string }): Record<string, H> {
  const gone = (key: string) =>
    removed.accountId === undefined
      ? key.startsWith(`${removed.profileId}/`)
      : key === draftHistoryKey({ profileId: removed.profileId, accountId: removed.accountId });
  return Object.fromEntries(Object.entries(kept).filter(([k]) => !gone(k)));
}
