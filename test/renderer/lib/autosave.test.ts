// The renderer's one autosave engine: a save after a pause in typing, and saves one at a time in
// the order asked, so an older save never lands after a newer one. Time is advanced, not waited.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTOSAVE_MS, createAutosave } from '../../../src/renderer/lib/autosave';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('autosave', () => {
  it('saves once after typing pauses; each edit moves the pause', () => {
    const due = vi.fn();
    const a = createAutosave(due);
    a.schedule();
    vi.advanceTimersByTime(AUTOSAVE_MS - 1);
    a.schedule();
    vi.advanceTimersByTime(AUTOSAVE_MS - 1);
    expect(due).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('a save started by hand drops the pending pause', () => {
    const due = vi.fn();
    const a = createAutosave(due);
    a.schedule();
    a.cancel();
    vi.advanceTimersByTime(AUTOSAVE_MS * 2);
    expect(due).not.toHaveBeenCalled();
  });

  it('runs saves one at a time in order, even when the first is slow or fails', async () => {
    const a = createAutosave(() => undefined);
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = a.serial(
      () =>
        new Promise<string>((_resolve, reject) => {
          releaseFirst = () => {
            order.push('first');
            reject(new Error('offline'));
          };
        }),
    );
    const second = a.serial(async () => {
      order.push('second');
      return 'saved';
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    releaseFirst();
    await expect(first).rejects.toThrow('offline');
    await expect(second).resolves.toBe('saved');
    expect(order).toEqual(['first', 'second']);
  });
});
