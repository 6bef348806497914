// The Campaigns tab: filters, the column chooser, the virtualized grid of the cached campaigns, and
// the details pane (shown while a campaign is selected, and folded away on request, to give the
// grid the width). Columns (dragged, resized or chosen) and the pane are saved with the account's view.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { CampaignRecord } from '../../../shared/ipc/contract';
import { VirtualGrid, type GridColumn } from '../../components/virtual-grid';
import { formatCount } from '../../lib/format';
import { gridRowCount, PAGE_SIZE, rowAt, useCampaigns, type CampaignsState } from '../../stores/campaigns-store';
import { accountKey, useStatus } from '../../stores/status-store';
import { DEFAULT_ACCOUNT_VIEW, useViews, viewKey } from '../../stores/view-store';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';
import { KNOWN_CAMPAIGN_STATUSES } from '../../../shared/domain/campaign';
import { valueChoices } from '../../../shared/domain/service-values';
import { enumLabel } from '../../lib/enum-labels';
import { call } from '../../lib/api';
import { useAccountValue, type AccountKey } from '../../lib/use-account-value';
import { campaignColumns, chosenColumns, moveColumn, resizeColumn } from './campaign-columns';
import { ColumnChooser } from './column-chooser';
import { copyPicked, SelectionBar } from './selection-bar';
import { CampaignDetails } from './campaign-details';

const ROW_HEIGHT = 28;

/** The first column: a tick per picked row (the grid stays one tab stop; the tick is for the pointer). */
function pickColumn(picked: Record<string, CampaignRecord>, all: boolean): GridColumn<CampaignRecord> {
  return {
    id: '_pick',
    title: 'Pick',
    width: 44,
    render: (r) => (
      <input
        type="checkbox"
        className="row-pick"
        tabIndex={-1}
        checked={all || picked[r.id] !== undefined}
        readOnly
        aria-label={`Pick ${r.name}`}
        data-testid="row-pick"
      />
    ),
  };
}

/** The toolbar's count: never a number the count has not given (rows read so far are not the total). */
function countText(s: Pick<CampaignsState, 'loadedOnce' | 'total'>, filtered: boolean): string {
  if (!s.loadedOnce) return 'Loading...';
  if (s.total === null) return filtered ? 'Counting matches…' : 'Counting campaigns…';
  return `${formatCount(s.total)} campaign${s.total === 1 ? '' : 's'}${filtered ? ' match' : ''}`;
}

const NO_STATUSES: readonly string[] = [];
const readStatuses = (key: AccountKey): Promise<readonly string[]> => call('campaigns.values', key).then((v) => v.status);

