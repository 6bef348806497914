// The lane bound holds during a look-up too (DECISIONS client 16: "No change waits for that
// decision longer than a stated bound while the account's other changes wait behind it"). One
// look-up can outlast the bound by far: a rate-limited account (150 listing reads an hour) whose
// service answers one row a page and refuses every sort needs more reads than an hour allows to
// prove a create absent. The item is parked at the bound, mid-look-up, and the account's next
// change goes out; before, the drainer could not park an item while its look-up ran, and chaos seed
// 2138484777 held a create undecided past the hour (issue #25).
import { afterEach, describe, expect, it } from 'vitest';
import type { Fixtures } from '../../../src/sandbox/index';
import { campaignPayload, fault, testFixtures } from '../../helpers/sandbox';
import { advanceUntil, type Env, outboxItem, startEnv, submitCampaign } from '../../helpers/world';
import { creates } from './support';

// Created after 2026-10-04: rate limited (listing: 2 a second, 15 a minute, 150 an hour).
const ACCOUNT = 'acmeshoes';
const CREATE = `/core/api/1.0/${ACCOUNT}/campaigns`;
const HOLD = 5 * 60_000;
const MINUTE = 60_000;

/** The test world with 200 more approved campaigns in the account: 200 one-row pages at least. */
function crowded(): Fixtures {
  const f = testFixtures();
  for (let i = 0; i < 200; i++) {
    f.campaigns!.push({
      account_id: ACCOUNT,
      id: 6_000_001 + i,
      name: `Crowd ${i + 1}`,
      branding_text: 'Acme Shoes',
      status: 'APPROVED',
      created_at: '2026-10-01T00:00:00Z',
      bid_strategy: 'FIXED',
      cpc: 0.3,
      spending_limit: 900,
      spending_limit_model: 'MONTHLY',
      marketing_objective: 'LEADS_GENERATION',
    });
  }
  return f;
}

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('a look-up slower than the lane bound', () => {
  it('is stopped at the bound: the item is parked, and the next change of the account goes out', async () => {
    env = await startEnv({
      clock: 'manual',
      fixtures: crowded(),
      // Pages of one row in the service's own order; nothing else that changes what is read or when.
      variants: {
        page_size_cap: 1,
        refuse_sort: 'all',
        late_apply_ms: undefined,
        listing_lag_ms: undefined,
        write_answer: undefined,
        cut_body: undefined,
        transient_5xx: undefined,
      },
      tuning: { laneHoldMs: HOLD },
    });
    const e = env;
    // The create fails with a 500 before anything is done: uncertain for the client, absent on the
    // service, which only a read of all 200-odd rows proves.
    await fault(e.sandbox, { method: 'POST', path_prefix: CREATE, mode: 'status_500', count: 1 });
    const lost = await submitCampaign(e, ACCOUNT, campaignPayload('Slow look-up boots'));
    const next = await submitCampaign(e, ACCOUNT, campaignPayload('Behind the slow look-up boots'));
    await advanceUntil(e, async () => (await outboxItem(e, lost.id))?.state === 'uncertain', 'the create to be in doubt', MINUTE, 1_000);
    const since = e.clock!.now();
    // Parked within the bound (and a minute for the look-up's read in flight), saying what to check.
    await advanceUntil(
      e,
      async () => (await outboxItem(e, lost.id))?.lastError?.code === 'PARKED',
      'the create to be parked',
      HOLD + MINUTE,
      10_000,
    );
    expect(e.clock!.now() - since).toBeLessThanOrEqual(HOLD + MINUTE);
    expect((await outboxItem(e, lost.id))?.lastError?.message).toMatch(
      /Check the account on the service: if it is not there, send it again/,
    );
    // The lane goes on: the next change is sent while the lost one waits aside, never sent again.
    await advanceUntil(e, async () => (await outboxItem(e, next.id))?.state === 'sent', 'the next change to go out', 10 * MINUTE, 10_000);
    expect((await creates(e.sandbox, ACCOUNT)).map((r) => r.outcome)).toEqual(['fault_500', 'ok']);
  }, 120_000);
});
