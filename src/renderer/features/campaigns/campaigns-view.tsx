// The Campaigns tab: filters, the virtualized grid of the cached campaigns, and the details pane.
import { useCallback, useEffect, useState } from 'react';
import { KNOWN_CAMPAIGN_STATUSES } from '../../../shared/domain/campaign';
import type { CampaignRow } from '../../../shared/ipc/contract';
import { VirtualGrid } from '../../components/virtual-grid';
import { formatCount } from '../../lib/format';
import { PAGE_SIZE, rowAt, useCampaigns } from '../../stores/campaigns-store';
import { accountKey, useStatus } from '../../stores/status-store';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';
import { campaignColumns } from './campaign-columns';
import { CampaignDetails } from './campaign-details';

const ROW_HEIGHT = 28;
const SEARCH_DEBOUNCE_MS = 250;

export function CampaignsView({ now }: { now: number }) {
  const account = useWorkspace(selectedAccount);
  const s = useCampaigns();
  const [text, setText] = useState(s.text);

  useEffect(() => {
    const t = setTimeout(() => useCampaigns.getState().setText(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const onRangeChange = useCallback((start: number, end: number) => useCampaigns.getState().ensureRange(start, end), []);
  const getRow = useCallback((i: number) => rowAt(s.pages, i), [s.pages]);
  const onSelect = useCallback((_i: number, row: CampaignRow) => useCampaigns.getState().select(row), []);

  let selectedIndex: number | null = null;
  if (s.selectedId) {
    for (const [page, rows] of Object.entries(s.pages)) {
      const k = rows.findIndex((r) => r.id === s.selectedId);
      if (k >= 0) selectedIndex = Number(page) * PAGE_SIZE + k;
    }
  }

  const columns = campaignColumns(account?.type === 'NETWORK');
  const filtered = s.status !== null || s.text.trim() !== '';
  const syncing = useStatus((st) => (account ? st.sync[accountKey(account.profileId, account.accountId)]?.state === 'running' : false));
  let emptyText = 'No campaigns cached for this account yet. They appear after the first sync.';
  if (filtered) emptyText = 'No campaign matches these filters.';
  else if (syncing) emptyText = 'Fetching this account\'s campaigns: they appear here as each page is cached.';

  return (
    <div className="campaigns">
      <div className="toolbar" role="toolbar" aria-label="Campaign filters">
        <label className="field">
          <span className="visually-hidden">Search campaigns</span>
          <input
            type="search"
            placeholder="Search name, id, branding..."
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid="campaign-search"
          />
        </label>
        <label className="field">
          <span className="field-label">Status</span>
          <select value={s.status ?? ''} onChange={(e) => s.setStatus(e.target.value || null)} data-testid="status-filter">
            <option value="">All</option>
            {KNOWN_CAMPAIGN_STATUSES.map((st) => (
              <option key={st} value={st}>
                {st.replace(/_/g, ' ').toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <span className="toolbar-count muted" data-testid="campaign-count">
          {s.loadedOnce ? `${formatCount(s.total)} campaign${s.total === 1 ? '' : 's'}${filtered ? ' match' : ''}` : 'Loading...'}
        </span>
        {s.error ? (
          <span className="toolbar-error" role="alert">
            {s.error}
          </span>
        ) : null}
      </div>
      <div className="campaigns-body">
        <VirtualGrid
          columns={columns}
          rowCount={s.total}
          rowHeight={ROW_HEIGHT}
          getRow={getRow}
          rowKey={(r) => r.id}
          selectedIndex={selectedIndex}
          onSelect={onSelect}
          onRangeChange={onRangeChange}
          sort={s.sort}
          onSort={(f) => s.toggleSort(f)}
          label="Campaigns"
          testId="campaign-grid"
          empty={
            s.loadedOnce ? (
              <p className="muted" data-testid="campaigns-empty">
                {emptyText}
              </p>
            ) : null
          }
        />
        <CampaignDetails row={s.selectedRow} syncedAt={s.syncedAt ?? account?.lastSyncedAt ?? null} now={now} />
      </div>
    </div>
  );
}
