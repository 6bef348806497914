// The one clock: a ManualClock fires timers in time order as it is advanced, each at its own time,
// and a timer already due fires on the next turn without anyone advancing (as setTimeout 0 would).
import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../../src/main/clock/clock';

describe('ManualClock', () => {
  it('fires timers in time order while advancing, each seeing its own time, and not those cancelled or not yet due', () => {
    const clock = new ManualClock(1_000);
    const seen: string[] = [];
    clock.setTimer(() => seen.push(`b@${clock.now()}`), 200);
    clock.setTimer(() => seen.push(`a@${clock.now()}`), 100);
    clock.setTimer(() => seen.push('cancelled'), 150).cancel();
    clock.setTimer(() => seen.push('late'), 10_000);
    // A timer set by a timer is fired in the same advance when it falls due within it.
    clock.setTimer(() => clock.setTimer(() => seen.push(`chained@${clock.now()}`), 50), 120);
    clock.advance(500);
    expect(seen).toEqual(['a@1100', 'chained@1170', 'b@1200']);
    expect(clock.now()).toBe(1_500);
    expect(clock.nextTimerAt()).toBe(11_000);
  });

  it('fires a timer that is already due on the next turn, without moving time', async () => {
    const clock = new ManualClock(5_000);
    const fired = new Promise<number>((resolve) => clock.setTimer(() => resolve(clock.now()), 0));
    expect(await fired).toBe(5_000);
    expect(clock.now()).toBe(5_000);
  });
});

describe('systemClock', () => {
  it("waits the longest a timer can for a delay beyond setTimeout's range, instead of firing at once", async () => {
    let fired = false;
    const far = systemClock.setTimer(() => (fired = true), 2 ** 40);
    const soon = new Promise<void>((resolve) => systemClock.setTimer(resolve, 1));
    await soon;
    far.cancel();
    expect(fired).toBe(false);
  });
});
