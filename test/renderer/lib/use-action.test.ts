// The dialogs' shared action: busy while it runs, the service's words when it fails, and busy
// cleared however it ends (a dialog whose button stayed disabled after a failure could never retry).
import { describe, expect, it } from 'vitest';
import { DeskCallError } from '../../../src/renderer/lib/api';
import { runAction, type ActionState } from '../../../src/renderer/lib/use-action';

function recorder(): ActionState & { busy: boolean[]; errors: (string | null)[] } {
  const busy: boolean[] = [];
  const errors: (string | null)[] = [];
  return { busy, errors, setBusy: (b) => busy.push(b), setError: (e) => errors.push(e) };
}

const refusal = () => new DeskCallError('validation', 'The account id is not known to the service.');

describe('runAction', () => {
  it('is busy while the work runs, clears the last error first, and is not busy after', async () => {
    const s = recorder();
    let busyDuring: boolean[] = [];
    await runAction(s, async () => {
      busyDuring = [...s.busy];
    });
    expect(busyDuring).toEqual([true]);
    expect(s.busy).toEqual([true, false]);
    expect(s.errors).toEqual([null]);
  });

  it('shows a failure in the words of the refusal, and is no longer busy so it can be tried again', async () => {
    const s = recorder();
    await runAction(s, () => Promise.reject(refusal()));
    expect(s.errors).toEqual([null, 'The account id is not known to the service.']);
    expect(s.busy).toEqual([true, false]);
  });

  it('an unexpected failure says to try again rather than showing internals', async () => {
    const s = recorder();
    await runAction(s, () => Promise.reject(new TypeError('x is undefined')));
    expect(s.errors.at(-1)).toBe('Something went wrong. Try again.');
  });

  it('gives the failure to onError instead, and stays busy until onError is done', async () => {
    const s = recorder();
    const seen: unknown[] = [];
    const err = refusal();
    await runAction(
      s,
      () => Promise.reject(err),
      async (e) => {
        await Promise.resolve();
        seen.push(e, [...s.busy]);
      },
    );
    expect(seen).toEqual([err, [true]]);
    expect(s.errors).toEqual([null]);
    expect(s.busy).toEqual([true, false]);
  });
});
