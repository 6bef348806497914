// The right-hand pane: every field of the selected campaign as the cache holds it, the known ones
// under their labels (enum values in words, the raw value on hover) and then every field the app
// does not know, under the name the service gave it, so nothing the service sent is hidden.
import type { CampaignRecord } from '../../../shared/ipc/contract';
import { formatAge } from '../../lib/format';
import { CAMPAIGN_FIELDS, FIELD_BY_ID, FieldValue, plainText, rawValue } from './campaign-fields';
import { StatusBadge } from './status-badge';

const SHOWN_ABOVE = new Set(['name', 'status']);

export function CampaignDetails({ row, syncedAt, now }: { row: CampaignRecord | null; syncedAt: number | null; now: number }) {
  if (!row) {
    return (
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling pane must be reachable from the keyboard (axe: scrollable-region-focusable)
      <aside className="details" data-testid="details-pane" aria-label="Campaign details" tabIndex={0}>
        <p className="muted">Select a campaign to see its details.</p>
      </aside>
    );
  }
  const known = CAMPAIGN_FIELDS.filter((f) => !SHOWN_ABOVE.has(f.id));
  const unknown = Object.keys(row.fields).filter((k) => !FIELD_BY_ID.has(k));
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling pane must be reachable from the keyboard (axe: scrollable-region-focusable)
    <aside className="details" data-testid="details-pane" aria-label="Campaign details" tabIndex={0}>
      <h2 className="details-title" data-testid="details-name">
        {row.name}
      </h2>
      <div className="details-status">
        <StatusBadge status={row.status} />
        <span className="muted">cached copy, synced {formatAge(syncedAt, now)}</span>
      </div>
      <dl className="details-fields">
        {known.map((f) => (
          <div key={f.id} className="details-field" data-field={f.id}>
            <dt title={f.id}>{f.label}</dt>
            <dd>
              {f.id === 'advertiser_name' ? (
                <FieldValue kind="text" value={row.advertiser_name ?? row.advertiser_id} />
              ) : (
                <FieldValue kind={f.kind} value={rawValue(row, f.id)} />
              )}
            </dd>
          </div>
        ))}
      </dl>
      {unknown.length > 0 ? (
        <>
          <h3 className="details-subtitle">Other fields from the service</h3>
          <dl className="details-fields" data-testid="details-unknown">
            {unknown.map((k) => (
              <div key={k} className="details-field" data-field={k}>
                <dt>{k}</dt>
                <dd>{plainText(row.fields[k]) || '\u2013'}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
    </aside>
  );
}
