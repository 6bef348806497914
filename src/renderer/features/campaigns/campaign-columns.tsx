// The campaign grid's columns: the chosen fields (saved per account) in the chosen order and
// widths, or the default set. Sortable ones are the fields the list endpoint can sort on.
import { SORTABLE_CAMPAIGN_FIELDS } from '../../../shared/domain/campaign';
import type { AccountView, CampaignRecord } from '../../../shared/ipc/contract';
import type { GridColumn } from '../../components/virtual-grid';
import { CAMPAIGN_FIELDS, DEFAULT_COLUMN_IDS, FIELD_BY_ID, FieldValue, rawValue } from './campaign-fields';

const sortable = new Set<string>(SORTABLE_CAMPAIGN_FIELDS);
const RIGHT = new Set(['money']);

export type ChosenColumn = AccountView['columns'][number];

/** The columns in effect: the saved choice, or the defaults (a network also shows the advertiser). */
export function chosenColumns(saved: ChosenColumn[], network: boolean): ChosenColumn[] {
  const known = saved.filter((c) => FIELD_BY_ID.has(c.id));
  if (known.length > 0) return known;
  const ids = network ? ['name', 'advertiser_name', ...DEFAULT_COLUMN_IDS.slice(1)] : DEFAULT_COLUMN_IDS;
  return ids.map((id) => ({ id, width: FIELD_BY_ID.get(id)!.width }));
}

export function campaignColumns(chosen: ChosenColumn[]): GridColumn<CampaignRecord>[] {
  return chosen.map(({ id, width }) => {
    const f = FIELD_BY_ID.get(id)!;
    return {
      id,
      title: f.label,
      width,
      grow: id === 'name',
      align: RIGHT.has(f.kind) || id === 'id' ? 'right' : 'left',
      sortable: sortable.has(id),
      render: (r: CampaignRecord) =>
        id === 'name' ? <span data-testid="cell-name">{r.name}</span> : <FieldValue kind={f.kind} value={rawValue(r, id)} />,
    };
  });
}

export { CAMPAIGN_FIELDS };
