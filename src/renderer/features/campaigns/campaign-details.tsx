// The right-hand pane: every cached field of the selected campaign.
import type { CampaignRow } from '../../../shared/ipc/contract';
import { formatAge, formatDate, formatMoney, formatText } from '../../lib/format';
import { StatusBadge } from './status-badge';

export function CampaignDetails({ row, syncedAt, now }: { row: CampaignRow | null; syncedAt: number | null; now: number }) {
  if (!row) {
    return (
      <aside className="details" data-testid="details-pane" aria-label="Campaign details">
        <p className="muted">Select a campaign to see its details.</p>
      </aside>
    );
  }
  const fields: [string, string][] = [
    ['Campaign ID', row.id],
    ['Account', row.account_id],
    ['Advertiser', formatText(row.advertiser_name ?? row.advertiser_id)],
    ['Spent', formatMoney(row.spent)],
    ['CPC', formatMoney(row.cpc)],
    ['Daily cap', formatMoney(row.daily_cap)],
    ['Spending limit', formatMoney(row.spending_limit)],
    ['Limit model', formatText(row.spending_limit_model)],
    ['Bid strategy', formatText(row.bid_strategy)],
    ['Objective', formatText(row.marketing_objective)],
    ['Pricing', formatText(row.pricing_model)],
    ['Item type', formatText(row.campaign_item_type)],
    ['Branding text', formatText(row.branding_text)],
    ['Campaign group', formatText(row.campaign_group_id)],
    ['Start', formatDate(row.start_date)],
  ];
  return (
    <aside className="details" data-testid="details-pane" aria-label="Campaign details">
      <h2 className="details-title" data-testid="details-name">
        {row.name}
      </h2>
      <div className="details-status">
        <StatusBadge status={row.status} />
        <span className="muted">cached copy, synced {formatAge(syncedAt, now)}</span>
      </div>
      <dl className="details-fields">
        {fields.map(([k, v]) => (
          <div key={k} className="details-field">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
