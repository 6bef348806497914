// What the campaigns store shows at once when an account opens: the first page it kept of it (left
// before, or read ahead), but only while the accounts list still gives the account as many
// campaigns as when it was kept. An account removed and added again holds none of those rows, and
// showing them until the cache answered would show campaigns it no longer has.
import { afterEach, describe, expect, it } from 'vitest';
import { setBridge, type DeskBridge } from '../../../src/renderer/lib/api';
import { useCampaigns } from '../../../src/renderer/stores/campaigns-store';
import { useWorkspace } from '../../../src/renderer/stores/workspace-store';
import type { Account, CampaignRecord } from '../../../src/shared/ipc/contract';
import { sampleRow } from '../../helpers/transport-handlers';

const account = (accountId: string, campaignCount: number): Account => ({
  profileId: 'p1',
  accountId,
  name: accountId,
  type: 'ADVERTISER',
  networkId: null,
  lastSyncedAt: null,
  campaignCount,
  queued: 0,
});
const record = (accountId: string, i: number): CampaignRecord => ({ ...sampleRow(i), id: `${accountId}-${i}`, fields: {} });

/** A bridge whose campaigns.records answers at once until `hold` is set, then waits until released. */
function cacheBridge() {
  const held: (() => void)[] = [];
  const state = { hold: false, asked: 0 };
  const bridge: DeskBridge = {
    async invoke(channel, input) {
      const args = input as { accountId: string; offset?: number; limit?: number };
      if (channel === 'campaigns.records') {
        state.asked++;
        if (state.hold) await new Promise<void>((r) => held.push(r));
        const rows = Array.from({ length: 3 }, (_, i) => record(args.accountId, i));
        return { ok: true, value: { rows, total: null, syncedAt: 1 } } as never;
      }
      if (channel === 'campaigns.count') return { ok: true, value: { total: 3 } } as never;
      return { ok: true, value: null } as never;
    },
    on: () => () => undefined,
  };
  return { bridge, state, release: () => held.splice(0).forEach((r) => r()) };
}

const settle = () => new Promise((r) => setImmediate(r));

/** The cache bridge in place, the accounts list giving each account its count, and `id`'s first page read ahead. */
async function readAhead(accounts: Account[], id: string) {
  const cache = cacheBridge();
  setBridge(cache.bridge);
  useWorkspace.setState({ accounts });
  useCampaigns.getState().prefetch({ profileId: 'p1', accountId: id }, accounts.find((a) => a.accountId === id)!.campaignCount);
  await settle();
  return cache;
}
const shownIds = () => (useCampaigns.getState().pages[0] ?? []).map((r) => r.id);

// The store is one per window: each test uses accounts of its own, since what it keeps outlives a test.
afterEach(() => {
  useCampaigns.getState().setAccount(null);
  useWorkspace.setState({ accounts: [] });
});

describe('the first page kept of an account', () => {
  it('shows at once when the account opens, read ahead before its first opening', async () => {
    const { state, release } = await readAhead([account('acme', 3), account('globex', 3)], 'globex');
    expect(state.asked).toBe(1);
    // The cache is slow from now on: only what the store kept can show before it answers.
    state.hold = true;
    useCampaigns.getState().setAccount({ profileId: 'p1', accountId: 'globex' });
    expect(shownIds()).toEqual(['globex-0', 'globex-1', 'globex-2']);
    expect(useCampaigns.getState().total).toBe(3);
    release();
    await settle();
  });

  it('is not shown once the accounts list gives the account another count (removed and added again)', async () => {
    const { state, release } = await readAhead([account('acme', 3), account('initech', 3)], 'initech');
    // Removed and added again: its first refresh has cached nothing yet.
    useWorkspace.setState({ accounts: [account('acme', 3), account('initech', 0)] });
    state.hold = true;
    useCampaigns.getState().setAccount({ profileId: 'p1', accountId: 'initech' });
    expect(shownIds()).toEqual([]);
    expect(useCampaigns.getState().loadedOnce).toBe(false);
    release();
    await settle();
    // The cache's own answer, when it comes, is shown.
    expect(shownIds()).toEqual(['initech-0', 'initech-1', 'initech-2']);
  });

  it('is read again ahead when the count changed since it was kept', async () => {
    const { state } = await readAhead([account('umbrella', 3)], 'umbrella');
    useCampaigns.getState().prefetch({ profileId: 'p1', accountId: 'umbrella' }, 3);
    await settle();
    expect(state.asked).toBe(1);
    useWorkspace.setState({ accounts: [account('umbrella', 5)] });
    useCampaigns.getState().prefetch({ profileId: 'p1', accountId: 'umbrella' }, 5);
    await settle();
    expect(state.asked).toBe(2);
  });
});
