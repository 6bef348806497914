// The list endpoint's query rules, written once: what the sandbox refuses with a 400, the client
// refuses before sending, with the same words, and asks the network nothing.
import { describe, expect, it } from 'vitest';
import { campaignListSearchParams } from '../../../src/shared/domain/campaign';
import { parseListQuery } from '../../../src/shared/domain/campaign-listing';
import { clientFor } from '../../helpers/service-client';

describe('the campaign list query', () => {
  it('reads back what the client writes', () => {
    const q = parseListQuery(
      campaignListSearchParams({
        fetchLevel: 'RAP',
        campaignIds: ['4100001', '4100002', '9007199254740993'],
        page: 2,
        pageSize: 50,
        sort: { field: 'id', direction: 'desc' },
      }),
    );
    expect(q).toEqual({
      fetchLevel: 'RAP',
      ids: new Set(['4100001', '4100002', '9007199254740993']),
      page: 2,
      pageSize: 50,
      sort: { field: 'id', descending: true },
    });
  });

  it('a query the service would refuse is refused by the client before anything is sent, in the sandbox’s words', async () => {
    // Nothing listens there: a request that went out would fail otherwise than as a validation.
    const client = clientFor({ url: 'http://127.0.0.1:9' });
    await expect(client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', page: 1, pageSize: 1001 })).rejects.toMatchObject({
      kind: 'validation',
      requestWritten: false,
      message: expect.stringContaining('page_size must be an integer from 1 to 1000'),
    });
    await expect(
      client.listCampaigns('acmeshoes', { fetchLevel: 'RAP', sort: { field: 'targeting', direction: 'asc' } }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('Sorting by targeting is not supported'),
    });
  });
});
