// Applying a step of the drafts' undo history (forms/draft-history.ts holds the steps): the core is
// made to hold what the step's snaps say, all or none, and the drafts list is brought in line with
// its answer. Used for undo, redo and the bulk changes that record a step (edit many, delete).
import type { CampaignCreate } from '../../shared/domain/campaign';
import type { AccountRef } from '../../shared/domain/account';
import type { Draft } from '../../shared/ipc/contract';
import { call } from './api';
import type { DraftJournal } from './draft-journal';

/** A draft as a step leaves it: its payload, or null when the step leaves it absent (forms' DraftSnap). */
export interface SnapToWrite {
  id: string;
  payload: Partial<CampaignCreate> | null;
}

/** What the core holds after a step was written: the drafts removed, and the drafts saved as its answer gave them. */
export interface WrittenSnaps {
  gone: string[];
  saved: Draft[];
}

/** Removes the drafts the snaps say are gone, then saves the others; throws when the core refuses either. */
export async function writeSnaps(journal: DraftJournal, ref: AccountRef, snaps: readonly SnapToWrite[]): Promise<WrittenSnaps> {
  const gone = snaps.filter((x) => x.payload === null).map((x) => x.id);
  const present = snaps.flatMap((x) => (x.payload === null ? [] : [{ id: x.id, payload: x.payload }]));
  if (gone.length > 0) await call('drafts.deleteMany', { ids: gone });
  gone.forEach((id) => journal.remove(id));
  const saved =
    present.length > 0 ? await call('drafts.saveMany', { profileId: ref.profileId, accountId: ref.accountId, drafts: present }) : [];
  return { gone, saved };
}

/**
 * The drafts list once a step was written: removed drafts gone, saved ones replaced where they were
 * and new ones in front; whether the open draft (`selectedId`) went, or was saved again (`open`).
 */
export function afterWrite(
  drafts: readonly Draft[],
  selectedId: string | null,
  { gone, saved }: WrittenSnaps,
): { drafts: Draft[]; closed: boolean; open: Draft | undefined } {
  const savedIds = new Set(saved.map((d) => d.id));
  const kept = drafts.filter((d) => !gone.includes(d.id));
  return {
    drafts: [
      ...saved.filter((d) => !kept.some((k) => k.id === d.id)),
      ...kept.map((d) => (savedIds.has(d.id) ? saved.find((x) => x.id === d.id)! : d)),
    ],
    closed: !!selectedId && gone.includes(selectedId),
    open: selectedId ? saved.find((d) => d.id === selectedId) : undefined,
  };
}
