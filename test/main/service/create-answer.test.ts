// A create's answer whose shape differs from the bare campaign (spec 4.1 shows "the created campaign
// object"): wrapped under a key, or holding only what the service assigned. The client reads the
// campaign by content and fills in what it sent, so the new campaign is known whole at once.
import { expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import type { CampaignCreate } from '../../../src/shared/domain/campaign';
import { type RunningSandbox } from '../../../src/sandbox/index';
import { call, playVariants } from '../../helpers/sandbox';
import { variantLabel } from '../../helpers/variants';
import { clientPerFile } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;

clientPerFile((s, c) => {
  sb = s;
  client = c;
});

const body: CampaignCreate = {
  name: 'Answered',
  branding_text: 'Acme Shoes',
  bid_strategy: 'FIXED',
  cpc: 0.5,
  marketing_objective: 'LEADS_GENERATION',
  spending_limit_model: 'MONTHLY',
  spending_limit: 800,
  daily_cap: 60,
};

for (const shape of ['wrapped', 'sparse'] as const) {
  it(`${shape}: the created campaign is read whole, with the id the service gave (${variantLabel()})`, async () => {
    // This file is about the create's answer itself: write_answer (no body at all) is left out.
    await playVariants(sb, { write_answer: undefined, create_answer: shape });
    const created = (await client.createCampaign('acmeshoes', body))!;
    const state = await call(sb, 'GET', '/_sandbox/state/campaigns?account=acmeshoes');
    const stored = (state.body as { campaigns: { id: unknown; name: string }[] }).campaigns.filter((c) => c.name === 'Answered').at(-1)!;
    // The control API writes ids as bare numbers; beyond 2^53 compare the digits of the raw answer.
    expect(state.text).toContain(`"id":${created.id},`);
    expect(stored.name).toBe('Answered');
    expect(created).toMatchObject({
      advertiser_id: 'acmeshoes',
      name: 'Answered',
      branding_text: 'Acme Shoes',
      cpc: 0.5,
      spending_limit: 800,
      daily_cap: 60,
    });
    expect(created.status?.toUpperCase()).toBe('PENDING_APPROVAL');
  });
}
