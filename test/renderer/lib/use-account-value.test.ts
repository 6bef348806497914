// The values seen in an account's cache (the status filter's choices) are read again as a refresh
// keeps saying the cache changed: at most once per RE_READ_MS, always once after the last change,
// never after the account was left, and a failed read keeps what was shown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RE_READ_MS, watchAccountValue } from '../../../src/renderer/lib/use-account-value';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A watch whose reads answer 1, 2, 3… (or fail when told), with what it showed and a way to say "changed". */
function watch(fail: (n: number) => boolean = () => false) {
  let reads = 0;
  const shown: number[] = [];
  let changed: () => void = () => undefined;
  let listening = false;
  const stop = watchAccountValue<number>({
    read: () => {
      const n = ++reads;
      return fail(n) ? Promise.reject(new Error('the core could not read it')) : Promise.resolve(n);
    },
    show: (v) => shown.push(v),
    subscribe: (c) => {
      changed = c;
      listening = true;
      return () => (listening = false);
    },
  });
  return {
    stop,
    shown,
    reads: () => reads,
    change: () => changed(),
    listening: () => listening,
  };
}

describe('the reads of an account value', () => {
  it('reads once at once, and shows the answer', async () => {
    const w = watch();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.reads()).toBe(1);
    expect(w.shown).toEqual([1]);
  });

  it('reads again no sooner than RE_READ_MS after the last read while changes keep coming, then once after the last', async () => {
    const w = watch();
    // A refresh says "changed" every second for twelve seconds.
    for (let s = 1; s <= 12; s++) {
      await vi.advanceTimersByTimeAsync(1000);
      w.change();
    }
    // Reads at 0, 5 s and 10 s; the changes of 11 and 12 s are read at 15 s, once.
    expect(w.reads()).toBe(3);
    await vi.advanceTimersByTimeAsync(3 * RE_READ_MS - 12_000 - 1);
    expect(w.reads()).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(w.reads()).toBe(4);
    expect(w.shown).toEqual([1, 2, 3, 4]);
    // Quiet from then on: no more reads.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(w.reads()).toBe(4);
  });

  it('reads at once after a change that comes long after the last read', async () => {
    const w = watch();
    await vi.advanceTimersByTimeAsync(30_000);
    w.change();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.reads()).toBe(2);
  });

  it('keeps what it showed when a read fails', async () => {
    const w = watch((n) => n === 2);
    await vi.advanceTimersByTimeAsync(0);
    w.change();
    await vi.advanceTimersByTimeAsync(RE_READ_MS);
    expect(w.reads()).toBe(2);
    expect(w.shown).toEqual([1]);
  });

  it('neither reads nor shows anything once the account was left', async () => {
    const w = watch();
    await vi.advanceTimersByTimeAsync(0);
    w.change();
    w.stop();
    expect(w.listening()).toBe(false);
    await vi.advanceTimersByTimeAsync(RE_READ_MS * 3);
    expect(w.reads()).toBe(1);
    expect(w.shown).toEqual([1]);
  });

  it('does not show an answer that arrives after the account was left', async () => {
    let answer: (v: number) => void = () => undefined;
    const shown: number[] = [];
    const stop = watchAccountValue<number>({
      read: () => new Promise<number>((resolve) => (answer = resolve)),
      show: (v) => shown.push(v),
      subscribe: () => () => undefined,
    });
    stop();
    answer(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual([]);
  });
});
