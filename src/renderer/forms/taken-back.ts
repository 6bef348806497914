// Why a draft taken back to be fixed was not posted: the service refused it, or the app held it
// back (blocked). The two are told apart because only the first is the service's word.
import type { Draft } from '../../shared/ipc/contract';

/** What a draft taken back to be fixed carries: the service's refusal, or the app's reason for holding it. */
export interface TakenBack {
  words: string;
  /** Held back by the app (its time passed, the rules refused it): the service never saw it. */
  blocked: boolean;
}

export function takenBackOf(d: Pick<Draft, 'serviceWords' | 'blockedWords'>): TakenBack | null {
  if (d.blockedWords) return { words: d.blockedWords, blocked: true };
  return d.serviceWords ? { words: d.serviceWords, blocked: false } : null;
}
