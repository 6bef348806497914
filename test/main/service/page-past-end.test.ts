// A service that refuses a page after the last one (404 or 400 "Invalid page.", page_past_end)
// instead of answering it empty. A walk reads past the listing's end when pages come short (rows
// filtered after paging) or the listing shrank while it was read: such a refusal ends the listing
// there, it does not fail the walk. A refusal of the first page still reaches the caller.
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import type { RunningSandbox } from '../../../src/sandbox/index';
import { call, requestLog } from '../../helpers/sandbox';
import { SHOP, walkFixtures } from '../sync/listing-support';
import { freshClientPerTest } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;
const COUNT = 60;
// Every third campaign is TERMINATED: under short_pages the pages come short, so the walk reads on.
const hidden = (i: number) => i % 3 === 0;
const LISTED = Array.from({ length: COUNT }, (_, i) => i).filter((i) => !hidden(i)).length;

freshClientPerTest((s, c) => ((sb = s), (client = c)), {
  // Counts the reads of one service's choices: not played over the run's variants.
  ownVariantsOnly: true,
  clock: 'real',
  fixtures: walkFixtures(COUNT, hidden),
  clientOptions: () => ({
    credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve('demo-secret') },
  }),
});

const play = (variants: Record<string, unknown>) => call(sb, 'PUT', '/_sandbox/variants', { json: variants });

describe.each(['not_found', 'bad_request'] as const)('a page past the end refused (%s)', (pastEnd) => {
  it('ends the listing there: every campaign listed, none missing', async () => {
    await play({ page_past_end: pastEnd, short_pages: true, churn: 0.3, seed: 7 });
    const since = sb.lastRequestSeq();
    const listed = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', pageSize: 10 });
    // Other users create and delete on a third of the reads (churn): the walk reads past the end it saw.
    const held = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', campaignIds: listed.campaigns.map((c) => c.id) });
    expect(listed.campaigns.length).toBeGreaterThan(LISTED / 2);
    expect(new Set(listed.campaigns.map((c) => c.id)).size).toBe(listed.campaigns.length);
    expect(held.campaigns.length).toBeGreaterThan(0);
    // The walk did read past the end (the case this is about).
    const refused = (await requestLog(sb, since)).filter((r) => r.path.includes(`/${SHOP}/`) && r.status !== null && r.status >= 400);
    expect(refused.length).toBeGreaterThanOrEqual(1);
  });

  it('does not hide a first page refused: the refusal reaches the caller', async () => {
    await play({ page_past_end: pastEnd });
    const e = await client.listAllCampaigns('nosuchaccount', { fetchLevel: 'RAP', pageSize: 10 }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeDefined();
  });
});
