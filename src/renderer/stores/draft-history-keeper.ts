// Keeps the drafts' undo history in the core (drafts.history / drafts.saveHistory), so that
// "Undo" still works after the window is reloaded. The drafts store knows nothing of it: this
// watches the store, reads an account's history when it opens, and writes each change.
import { boundDraftHistory, draftHistoryKey } from '../../shared/domain/draft-history';
import { call } from '../lib/api';
import type { History } from '../forms/draft-history';
import { useDrafts } from './drafts-store';
import type { AccountRef } from '../../shared/domain/account';

type Save = { ref: AccountRef; history: History };

/** Starts watching; returns the way to stop (for the window's effect cleanup). */
export function keepDraftHistory(): () => void {
  /** The account whose kept history was read: until then, its empty history must not overwrite the kept one. */
  let readFor: string | null = null;
  let pending: Save | null = null;
  let saving = false;

  // One write at a time, the newest waiting: typing merges steps, and only the last state matters.
  const save = async (next: Save) => {
    pending = next;
    if (saving) return;
    saving = true;
    try {
      while (pending) {
        const { ref, history } = pending;
        pending = null;
        await call('drafts.saveHistory', { ...ref, history: boundDraftHistory(history) }).catch(() => undefined);
      }
    } finally {
      saving = false;
    }
  };

  const read = async (ref: AccountRef) => {
    const key = draftHistoryKey(ref);
    const kept = await call('drafts.history', ref).catch(() => null);
    const now = useDrafts.getState();
    if (!now.account || draftHistoryKey(now.account) !== key) return;
    readFor = key;
    // A step taken while the history was on its way wins (it already cleared redo): it is saved as is.
    if (kept && now.history.undo.length === 0 && now.history.redo.length === 0) {
      // A merge key joins keystrokes of one sitting; after a reload typing starts a new step.
      const strip = (steps: typeof kept.undo) => steps.map(({ mergeKey: _merge, ...step }) => step) as History['undo'];
      useDrafts.setState({ history: { undo: strip(kept.undo), redo: strip(kept.redo) } });
    } else if (now.history.undo.length + now.history.redo.length > 0) void save({ ref: now.account, history: now.history });
  };

  const first = useDrafts.getState().account;
  if (first) void read(first);
  return useDrafts.subscribe((s, prev) => {
    const key = s.account ? draftHistoryKey(s.account) : null;
    if (key !== (prev.account ? draftHistoryKey(prev.account) : null)) {
      readFor = null;
      if (s.account) void read(s.account);
      return;
    }
    if (s.account && key === readFor && s.history !== prev.history) void save({ ref: s.account, history: s.history });
  });
}
