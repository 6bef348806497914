// What the push composer does with journaled edits at start-up. A reload or a crash can leave the
// composer's last edits only in the journal; they come back into the composer, and any other push
// the core never created is created, so nothing typed is lost and nothing blank is kept.
import { pushDraftPayloadSchema } from '../../shared/ipc/contract';
import { isLocalDraftId, type JournalEntry } from '../lib/draft-journal';
import { formToPayload, newPushForm, payloadToForm, type PushForm } from './push-form';

const BLANK = JSON.stringify(formToPayload(newPushForm()));

/** A form with nothing typed in it (the prefilled default performer aside): not worth creating a draft for. */
export function isBlankPushForm(f: PushForm): boolean {
  return JSON.stringify(formToPayload({ ...f, performer: '' })) === BLANK;
}

/** The form a journal entry holds, or null when it is not a push payload (an older shape). */
export function journaledPushForm(e: JournalEntry): PushForm | null {
  if (e.kind !== 'push') return null;
  const parsed = pushDraftPayloadSchema.partial().safeParse(e.payload);
  return parsed.success ? payloadToForm(parsed.data) : null;
}

export interface PushRecoveryPlan {
  /** The newest edit: shown in the composer again. */
  open: { entry: JournalEntry; form: PushForm } | null;
  /** Other pushes never created in the core: created now. Edits of created drafts are replayed by the drafts store. */
  create: JournalEntry[];
  /** Local entries with nothing in them, or unreadable: removed. */
  drop: JournalEntry[];
}

export function planPushRecovery(entries: readonly JournalEntry[]): PushRecoveryPlan {
  const plan: PushRecoveryPlan = { open: null, create: [], drop: [] };
  const usable: { entry: JournalEntry; form: PushForm }[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'push') continue;
    const form = journaledPushForm(entry);
    const local = isLocalDraftId(entry.draftId);
    if (!form || (local && isBlankPushForm(form))) {
      if (local) plan.drop.push(entry);
      continue;
    }
    usable.push({ entry, form });
  }
  usable.sort((a, b) => b.entry.seq - a.entry.seq);
  plan.open = usable[0] ?? null;
  plan.create = usable
    .slice(1)
    .filter((u) => isLocalDraftId(u.entry.draftId))
    .map((u) => u.entry);
  return plan;
}
