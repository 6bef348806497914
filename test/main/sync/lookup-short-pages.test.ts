// A lost create's first look (the newest campaigns first) on a service that filters rows after
// paging (spec 4.2 does not say a page holds page_size rows): an empty page of the newest ids, or a
// position past the total, is not the end of the listing. Before, an empty first page was taken for
// the whole listing: a create whose answer was lost (applied, new ids below older ones) was called
// absent twice and sent again, and a create answered without a body was settled without its id
// (chaos seed 773999938, issue #25).
import { afterEach, describe, expect, it } from 'vitest';
import type { Fixtures } from '../../../src/sandbox/index';
import { campaignPayload, fault, onService, testFixtures } from '../../helpers/sandbox';
import { advanceUntil, type Env, outboxItem, startEnv, submitCampaign } from '../../helpers/world';
import { creates } from './support';

// Not rate limited: the test is about what is read, not when.
const ACCOUNT = 'oldtimerltd';
const CREATE = `/core/api/1.0/${ACCOUNT}/campaigns`;

/**
 * 20 approved campaigns, and above their ids 30 terminated ones, which no listing shows: the
 * newest ids' first pages are all terminated rows, dropped after paging.
 */
function topHidden(): Fixtures {
  const f = testFixtures();
  const campaign = (id: number, status: string) => ({
    account_id: ACCOUNT,
    id,
    name: `Row ${id}`,
    branding_text: 'Old Timer',
    status,
    created_at: '2026-10-01T00:00:00Z',
    bid_strategy: 'FIXED' as const,
    cpc: 0.3,
    spending_limit: 900,
    spending_limit_model: 'MONTHLY',
    marketing_objective: 'LEADS_GENERATION',
  });
  for (let i = 0; i < 20; i++) f.campaigns!.push(campaign(5_000_001 + i, 'APPROVED'));
  for (let i = 0; i < 30; i++) f.campaigns!.push(campaign(5_100_001 + i, 'TERMINATED'));
  return f;
}

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('a lost create looked for on a service whose pages are filtered after paging', () => {
  it('is found below empty pages of the newest ids, and never sent again', async () => {
    env = await startEnv({
      clock: 'manual',
      fixtures: topHidden(),
      // Pages of at most 10 rows, filtered after paging; a new id goes below every older one.
      variants: {
        page_size_cap: 10,
        short_pages: true,
        id_order: 'descending',
        late_apply_ms: undefined,
        listing_lag_ms: undefined,
        write_answer: undefined,
        refuse_sort: undefined,
        cut_body: undefined,
        transient_5xx: undefined,
      },
    });
    const e = env;
    await fault(e.sandbox, { method: 'POST', path_prefix: CREATE, mode: 'close_after', count: 1 });
    const item = await submitCampaign(e, ACCOUNT, campaignPayload('Below the filtered boots'));
    await advanceUntil(e, async () => (await outboxItem(e, item.id))?.state === 'sent', 'the create to be found', 10 * 60_000, 1_000);
    const held = await onService(e.sandbox, ACCOUNT, 'Below the filtered boots');
    expect(held).toHaveLength(1);
    expect(await outboxItem(e, item.id)).toMatchObject({ state: 'sent', attempts: 1, posted: { ids: [String(held[0].id)] } });
    expect((await creates(e.sandbox, ACCOUNT)).map((r) => r.outcome)).toEqual(['fault_close_after']);
  }, 120_000);
});
