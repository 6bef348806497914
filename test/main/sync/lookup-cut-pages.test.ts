// A lost create's first look (the newest campaigns first) on a service that cuts answers of more
// than a few rows: a cut page is asked for again smaller, as a walk does, so the look-up finds the
// create in a few reads instead of spending its tries on answers cut again and falling back to a
// walk of the whole account (chaos seed 1051283740 looked for 8 hours on such a service).
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

describe('a lost create looked for on a service that cuts answers of more than 3 rows', () => {
  it('is found in a few reads within the hour, and sent once', async () => {
    env = await startEnv({
      clock: 'manual',
      variants: { cut_body: 3, listing_lag_ms: undefined, late_apply_ms: undefined, page_size_cap: undefined, write_answer: undefined },
    });
    const e = env;
    await fault(e.sandbox, { method: 'POST', path_prefix: LIST, mode: 'close_after', count: 1 });
    const since = e.sandbox.lastRequestSeq();
    const item = await submitCampaign(e, ACCOUNT, campaignPayload('Found in small pages'));
    await advanceUntil(e, async () => (await outboxItem(e, item.id))?.state === 'sent', 'the create found', 60 * 60_000, 10_000);
    expect(await outboxItem(e, item.id)).toMatchObject({ state: 'sent', attempts: 1 });
    // Three cut answers (100, 25 and 6 rows asked) before pages of 1 get through, then a few of
    // those; the old look-up had not found it after an hour.
    const reads = await listReads(e.sandbox, ACCOUNT, since);
    expect(reads.length).toBeLessThanOrEqual(8);
  });
});
