// The renderer's one autosave engine, used by the campaign editor (drafts store) and the push
// composer (push store): an edit asks for a save after a short pause (a later edit moves it), and
// saves run one at a time in the order they were asked for, so an older save never lands after a
// newer one. What is saved, and what the journal holds meanwhile, stays with each store.

/** How long typing may pause before the edit is saved. */
export const AUTOSAVE_MS = 400;

/** What the editor says of its edits. */
export type SaveState = 'saved' | 'saving' | 'unsaved' | 'failed';

export interface Autosave {
  /** An edit was made: `onDue` runs after the pause, unless another edit or a save comes first. */
  schedule(): void;
  /** Forgets the pending pause (a save is starting that covers the edit). */
  cancel(): void;
  /** Runs `task` after every task run before it has finished, failed or not. */
  serial<T>(task: () => Promise<T>): Promise<T>;
}

export function createAutosave(onDue: () => void, delayMs = AUTOSAVE_MS): Autosave {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    schedule() {
      cancel();
      timer = setTimeout(() => {
        timer = null;
        onDue();
      }, delayMs);
    },
    cancel,
    serial(task) {
      const next = chain.then(task);
      chain = next.catch(() => undefined);
      return next;
    },
  };
}
