// The drafts' undo/redo history: every change (an edit in the editor, a bulk edit, a duplicate, an
// import, a delete) is one step holding each touched draft's payload before and after (null: the
// draft did not exist). Undo applies "before", redo "after". Typing in one field of one draft is a
// single step until another field or draft is edited, as in a spreadsheet.
import type { CampaignPayload } from './campaign-form';

export interface DraftSnap {
  id: string;
  payload: CampaignPayload | null;
}

export interface HistoryStep {
  label: string;
  before: DraftSnap[];
  after: DraftSnap[];
  /** Steps with the same key merge (consecutive typing in one field). */
  mergeKey?: string;
}

export interface History {
  undo: HistoryStep[];
  redo: HistoryStep[];
}

export const EMPTY_HISTORY: History = { undo: [], redo: [] };
const LIMIT = 200;

export function recordStep(h: History, step: HistoryStep): History {
  const top = h.undo[h.undo.length - 1];
  if (step.mergeKey !== undefined && top?.mergeKey === step.mergeKey) {
    return { undo: [...h.undo.slice(0, -1), { ...top, after: step.after }], redo: [] };
  }
  return { undo: [...h.undo, step].slice(-LIMIT), redo: [] };
}

/** The step to undo and the history after it, or null when there is nothing to undo. */
export function takeUndo(h: History): { step: HistoryStep; next: History } | null {
  const step = h.undo[h.undo.length - 1];
  if (!step) return null;
  return { step, next: { undo: h.undo.slice(0, -1), redo: [...h.redo, { ...step, mergeKey: undefined }] } };
}

export function takeRedo(h: History): { step: HistoryStep; next: History } | null {
  const step = h.redo[h.redo.length - 1];
  if (!step) return null;
  return { step, next: { undo: [...h.undo, step], redo: h.redo.slice(0, -1) } };
}
