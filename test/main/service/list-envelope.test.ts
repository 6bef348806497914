// The campaign listing's envelope (spec 2.2) in every shape a service may give it: metadata before
// the results, an empty results as null or left out, the counts as text, no count. The client reads
// the same listing from each, paged, unpaged (streamed) and empty.
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { LIST_ENVELOPES, type Fixtures, type RunningSandbox } from '../../../src/sandbox/index';
import { playVariants } from '../../helpers/sandbox';
import { variantLabel } from '../../helpers/variants';
import { approvedCampaigns, idsFrom } from '../../helpers/fixtures';
import { clientPerFile } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;
/** More rows than the sandbox builds whole (100): an unpaged answer of them is streamed. */
const BIG = 150;

clientPerFile(
  (s, c) => {
    sb = s;
    client = c;
  },
  { adjust: addRows },
);

function addRows(f: Fixtures): void {
  f.campaigns!.push(...approvedCampaigns('oldtimerltd', idsFrom(4300001, 5), (_, i) => `Old ${i + 1}`));
  // An old (unlimited) account with more rows than a small answer: its unpaged listing is streamed.
  f.accounts.push({ account_id: 'bigoldco', name: 'Big Old Co', type: 'ADVERTISER', created_at: '2025-01-01T00:00:00Z', features: [] });
  f.clients[0].accounts.push('bigoldco');
  f.campaigns!.push(...approvedCampaigns('bigoldco', idsFrom(4400001, BIG), (_, i) => `Big ${i + 1}`, 'Big Old'));
}

const ALL = ['4300001', '4300002', '4300003', '4300004', '4300005'];
const ids = (cs: readonly { id: string }[]) => cs.map((c) => c.id).sort();

describe(`the listing envelope in any shape (${variantLabel()})`, () => {
  for (const shape of LIST_ENVELOPES) {
    it(`${shape}: every listing reads the same rows and totals`, async () => {
      await playVariants(sb, { list_envelope: shape });

      const whole = await client.listAllCampaigns('oldtimerltd', { fetchLevel: 'RAP' });
      expect(ids(whole.campaigns)).toEqual(ALL);
      expect(whole.total).toBe(5);

      const paged = await client.listAllCampaigns('oldtimerltd', { fetchLevel: 'RAP', pageSize: 2 });
      expect(ids(paged.campaigns)).toEqual(ALL);

      const page = await client.listCampaigns('oldtimerltd', { fetchLevel: 'RAP', page: 1, pageSize: 2 });
      expect(page.total).toBe(5);
      expect(page.count).toBe(page.campaigns.length);

      // Nothing matches: an empty listing, however its results are written.
      const none = await client.listAllCampaigns('oldtimerltd', { fetchLevel: 'RAP', campaignIds: ['1'] });
      expect(none).toEqual({ campaigns: [], total: 0 });
      // The refresh's own read: the unpaged answer, streamed, is read as it is (no fall-back to pages).
      const parts = [];
      for await (const part of client.streamCampaigns('oldtimerltd', { fetchLevel: 'RAP', campaignIds: ['1'] })) parts.push(part);
      expect(parts.at(-1)).toEqual({ campaigns: [], metadata: { total: 0, count: 0 } });
      const streamed = [];
      for await (const part of client.streamCampaigns('oldtimerltd', { fetchLevel: 'RAP', campaignIds: ALL.slice(0, 2) }))
        streamed.push(...part.campaigns);
      expect(ids(streamed)).toEqual(ALL.slice(0, 2));
      const emptyPage = await client.listCampaigns('oldtimerltd', { fetchLevel: 'RAP', campaignIds: ['1'], page: 1, pageSize: 10 });
      expect(emptyPage).toMatchObject({ campaigns: [], total: 0, count: 0 });
    });

    it(`${shape}: a listing of more than 100 rows, streamed, reads every row and the total`, async () => {
      // Unpaged and whole (no page cap), so the service streams it in this envelope.
      await playVariants(sb, { page_size_cap: undefined, list_envelope: shape });
      const streamed: string[] = [];
      let metadata: unknown;
      for await (const part of client.streamCampaigns('bigoldco', { fetchLevel: 'RAP' })) {
        streamed.push(...part.campaigns.map((c) => c.id));
        if (part.metadata) metadata = part.metadata;
      }
      expect(streamed).toHaveLength(BIG);
      expect(new Set(streamed).size).toBe(BIG);
      expect(metadata).toMatchObject({ total: BIG });
      const whole = await client.listAllCampaigns('bigoldco', { fetchLevel: 'RAP' });
      expect(whole.total).toBe(BIG);
      expect(whole.campaigns).toHaveLength(BIG);
    });
  }
});
