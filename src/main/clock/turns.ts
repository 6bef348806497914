// Letting the person's own work in during long work on the main thread (a refresh writing
// thousands of rows, a network finishing thousands of member caches): the loop gives the event
// loop a turn now and then, so a draft save, a window's query or a timer waits milliseconds, not
// the whole job.

/**
 * Resolves after the event loop has been round once: due timers and waiting I/O have run. One
 * setImmediate is not enough when the caller runs in an I/O callback (as a listing's chunks
 * arrive): it resolves in the same round's check phase, before any timer or I/O, and two slices
 * of work ran back to back. An immediate queued from the check phase waits for the next round,
 * which runs timers and I/O first.
 */
export function fullTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Work done without a turn before the person's own work is let in. */
const YIELD_AFTER_MS = 12;

/**
 * A loop's turn-taker: each call takes a full turn once YIELD_AFTER_MS of work has run without
 * one (a loop over promises that are already settled never gives one otherwise).
 */
export function turnTaker(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since <= YIELD_AFTER_MS) return;
    await fullTurn();
    since = performance.now();
  };
}
