// A local journal of draft edits not yet confirmed saved by the core. Autosave is debounced, so a
// reload or a crash inside the debounce window would lose the last keystrokes; the journal is
// written synchronously on every edit and replayed at the next start. Drafts hold no secrets.
import { z } from 'zod';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

const PREFIX = 'desk.draft-journal.';
const LOCAL = 'local-';

/**
 * A journal key for a draft the core has not created yet (a new push composer before its first
 * save answers): the edits typed in that window must survive a reload too.
 */
export function newLocalDraftId(): string {
  return `${LOCAL}${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export const isLocalDraftId = (draftId: string): boolean => draftId.startsWith(LOCAL);

export const journalEntrySchema = z.object({
  draftId: z.string().min(1),
  kind: z.enum(['campaign', 'push']),
  profileId: z.string(),
  accountId: z.string(),
  payload: z.record(z.string(), z.unknown()),
  /** A counter per edit, so a save confirms only the edits it carried. */
  seq: z.number().int(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

export interface DraftJournal {
  write(entry: JournalEntry): void;
  read(draftId: string): JournalEntry | null;
  /** Drops the entry if no edit newer than `seq` was written meanwhile. */
  confirm(draftId: string, seq: number): void;
  remove(draftId: string): void;
  /** Every entry of one account whose draft the core created (replayable by id). */
  forAccount(profileId: string, accountId: string): JournalEntry[];
  /** Entries of one account under a local id: drafts to create, not to update. */
  unsavedForAccount(profileId: string, accountId: string): JournalEntry[];
  /**
   * The core created `localId` as `draftId` with the edit `seq`: drops the local entry, or moves
   * edits typed while the create was on its way under the new id so they are not lost.
   */
  adopt(localId: string, draftId: string, seq: number): void;
}

export function createDraftJournal(storage: KeyValueStorage | null): DraftJournal {
  const safe = <T>(f: () => T, fallback: T): T => {
    try {
      return f();
    } catch {
      // Storage full or disabled: autosave still runs, only the crash window is unprotected.
      return fallback;
    }
  };
  const read = (draftId: string): JournalEntry | null =>
    safe(() => {
      const raw = storage?.getItem(PREFIX + draftId);
      if (!raw) return null;
      const parsed = journalEntrySchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    }, null);
  return {
    write(entry) {
      safe(() => storage?.setItem(PREFIX + entry.draftId, JSON.stringify(entry)), undefined);
    },
    read,
    confirm(draftId, seq) {
      const cur = read(draftId);
      if (cur && cur.seq <= seq) safe(() => storage?.removeItem(PREFIX + draftId), undefined);
    },
    remove(draftId) {
      safe(() => storage?.removeItem(PREFIX + draftId), undefined);
    },
    forAccount: (profileId, accountId) => entriesOf(profileId, accountId).filter((e) => !isLocalDraftId(e.draftId)),
    unsavedForAccount: (profileId, accountId) => entriesOf(profileId, accountId).filter((e) => isLocalDraftId(e.draftId)),
    adopt(localId, draftId, seq) {
      const cur = read(localId);
      if (cur && cur.seq > seq) safe(() => storage?.setItem(PREFIX + draftId, JSON.stringify({ ...cur, draftId })), undefined);
      safe(() => storage?.removeItem(PREFIX + localId), undefined);
    },
  };

  function entriesOf(profileId: string, accountId: string): JournalEntry[] {
    if (!storage) return [];
    const out: JournalEntry[] = [];
    const keys = safe(() => Array.from({ length: storage.length }, (_, i) => storage.key(i)), [] as (string | null)[]);
    for (const k of keys) {
      if (!k?.startsWith(PREFIX)) continue;
      const e = read(k.slice(PREFIX.length));
      if (e && e.profileId === profileId && e.accountId === accountId) out.push(e);
    }
    return out;
  }
}

/** The journal over this window's localStorage (none outside a browser, e.g. in unit tests). */
export function browserDraftJournal(): DraftJournal {
  return createDraftJournal(typeof window === 'undefined' ? null : window.localStorage);
}
