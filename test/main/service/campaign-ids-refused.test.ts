// A service that takes only so many campaign_ids in one listing (campaign_ids_max: 400 above it).
// 4.2 makes campaign_ids repeatable and names no largest count. A look-up by ids is split into
// groups the service takes, learned for the connection; the refusal is not taken for one of the
// page size or of the sort, so no reads are spent on those.
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import type { RunningSandbox } from '../../../src/sandbox/index';
import { call, requestLog } from '../../helpers/sandbox';
import { SHOP, walkFixtures } from '../sync/listing-support';
import { freshClientPerTest } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;
const COUNT = 60;
const IDS = Array.from({ length: COUNT }, (_, i) => String(5_000_001 + i));

freshClientPerTest((s, c) => ((sb = s), (client = c)), {
  // Counts the reads of one service's choices: not played over the run's variants.
  ownVariantsOnly: true,
  clock: 'real',
  fixtures: walkFixtures(COUNT),
  clientOptions: () => ({
    credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve('demo-secret') },
  }),
});

const play = (variants: Record<string, unknown>) => call(sb, 'PUT', '/_sandbox/variants', { json: variants });
const refusedReads = async (since: number) =>
  (await requestLog(sb, since)).filter((r) => r.path.includes(`/${SHOP}/`) && r.status === 400).length;

describe('a look-up naming more campaign_ids than the service takes', () => {
  it('is split into groups it takes: every campaign found, and the next look-up is not refused', async () => {
    await play({ campaign_ids_max: 7 });
    const since = sb.lastRequestSeq();
    const found = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', campaignIds: IDS });
    expect(found.campaigns.map((c) => c.id).sort()).toEqual(IDS);
    // The words name the largest count: only the first group is refused (whole and as a page, with
    // and without the sort: a refusal must be told from one of the sort or the paging), each after it taken.
    expect(await refusedReads(since)).toBeLessThanOrEqual(4);
    const middle = sb.lastRequestSeq();
    const again = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', campaignIds: IDS.slice(0, 30) });
    expect(again.campaigns).toHaveLength(30);
    expect(await refusedReads(middle)).toBe(0);
    expect(client.sortMemory.idRefused).toBe(false);
  });

  it('is split in halves when the refusal does not say how many it takes', async () => {
    await play({ campaign_ids_max: 5, error_shape: 'message_list' });
    const found = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', campaignIds: IDS });
    expect(found.campaigns).toHaveLength(COUNT);
  });
});
