// A create the service took (a 2xx) without naming the campaign it made happened: the account's
// next change does not wait while the app looks for its id, and the search is bounded — when every
// listing keeps failing it ends, after POSTED_ID_SEARCH_MS, as sent with its id unknown (chaos
// seed 27: such a create held its account's lane for hours on a tight read budget with churn).
import { afterEach, describe, expect, it } from 'vitest';
import { POSTED_ID_SEARCH_MS, POSTED_ID_UNKNOWN_CODE } from '../../../src/shared/domain/outbox';
import { advanceUntil, type Env, outboxItem, startEnv, submitCampaign } from '../../helpers/world';
import { campaignPayload, fault, onService } from '../../helpers/sandbox';

const ACCOUNT = 'oldtimerltd';
const LIST = `/core/api/1.0/${ACCOUNT}/campaigns`;
let env: Env | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('a create posted without its id', () => {
  it('lets the next change of the account go ahead, and ends as sent (id unknown) when its id cannot be found', async () => {
    env = await startEnv({ clock: 'manual', variants: { write_answer: 'empty', listing_lag_ms: undefined, late_apply_ms: undefined } });
    const e = env;
    // Every listing read fails for longer than the search lasts.
    await fault(e.sandbox, { method: 'GET', path_prefix: LIST, mode: 'status_503', count: 100_000 });
    const first = await submitCampaign(e, ACCOUNT, campaignPayload('Posted without a name'));
    await advanceUntil(
      e,
      async () => (await outboxItem(e, first.id))?.lastError?.code === POSTED_ID_UNKNOWN_CODE,
      'the create posted',
      60_000,
      1_000,
    );
    await submitCampaign(e, ACCOUNT, campaignPayload('Queued behind it'));
    // Sent while the first still looks for its id: it does not hold the lane.
    await advanceUntil(
      e,
      async () => (await onService(e.sandbox, ACCOUNT, 'Queued behind it')).length === 1,
      'the second create sent',
      10 * 60_000,
      10_000,
    );
    expect((await outboxItem(e, first.id))?.state).toBe('uncertain');
    await advanceUntil(
      e,
      async () => (await outboxItem(e, first.id))?.state === 'sent',
      'the search to end',
      POSTED_ID_SEARCH_MS + 60 * 60_000,
    );
    expect((await outboxItem(e, first.id))?.posted).toBeUndefined();
    // Sent once, never again.
    expect(await onService(e.sandbox, ACCOUNT, 'Posted without a name')).toHaveLength(1);
  });
});
