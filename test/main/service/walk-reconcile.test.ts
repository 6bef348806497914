// The listing walk's reconciliation by id (walkListing's `confirm`), against a service simulated
// in process so that a deletion can be placed exactly between two of the walk's requests: the
// interleaving under which counting after the look-up hid a campaign the reads never saw (a
// create whose answer was lost), and the look-up then called it absent: sent twice.
import { describe, expect, it } from 'vitest';
import { IncompleteListingError, walkListing, type PageReader } from '../../../src/main/service/campaigns-api';
import type { Campaign } from '../../../src/shared/domain/campaign';

/**
 * Campaigns 0-10 and one more, UNSEEN, which the service counts but its pages never show (rows
 * filtered after paging: legal). Campaign 0 is deleted by another user after the first page; one
 * of the confirmed campaigns after the first look-up by id.
 */
function churningService() {
  const UNSEEN = '200';
  const held = new Set(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', UNSEEN]);
  let pageReads = 0;
  let lookups = 0;
  const row = (id: string) => ({ id, name: `c${id}` }) as unknown as Campaign;
  const read: PageReader = (page, pageSize) => {
    pageReads++;
    const visible = [...held].filter((id) => id !== UNSEEN).sort((a, b) => Number(a) - Number(b));
    const campaigns = visible.slice((page - 1) * pageSize, page * pageSize).map(row);
    if (pageReads === 1) held.delete('0');
    return Promise.resolve({
      campaigns,
      total: held.size,
      count: campaigns.length,
      metadata: { total: held.size, count: campaigns.length },
    });
  };
  const confirm = (ids: string[]) => {
    lookups++;
    const found = ids.filter((id) => held.has(id)).map(row);
    if (lookups === 1) held.delete('5');
    return Promise.resolve(found);
  };
  return { read, confirm, UNSEEN };
}

describe('a listing reconciled by id while other users delete', () => {
  it('is never passed off as whole while a campaign the service counts was not read', async () => {
    const service = churningService();
    const listed = new Set<string>();
    const walk = async () => {
      for await (const step of walkListing(service.read, { pageSize: 4, what: 'busyshop', confirm: service.confirm })) {
        for (const c of step.campaigns) listed.add(c.id);
      }
    };
    // Whole only with the unseen campaign in it; without, the walk must say it could not tell.
    const outcome = await walk().then(
      () => 'whole',
      (e: unknown) => e,
    );
    if (outcome === 'whole') expect(listed.has(service.UNSEEN), 'a walk that ended whole without a campaign the service holds').toBe(true);
    else expect(outcome).toBeInstanceOf(IncompleteListingError);
  });
});
