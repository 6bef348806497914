// A lost create's look-up that fails as a whole (every read of it refused with 503 and a
// Retry-After, past the walk's own tries) is tried again no sooner than the service asked, not
// after the drainer's shorter backoff: a service that says "come back in ten minutes" is not asked
// again within seconds. Virtual time: the sandbox and the core share a ManualClock.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_READ_ATTEMPTS } from '../../../src/main/service/campaigns-api';
import { advanceUntil, type Env, outboxItem, startEnv, submitCampaign } from '../../helpers/world';
import { campaignPayload, fault } from '../../helpers/sandbox';
import { listReads } from './support';

const ACCOUNT = 'oldtimerltd';
const LIST = `/core/api/1.0/${ACCOUNT}/campaigns`;
const RETRY_AFTER_S = 600;
let env: Env | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('a lost answer whose look-up fails as a whole', () => {
  it("is looked for again no sooner than the service's Retry-After", async () => {
    env = await startEnv({ clock: 'manual' });
    const e = env;
    const since = e.sandbox.lastRequestSeq();
    // The create's answer is lost; every read of the look-ups that follow is refused, as many times as a read is tried.
    await fault(e.sandbox, { method: 'GET', path_prefix: LIST, mode: 'status_503', retry_after: RETRY_AFTER_S, count: MAX_READ_ATTEMPTS });
    await fault(e.sandbox, { method: 'POST', path_prefix: LIST, mode: 'close_after', count: 1 });
    const item = await submitCampaign(e, ACCOUNT, campaignPayload('Asked to wait'));
    await advanceUntil(e, async () => (await outboxItem(e, item.id))?.state === 'sent', 'the create to be found', 6 * 60 * 60_000, 60_000);
    const reads = (await listReads(e.sandbox, ACCOUNT, since)) as unknown as { seq: number; time: number; status: number | null }[];
    const refused = reads.filter((r) => r.status === 503);
    expect(refused).toHaveLength(MAX_READ_ATTEMPTS);
    const lastRefused = refused[refused.length - 1];
    const next = reads.find((r) => r.seq > lastRefused.seq);
    expect(next, 'a read after the failed look-up').toBeDefined();
    expect(next!.time - lastRefused.time).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    // Found, not sent twice.
    expect(await outboxItem(e, item.id)).toMatchObject({ state: 'sent', attempts: 1 });
  });
});
