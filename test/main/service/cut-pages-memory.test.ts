// A service (or a way to it) that drops answers above some size: a walk shrinks its pages until
// they get through, and the connection remembers that size, so the next listing of it (a lost
// create's look-up, on a budget of 150 reads an hour) does not spend reads on answers that would be
// cut again (chaos seed 1152249674 took over the hour to decide a lost create).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index';
import { requestLog } from '../../helpers/sandbox';
import { SHOP, walkFixtures } from '../sync/listing-support';
import { clientFor } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;

beforeAll(async () => {
  sb = await startSandbox({ clock: 'real', fixtures: walkFixtures(60), variants: { cut_body: 9 } });
  client = clientFor(sb, {
    credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve('demo-secret') },
  });
});

afterAll(async () => {
  await client.close();
  await sb.close();
});

const reads = async (since: number) =>
  (await requestLog(sb, since)).filter((r) => r.method === 'GET' && r.path.includes(`/${SHOP}/`)).length;

describe('answers cut above a size', () => {
  it('are read in pages that get through, and the next listing starts at that size', async () => {
    const before = sb.lastRequestSeq();
    const first = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP' });
    expect(first.campaigns).toHaveLength(60);
    const firstReads = await reads(before);
    const middle = sb.lastRequestSeq();
    const second = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP' });
    expect(second.campaigns).toHaveLength(60);
    const secondReads = await reads(middle);
    // No whole answer and no larger page asked for again: only pages that get through.
    expect(secondReads).toBeLessThan(firstReads);
    expect(secondReads).toBeLessThanOrEqual(Math.ceil(60 / (client.sortMemory.pagesGetThroughAt ?? 1)));
    expect(client.sortMemory.pagesGetThroughAt).toBeLessThanOrEqual(9);
  });
});
