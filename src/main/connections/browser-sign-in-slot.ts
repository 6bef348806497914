// The browser sign-in waiting for its callback: one at a time, since each listens on its redirect
// port, so a second one (the person clicked Sign in again, or signs in to another connection)
// replaces the first instead of failing on a port the app itself holds.

/** Why a browser sign-in was aborted when a newer one took its place (not the person's Cancel). */
const SUPERSEDED = 'superseded by a newer sign-in';

export class BrowserSignInSlot {
  #current: { profileId: string; abort: AbortController; done: Promise<unknown> } | null = null;

  /** Whether a sign-in stopped with this signal was replaced by a newer one (which owns the state now). */
  static superseded(signal: AbortSignal): boolean {
    return signal.reason === SUPERSEDED;
  }

  /** Runs a sign-in in the slot, after stopping (and waiting out) the one it replaces. */
  async run<T>(profileId: string, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const previous = this.#current;
    if (previous) {
      previous.abort.abort(SUPERSEDED);
      await previous.done.catch(() => undefined);
    }
    const abort = new AbortController();
    const done = start(abort.signal);
    const entry = { profileId, abort, done };
    this.#current = entry;
    try {
      return await done;
    } finally {
      if (this.#current === entry) this.#current = null;
    }
  }

  /** Stops this profile's sign-in if it is the one waiting; it then rejects. */
  cancel(profileId: string): boolean {
    if (this.#current?.profileId !== profileId) return false;
    this.#current.abort.abort();
    return true;
  }

  /** The app closes: the sign-in's loopback listener must not outlive it. */
  close(): void {
    this.#current?.abort.abort();
  }
}
