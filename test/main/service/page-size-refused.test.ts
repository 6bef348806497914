// A service that refuses a page larger than it serves (400, page_size_max) instead of serving
// less: the interface names no largest page_size (4.2). Every paged read of the client (a walk's
// pages, a lost create's look-up) goes down to a size the service takes, learns it for the
// connection, and does not take the refusal for a refused sort.
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import type { RunningSandbox } from '../../../src/sandbox/index';
import { call, requestLog } from '../../helpers/sandbox';
import { SHOP, walkFixtures } from '../sync/listing-support';
import { freshClientPerTest } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;
const COUNT = 130;

freshClientPerTest((s, c) => ((sb = s), (client = c)), {
  // Counts the reads of one service's choices: not played over the run's variants.
  ownVariantsOnly: true,
  clock: 'real',
  fixtures: walkFixtures(COUNT),
  variants: { page_size_max: 25 },
  clientOptions: () => ({
    credentials: { flow: 'client_credentials', clientId: 'demo-client', getSecret: () => Promise.resolve('demo-secret') },
  }),
});

const listReads = async (since: number) => (await requestLog(sb, since)).filter((r) => r.method === 'GET' && r.path.includes(`/${SHOP}/`));

describe('a page size the service refuses', () => {
  it('is asked again smaller until it is taken, every campaign listed, and the next listing starts there', async () => {
    const before = sb.lastRequestSeq();
    const first = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', pageSize: 1000 });
    expect(first.campaigns).toHaveLength(COUNT);
    const firstReads = await listReads(before);
    // The service's words name its largest page: refused with the sort by id and without it, then pages of 25.
    expect(firstReads.filter((r) => r.status === 400).length).toBeLessThanOrEqual(2);
    expect(firstReads.filter((r) => r.status === 200)).toHaveLength(Math.ceil(COUNT / 25));
    // The refusal was of the page, not of the sort by id.
    expect(client.sortMemory.idRefused).toBe(false);
    const middle = sb.lastRequestSeq();
    const second = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', pageSize: 1000 });
    expect(second.campaigns).toHaveLength(COUNT);
    expect((await listReads(middle)).filter((r) => r.status === 400)).toHaveLength(0);
  });

  it('is found by halving when the refusal does not say the largest page', async () => {
    await call(sb, 'PUT', '/_sandbox/variants', { json: { page_size_max: 25, error_shape: 'message_list' } });
    const before = sb.lastRequestSeq();
    const listed = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', pageSize: 1000 });
    expect(listed.campaigns).toHaveLength(COUNT);
    const refused = (await listReads(before)).filter((r) => r.status === 400);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeLessThanOrEqual(6);
  });

  it('is not taken for one when the query is refused for another reason: the refusal reaches the caller', async () => {
    await call(sb, 'PUT', '/_sandbox/variants', { json: { page_size_max: 25, refuse_sort: 'all' } });
    const e = await client.listAllCampaigns(SHOP, { fetchLevel: 'RAP', pageSize: 10, sort: { field: 'name', direction: 'asc' } }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toMatchObject({ kind: 'validation', status: 400 });
  });
});
