// Reloads that arrive in bursts (every outbox or drafts event asks for one): one runs at a time,
// and the calls made meanwhile share a single next run, which starts after it and so sees
// everything they were called for. No call waits on more than two runs.

/** `run` wrapped so that it never overlaps itself and a burst of calls costs at most one more run. */
export function oneAtATime(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = (): Promise<void> => {
    if (!running) {
      running = run().finally(() => {
        running = null;
      });
      return running;
    }
    next ??= running.then(() => {
      next = null;
      return start();
    });
    return next;
  };
  return start;
}
