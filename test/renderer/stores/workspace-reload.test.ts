// Overlapping reloads of the sidebar's data (an event's and a dialog's own) must leave the newest
// answer of each part in place: an older snapshot taken before the wait once undid a restored
// connection, which vanished from the sidebar until the next event.
import { afterEach, describe, expect, it } from 'vitest';
import { setBridge, type DeskBridge } from '../../../src/renderer/lib/api';
import { useWorkspace } from '../../../src/renderer/stores/workspace-store';
import type { Account, ChannelName, Profile } from '../../../src/shared/ipc/contract';

const profile = (id: string): Profile => ({
  id,
  name: id,
  kind: 'sandbox',
  baseUrl: 'http://127.0.0.1:1',
  authUrl: 'http://127.0.0.1:1',
  pushUrl: 'http://127.0.0.1:1',
  clientId: 'demo-client',
  flow: 'client_credentials',
  redirectUri: null,
  hasSecret: true,
  signIn: { state: 'signed_in', message: null },
  connection: 'online',
});
const account = (profileId: string, accountId: string): Account => ({
  profileId,
  accountId,
  name: accountId,
  type: 'NETWORK',
  networkId: null,
  lastSyncedAt: null,
  campaignCount: 0,
  queued: 0,
});

/** A bridge whose answers the test releases one by one, in any order. */
function heldBridge() {
  const pending: { channel: ChannelName; release(value: unknown): void }[] = [];
  const bridge: DeskBridge = {
    invoke(channel) {
      return new Promise((resolve) => pending.push({ channel, release: (value) => resolve({ ok: true, value } as never) }));
    },
    on: () => () => undefined,
  };
  const take = (channel: ChannelName) => {
    const i = pending.findIndex((p) => p.channel === channel);
    if (i < 0) throw new Error(`no pending ${channel}`);
    return pending.splice(i, 1)[0]!;
  };
  return { bridge, take };
}

const settle = () => new Promise((r) => setImmediate(r));

afterEach(() => useWorkspace.setState({ info: null, profiles: [], accounts: [], selected: null, loaded: false, error: null }));

describe('workspace reloads that overlap', () => {
  it('keep a connection a later reload brought, when an earlier reload of the accounts only answers last', async () => {
    const { bridge, take } = heldBridge();
    setBridge(bridge);
    const early = useWorkspace.getState().reload({ accounts: true }); // before the connection came back
    const later = useWorkspace.getState().reload({ profiles: true, accounts: true });
    await settle();
    const earlyAccounts = take('accounts.list');
    take('profiles.list').release([profile('sandbox-demo')]);
    take('accounts.list').release([account('sandbox-demo', 'northnet')]);
    await later;
    earlyAccounts.release([]);
    await early;
    const s = useWorkspace.getState();
    expect(s.error).toBeNull();
    expect(s.profiles.map((p) => p.id)).toEqual(['sandbox-demo']);
    // The early answer is older than the one stored: it is not applied.
    expect(s.accounts.map((a) => a.accountId)).toEqual(['northnet']);
    expect(s.selected).toEqual({ profileId: 'sandbox-demo', accountId: 'northnet' });
  });
});
