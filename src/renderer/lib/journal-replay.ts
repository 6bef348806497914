// The journal's way back into the core (lib/draft-journal.ts keeps the entries). A reload or a
// crash inside autosave's pause leaves the last edits only in the journal: when an account's drafts
// are read again, edits of drafts the core has are saved, and pushes the core never created are
// created. Each entry leaves the journal only once the core confirmed it; one that fails stays for
// the next try. The stores call these and keep only what the answers mean for their state.
import type { AccountRef } from '../../shared/domain/account';
import type { Draft } from '../../shared/ipc/contract';
import { call } from './api';
import type { DraftJournal, JournalEntry } from './draft-journal';

/** Journal entries of this account that the core never confirmed: saved now; the list as it is after. */
export async function replayJournal(journal: DraftJournal, ref: AccountRef, drafts: Draft[]): Promise<Draft[]> {
  let out = drafts;
  for (const e of journal.forAccount(ref.profileId, ref.accountId)) {
    if (!out.some((d) => d.id === e.draftId)) {
      journal.remove(e.draftId); // submitted or deleted meanwhile
      continue;
    }
    try {
      const saved = await call('drafts.save', {
        kind: e.kind,
        id: e.draftId,
        profileId: ref.profileId,
        accountId: ref.accountId,
        payload: e.payload,
      } as Parameters<typeof call<'drafts.save'>>[1]);
      journal.confirm(e.draftId, e.seq);
      out = out.map((d) => (d.id === saved.id ? saved : d));
    } catch {
      // Kept in the journal for the next try.
    }
  }
  return out;
}

/** Pushes journaled under a local id (never created in the core): created now, their entries adopted. */
export async function createJournaledPushes(journal: DraftJournal, ref: AccountRef, entries: readonly JournalEntry[]): Promise<void> {
  for (const e of entries) {
    try {
      const d = await call('drafts.save', { kind: 'push', profileId: ref.profileId, accountId: ref.accountId, payload: e.payload });
      journal.adopt(e.draftId, d.id, e.seq);
    } catch {
      // Kept in the journal for the next start.
    }
  }
}