export function CampaignsView({ now, onOpenDrafts }: { now: number; onOpenDrafts?(): void }) {
  const account = useWorkspace(selectedAccount);
  const s = useCampaigns();
  const [text, setText] = useState(s.text);
  const ref = s.account;
  const refKey = ref ? viewKey(ref) : '';
  const view = useViews((v) => (refKey ? v.view.accounts[refKey] : undefined)) ?? DEFAULT_ACCOUNT_VIEW;
  const seenStatuses = useAccountValue(ref ?? null, 'campaigns', readStatuses, NO_STATUSES);
  // Every status the account's campaigns hold can be filtered by, as the service wrote it.
  const statuses = useMemo(() => valueChoices(KNOWN_CAMPAIGN_STATUSES, seenStatuses), [seenStatuses]);

  // Another account opened: its own saved search replaces what was typed for the last one.
  useEffect(() => setText(useCampaigns.getState().text), [refKey]);
  // Each keystroke asks at once (no debounce a person could feel): the cache reader answers a new
  // text within milliseconds for most words (docs/benchmarks.md), and the answer to an older text
  // is dropped by the store's generations, so a stale one is never shown. (Not run for an account
  // change: the text typed for the last account would be asked of this one before the line above
  // puts this account's own text in the box.)
  useEffect(() => useCampaigns.getState().setText(text), [text]);

  const onRangeChange = useCallback((start: number, end: number) => useCampaigns.getState().ensureRange(start, end), []);
  const getRow = useCallback((i: number) => rowAt(s.pages, i), [s.pages]);
  // How the next selection made by the grid picks rows: set by the pointer or key that makes it.
  const how = useRef<'only' | 'toggle' | 'range'>('only');
  const onSelect = useCallback((i: number, row: CampaignRecord) => {
    useCampaigns.getState().pick(i, row, how.current);
    how.current = 'only';
  }, []);
  const [note, setNote] = useState('');
  const onPointer = (e: MouseEvent) => {
    const onCheck = (e.target as HTMLElement).closest('.row-pick') !== null;
    how.current = e.shiftKey ? 'range' : e.ctrlKey || e.metaKey || onCheck ? 'toggle' : 'only';
  };

  let selectedIndex: number | null = null;
  if (s.selectedId) {
    for (const [page, rows] of Object.entries(s.pages)) {
      const k = rows.findIndex((r) => r.id === s.selectedId);
      if (k >= 0) selectedIndex = Number(page) * PAGE_SIZE + k;
    }
  }

  // The same column objects from one render to the next while nothing about them changed: a grid row
  // already on screen is then not rendered again when a page of rows arrives.
  const network = account?.type === 'NETWORK';
  const chosen = useMemo(() => chosenColumns(view.columns, network), [view.columns, network]);
  const columns = useMemo(() => [pickColumn(s.picked, s.allPicked), ...campaignColumns(chosen)], [s.picked, s.allPicked, chosen]);
  const onKeys = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    how.current = e.shiftKey ? 'range' : 'only';
    if (mod && !e.altKey && e.key.toLowerCase() === 'c') {
      e.preventDefault();
      void copyPicked(chosen).then(setNote, (err: unknown) => setNote(`Nothing was copied: ${String(err)}`));
    } else if (mod && !e.altKey && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      useCampaigns.getState().pickAll();
    } else if (e.key === 'Escape' && (s.allPicked || Object.keys(s.picked).length > 0)) {
      useCampaigns.getState().clearPicks();
    }
  };
  // The pane takes its 300 px only when it has a campaign to show: an empty pane would cut Start and ID.
  const showDetails = view.detailsOpen && s.selectedRow !== null;
  const patchView = (patch: Partial<typeof view>) => ref && useViews.getState().patchAccount(ref, patch);
  const filtered = s.status !== null || s.text.trim() !== '';
  // Each account and query is a list of its own, opened at its first row (the store reads from there).
  const listKey = JSON.stringify([refKey, s.sort, s.status, s.text.trim()]);
  const syncing = useStatus((st) => (account ? st.sync[accountKey(account.profileId, account.accountId)]?.state === 'running' : false));
  let emptyText = 'No campaigns cached for this account yet. They appear after the first sync.';
  if (filtered) emptyText = 'No campaign matches these filters.';
  else if (syncing) emptyText = "Fetching this account's campaigns: they appear here as each page is cached.";

  return (
    <div className="campaigns">
      <div className="toolbar" role="toolbar" aria-label="Campaign filters">
        <label className="field">
          <span className="visually-hidden">Search campaigns</span>
          <input
            type="search"
            placeholder="Search name, id, branding..."
            title="Every word must appear (any order); paste a list of campaign ids to show just those"
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid="campaign-search"
          />
        </label>
        <label className="field">
          <span className="field-label">Status</span>
          <select value={s.status ?? ''} onChange={(e) => s.setStatus(e.target.value || null)} data-testid="status-filter">
            <option value="">All</option>
            {statuses.map((st) => (
              <option key={st} value={st}>
                {enumLabel(st)}
              </option>
            ))}
          </select>
        </label>
        <span className="toolbar-count muted" data-testid="campaign-count">
          {countText(s, filtered)}
        </span>
        <ColumnChooser columns={chosen} onChange={(next) => patchView({ columns: next })} />
        <button
          type="button"
          aria-pressed={view.detailsOpen}
          onClick={() => patchView({ detailsOpen: !view.detailsOpen })}
          data-testid="details-toggle"
          title="Show or hide the details pane; it opens beside the table when a campaign is selected"
        >
          Details
        </button>
        {s.error ? (
          <span className="toolbar-error" role="alert">
            {s.error}
          </span>
        ) : null}
      </div>
      <SelectionBar columns={chosen} note={note} setNote={setNote} onOpenDrafts={onOpenDrafts} />
      <div className={`campaigns-body${showDetails ? '' : ' no-details'}`}>
        <div className="grid-frame" onMouseDownCapture={onPointer} onKeyDownCapture={onKeys}>
          <VirtualGrid
            columns={columns}
            rowCount={gridRowCount(s)}
            rowHeight={ROW_HEIGHT}
            getRow={getRow}
            selectedIndex={selectedIndex}
            onSelect={onSelect}
            onRangeChange={onRangeChange}
            sort={s.sort}
            onSort={(f) => s.toggleSort(f)}
            label="Campaigns"
            testId="campaign-grid"
            listKey={listKey}
            onResize={(id, width) => patchView({ columns: resizeColumn(chosen, id, width) })}
            onMove={(id, target, side) => patchView({ columns: moveColumn(chosen, id, target, side) })}
            empty={
              s.loadedOnce ? (
                <p className="muted" data-testid="campaigns-empty">
                  {emptyText}
                </p>
              ) : null
            }
          />
        </div>
        {showDetails ? <CampaignDetails row={s.selectedRow} syncedAt={s.syncedAt ?? account?.lastSyncedAt ?? null} now={now} /> : null}
      </div>
    </div>
  );
}
