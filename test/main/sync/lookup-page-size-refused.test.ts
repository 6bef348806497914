// A lost create's look-up on a service that refuses pages larger than it serves (page_size_max):
// the newest-first read is asked again at the largest page the refusal names, so the look-up stays
// a read or two (not a walk of the whole account), the create is sent once, and the refusal of the
// page is not taken for a refused sort by id.
import { afterEach, describe, expect, it } from 'vitest';
import { advanceUntil, type Env, outboxItem, startEnv, submitCampaign } from '../../helpers/world';
import { campaignPayload, fault } from '../../helpers/sandbox';
import { listReads } from './support';

const ACCOUNT = 'oldtimerltd';
const LIST = `/core/api/1.0/${ACCOUNT}/campaigns`;
let env: Env | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('a lost create looked for on a service that refuses pages of more than 20 rows', () => {
  it('is found at the page size the service takes, sent once, and the sort by id is still used', async () => {
    env = await startEnv({
      clock: 'manual',
      variants: {
        page_size_max: 20,
        listing_lag_ms: undefined,
        late_apply_ms: undefined,
        page_size_cap: undefined,
        write_answer: undefined,
      },
    });
    const e = env;
    await fault(e.sandbox, { method: 'POST', path_prefix: LIST, mode: 'close_after', count: 1 });
    const since = e.sandbox.lastRequestSeq();
    const item = await submitCampaign(e, ACCOUNT, campaignPayload('Found in pages of 20'));
    await advanceUntil(e, async () => (await outboxItem(e, item.id))?.state === 'sent', 'the create found', 60 * 60_000, 10_000);
    expect(await outboxItem(e, item.id)).toMatchObject({ state: 'sent', attempts: 1 });
    const reads = await listReads(e.sandbox, ACCOUNT, since);
    // One refused (100 rows asked), then the newest 20.
    expect(reads.filter((r) => r.status === 400)).toHaveLength(1);
    expect(reads.length).toBeLessThanOrEqual(3);
    // The page was refused, not the sort: the read that found it was the newest first by id.
    expect(reads.filter((r) => r.status === 200).map((r) => r.sort)).toEqual(['id,desc']);
  });
});
