// The campaign grid's columns. Sortable ones are the fields the list endpoint can sort on.
import { SORTABLE_CAMPAIGN_FIELDS } from '../../../shared/domain/campaign';
import type { CampaignRow } from '../../../shared/ipc/contract';
import type { GridColumn } from '../../components/virtual-grid';
import { formatDate, formatMoney, formatText } from '../../lib/format';
import { StatusBadge } from './status-badge';

const sortable = new Set<string>(SORTABLE_CAMPAIGN_FIELDS);

function col(c: Omit<GridColumn<CampaignRow>, 'sortable'>): GridColumn<CampaignRow> {
  return { ...c, sortable: sortable.has(c.id) };
}

export function campaignColumns(showAdvertiser: boolean): GridColumn<CampaignRow>[] {
  return [
    col({ id: 'name', title: 'Name', width: 240, grow: true, render: (r) => <span data-testid="cell-name">{r.name}</span> }),
    ...(showAdvertiser ? [col({ id: 'advertiser_name', title: 'Advertiser', width: 150, render: (r) => formatText(r.advertiser_name ?? r.advertiser_id) })] : []),
    col({ id: 'status', title: 'Status', width: 130, render: (r) => <StatusBadge status={r.status} /> }),
    col({ id: 'spent', title: 'Spent', width: 100, align: 'right', render: (r) => formatMoney(r.spent) }),
    col({ id: 'cpc', title: 'CPC', width: 70, align: 'right', render: (r) => formatMoney(r.cpc) }),
    col({ id: 'daily_cap', title: 'Daily cap', width: 90, align: 'right', render: (r) => formatMoney(r.daily_cap) }),
    col({ id: 'spending_limit', title: 'Limit', width: 100, align: 'right', render: (r) => formatMoney(r.spending_limit) }),
    col({ id: 'bid_strategy', title: 'Bidding', width: 130, render: (r) => formatText(r.bid_strategy) }),
    col({ id: 'start_date', title: 'Start', width: 100, render: (r) => formatDate(r.start_date) }),
    col({ id: 'id', title: 'ID', width: 90, align: 'right', render: (r) => r.id }),
  ];
}
