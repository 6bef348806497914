// The campaigns grid asks a new query's first page without its total and the total apart
// (campaigns.count), so the rows never wait for a count (~300 ms for a common word at 1,000,000
// campaigns, issue #29). Until the count comes the grid scrolls on over the rows read so far, and
// the store never holds a total the count did not give (or the list's end did not show).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridge, type DeskBridge } from '../../../src/renderer/lib/api';
import { gridRowCount, PAGE_SIZE, useCampaigns } from '../../../src/renderer/stores/campaigns-store';
import type { ChannelName } from '../../../src/shared/ipc/contract';
import { sampleRow } from '../../helpers/transport-handlers';

const ACME = { profileId: 'p1', accountId: 'acme' };
const OTHER = { profileId: 'p1', accountId: 'other' };
/** Campaigns of the list: two full pages and a short one. */
const N = 2 * PAGE_SIZE + 50;

interface Asked {
  channel: ChannelName;
  input: Record<string, unknown>;
}

/** A bridge whose pages answer at once and whose counts wait until the test lets them answer. */
function bridgeWithHeldCounts() {
  const asked: Asked[] = [];
  const counts: ((total: number) => void)[] = [];
  const bridge: DeskBridge = {
    async invoke(channel, input) {
      const a = input as Record<string, unknown>;
      asked.push({ channel, input: a });
      if (channel === 'campaigns.records') {
        const offset = a.offset as number;
        const rows = [];
        for (let i = offset; i < Math.min(N, offset + (a.limit as number)); i++) rows.push({ ...sampleRow(i), fields: {} });
        return { ok: true, value: { rows, total: a.withTotal === false ? null : N, syncedAt: null } } as never;
      }
      if (channel === 'campaigns.count') {
        const total = await new Promise<number>((resolve) => counts.push(resolve));
        return { ok: true, value: { total } } as never;
      }
      return { ok: true, value: { ok: true } } as never;
    },
    on: () => () => undefined,
  };
  return { bridge, asked, counts };
}

/** Lets the store's calls (promises) run. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

let fake: ReturnType<typeof bridgeWithHeldCounts>;
beforeEach(() => {
  fake = bridgeWithHeldCounts();
  setBridge(fake.bridge);
});
afterEach(() => {
  useCampaigns.getState().setAccount(null);
  setBridge(null);
});

const pagesAsked = () => fake.asked.filter((a) => a.channel === 'campaigns.records').map((a) => a.input);
const countsAsked = () => fake.asked.filter((a) => a.channel === 'campaigns.count').map((a) => a.input);

describe('the campaigns store and the total', () => {
  it('shows the first page before the count and scrolls on over the rows read; the count gives the total', async () => {
    useCampaigns.getState().setAccount(ACME);
    await settle();
    // Both asked at once; the page without its total.
    expect(pagesAsked()).toEqual([expect.objectContaining({ ...ACME, offset: 0, limit: PAGE_SIZE, withTotal: false })]);
    expect(countsAsked()).toEqual([ACME]);
    let s = useCampaigns.getState();
    expect(s.pages[0]).toHaveLength(PAGE_SIZE);
    expect(s.total).toBeNull();
    // A full first page: a page more to scroll into.
    expect(gridRowCount(s)).toBe(2 * PAGE_SIZE);

    // Scrolling reads on without asking the total again.
    useCampaigns.getState().ensureRange(PAGE_SIZE, 2 * PAGE_SIZE);
    await settle();
    expect(pagesAsked().map((p) => [p.offset, p.withTotal])).toEqual([
      [0, false],
      [PAGE_SIZE, false],
    ]);
    expect(countsAsked()).toHaveLength(1);
    expect(gridRowCount(useCampaigns.getState())).toBe(3 * PAGE_SIZE);

    fake.counts[0](N);
    await settle();
    s = useCampaigns.getState();
    expect(s.total).toBe(N);
    expect(gridRowCount(s)).toBe(N);
  });

  it('takes the total from a short page (the end of the list) without waiting for the count', async () => {
    useCampaigns.getState().setAccount(ACME);
    await settle();
    useCampaigns.getState().ensureRange(0, 3 * PAGE_SIZE);
    await settle();
    useCampaigns.getState().ensureRange(2 * PAGE_SIZE, 3 * PAGE_SIZE);
    await settle();
    expect(useCampaigns.getState().total).toBe(N);
  });

  it('drops the count of an older query, and asks the count again when the cache changed', async () => {
    useCampaigns.getState().setAccount(ACME);
    await settle();
    useCampaigns.getState().setText('boots');
    await settle();
    expect(countsAsked()).toEqual([ACME, { ...ACME, text: 'boots' }]);
    // The first query's count comes last: not this query's total.
    fake.counts[1](7);
    fake.counts[0](N);
    await settle();
    expect(useCampaigns.getState().total).toBe(7);

    // A sync changed the cache: the count is asked again, the total shown meanwhile is kept.
    useCampaigns.getState().refresh();
    await settle();
    expect(countsAsked()).toHaveLength(3);
    expect(useCampaigns.getState().total).toBe(7);
    fake.counts[2](8);
    await settle();
    expect(useCampaigns.getState().total).toBe(8);
    useCampaigns.getState().setText('');
  });

  it('shows the first page and total an account showed when it was left, and counts again', async () => {
    useCampaigns.getState().setAccount(ACME);
    await settle();
    fake.counts[0](N);
    await settle();
    useCampaigns.getState().setAccount(OTHER);
    await settle();
    useCampaigns.getState().setAccount(ACME);
    // At once, before anything is read again.
    const s = useCampaigns.getState();
    expect(s.pages[0]).toHaveLength(PAGE_SIZE);
    expect(s.total).toBe(N);
    await settle();
    expect(countsAsked().filter((c) => c.accountId === 'acme')).toHaveLength(2);
  });
});
