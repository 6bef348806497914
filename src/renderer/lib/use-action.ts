// A dialog's one action at a time: its buttons wait while it runs, and what it met is shown in the
// service's words. Every dialog that calls the core did this by hand; the questions particular to
// one dialog (save offline anyway? a cancelled sign-in) stay in that dialog, through onError.
import { useState } from 'react';
import { messageOf } from './api';

export interface ActionState {
  setBusy(busy: boolean): void;
  setError(message: string | null): void;
}

/** What to do with a failure instead of showing its message (e.g. asking a question). */
export type OnActionError = (err: unknown) => void | Promise<void>;

/**
 * Runs the work with busy set and the last error cleared; a failure becomes the error shown, or is
 * given to onError. Busy is cleared however it ends, so a failed action can be tried again.
 */
export async function runAction(state: ActionState, work: () => Promise<void>, onError?: OnActionError): Promise<void> {
  state.setBusy(true);
  state.setError(null);
  try {
    await work();
  } catch (err) {
    if (onError) await onError(err);
    else state.setError(messageOf(err));
  } finally {
    state.setBusy(false);
  }
}

export interface Action {
  busy: boolean;
  error: string | null;
  setError(message: string | null): void;
  run(work: () => Promise<void>, onError?: OnActionError): Promise<void>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return { busy, error, setError, run: (work, onError) => runAction({ setBusy, setError }, work, onError) };
}
