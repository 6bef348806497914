import { describe, expect, it } from 'vitest';
import { syncLabel } from '../../../src/renderer/stores/status-store';
import { treeOrder } from '../../../src/renderer/stores/workspace-store';
import type { Account, SyncProgress } from '../../../src/shared/ipc/contract';
import { sampleProfile } from '../../helpers/transport-handlers';

const acct = (accountId: string, type: Account['type'] = 'ADVERTISER', networkId: string | null = null): Account => ({
  profileId: 'p1',
  accountId,
  name: accountId,
  type,
  networkId,
  lastSyncedAt: null,
  campaignCount: 0,
  queued: 0,
});

describe('account tree order', () => {
  it('puts a network before its members, members indented, and members without their network at the top level', () => {
    const rows = treeOrder(
      [sampleProfile('p1')],
      [acct('acme'), acct('northbikes', 'ADVERTISER', 'northnet'), acct('northnet', 'NETWORK'), acct('lone', 'ADVERTISER', 'gone')],
    )[0].rows;
    expect(rows.map((r) => `${r.depth}:${r.account.accountId}`)).toEqual(['0:acme', '0:northnet', '1:northbikes', '0:lone']);
  });
});

describe('sync label in the top bar', () => {
  const p = (over: Partial<SyncProgress>): SyncProgress => ({
    profileId: 'p1',
    accountId: 'acme',
    state: 'running',
    pagesDone: 3,
    pagesTotal: 100,
    message: null,
    ...over,
  });

  it('counts pages while they arrive', () => {
    expect(syncLabel(p({}))).toEqual({ text: 'Sync 3/100 pages', bar: { value: 3, max: 100 } });
    expect(syncLabel(p({ pagesTotal: null, pagesDone: 0 }))).toEqual({ text: 'Sync 0/? pages', bar: { value: 0, max: undefined } });
  });

  it('shows no bar once the refresh has ended, and says why it ended', () => {
    expect(syncLabel(p({ state: 'done' }))).toEqual({ text: 'Synced', bar: null });
    expect(syncLabel(p({ state: 'failed', message: 'The service cannot be reached now' }))).toEqual({
      text: 'The service cannot be reached now',
      bar: null,
    });
    expect(syncLabel(p({ state: 'cancelled' }))).toEqual({ text: 'Sync cancelled', bar: null });
    expect(syncLabel(undefined)).toEqual({ text: '', bar: null });
  });
});
