// Quitting while a lost create's look-up waits to read a failed page again: the wait runs on the
// injected clock (the service's Retry-After), which may not move again before the app closes. The
// close must not wait for it (chaos seed 1152249674: a restart hung for good), and the change is
// neither lost nor sent twice: the next start looks for it again and finds it.
import { afterEach, describe, expect, it } from 'vitest';
import { advanceUntil, type Env, outboxItem, startEnv, submitCampaign } from '../../helpers/world';
import { campaignPayload, fault } from '../../helpers/sandbox';
import { listReads } from './support';

const ACCOUNT = 'oldtimerltd';
const LIST = `/core/api/1.0/${ACCOUNT}/campaigns`;
/** Far longer than any test: only a close that stops the wait ends in time. */
const RETRY_AFTER_S = 3600;
let env: Env | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Resolves with what `p` gives, or 'still waiting' after `ms` of real time (a guard against a hang, not a sleep). */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'still waiting'>((res) => setTimeout(() => res('still waiting'), ms).unref())]);

describe('closing while a look-up waits for the service', () => {
  it('closes at once, and the next start finds the change (sent once)', async () => {
    // A service applying late or listing late is another test's subject: here the look-up must find
    // the create at the next start, once.
    env = await startEnv({ clock: 'manual', variants: { late_apply_ms: undefined, listing_lag_ms: undefined } });
    const e = env;
    const since = e.sandbox.lastRequestSeq();
    await fault(e.sandbox, { method: 'POST', path_prefix: LIST, mode: 'close_after', count: 1 });
    await fault(e.sandbox, { method: 'GET', path_prefix: LIST, mode: 'status_503', retry_after: RETRY_AFTER_S, count: 1 });
    const item = await submitCampaign(e, ACCOUNT, campaignPayload('Closed while looking'));
    await advanceUntil(
      e,
      async () => (await listReads(e.sandbox, ACCOUNT, since)).some((r) => (r as { status?: number }).status === 503),
      'the look-up to be refused',
      10 * 60_000,
      1_000,
    );
    expect(await within(e.core.close(), 5_000)).toBeUndefined();
    await e.restart();
    await advanceUntil(e, async () => (await outboxItem(e, item.id))?.state === 'sent', 'the create to be found', 3 * 60 * 60_000);
    expect(await outboxItem(e, item.id)).toMatchObject({ state: 'sent', attempts: 1 });
  });
});
