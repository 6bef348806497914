// A long job on the main thread takes turns so the person's own work gets in: a turn must let a
// due timer (and waiting I/O) run even when the job runs in an I/O callback, as a refresh does
// while a listing's chunks arrive. These run on Node's real event loop.
import { readFile } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fullTurn, turnTaker } from '../../../src/main/clock/turns';

/** Runs `job` inside an I/O callback (a file read), as socket data would. */
const inIoCallback = (job: () => Promise<void>) =>
  new Promise<void>((resolve, reject) => readFile(__filename, () => job().then(resolve, reject)));

describe('a turn of the event loop', () => {
  it('lets a due timer run first, even from an I/O callback (one setImmediate does not)', async () => {
    const order: string[] = [];
    await inIoCallback(async () => {
      setTimeout(() => order.push('timer'), 0);
      // Long enough for the timer to be due.
      const until = performance.now() + 3;
      while (performance.now() < until);
      await new Promise<void>((resolve) => setImmediate(resolve));
      order.push('after one setImmediate');
      await fullTurn();
      order.push('after a full turn');
    });
    expect(order).toEqual(['after one setImmediate', 'timer', 'after a full turn']);
  });

  it('is taken only once the job has run for a while, and then lets timers in', async () => {
    let timers = 0;
    const tick = setInterval(() => timers++, 1);
    try {
      await inIoCallback(async () => {
        const takeTurn = turnTaker();
        const before = timers;
        // Short work: no turn, so no timer can have run.
        await takeTurn();
        expect(timers).toBe(before);
        const until = performance.now() + 20;
        while (performance.now() < until);
        await takeTurn();
        expect(timers).toBeGreaterThan(before);
      });
    } finally {
      clearInterval(tick);
    }
  });
});
