// The campaign grid's columns: the chosen fields (saved per account) in the chosen order and
// widths, or the default set. Sortable ones are the fields the list endpoint can sort on. Moving
// and resizing (by drag, keyboard or the column chooser) go through the pure functions below.
import { SORTABLE_CAMPAIGN_FIELDS } from '../../../shared/domain/campaign';
import type { AccountView, CampaignRecord } from '../../../shared/ipc/contract';
import { clampWidth, type DropSide } from '../../components/grid-header';
import type { GridColumn } from '../../components/virtual-grid';
import {
  CAMPAIGN_FIELDS,
  DEFAULT_COLUMN_IDS,
  DEFAULT_NETWORK_COLUMN_IDS,
  FIELD_BY_ID,
  FieldValue,
  minWidthOf,
  rawValue,
} from './campaign-fields';

const sortable = new Set<string>(SORTABLE_CAMPAIGN_FIELDS);
const RIGHT = new Set(['money']);

export type ChosenColumn = AccountView['columns'][number];

/** The columns in effect: the saved choice, or the defaults (a network also shows the advertiser). */
export function chosenColumns(saved: ChosenColumn[], network: boolean): ChosenColumn[] {
  const known = saved.filter((c) => FIELD_BY_ID.has(c.id));
  if (known.length > 0) return known;
  return (network ? DEFAULT_NETWORK_COLUMN_IDS : DEFAULT_COLUMN_IDS).map((id) => ({ id, width: FIELD_BY_ID.get(id)!.width }));
}

/** `id` placed before or after `targetId`; anything else leaves the order as it is. */
export function moveColumn(cols: ChosenColumn[], id: string, targetId: string, side: DropSide): ChosenColumn[] {
  const moved = cols.find((c) => c.id === id);
  if (!moved || id === targetId || !cols.some((c) => c.id === targetId)) return cols;
  const rest = cols.filter((c) => c.id !== id);
  const at = rest.findIndex((c) => c.id === targetId) + (side === 'after' ? 1 : 0);
  return [...rest.slice(0, at), moved, ...rest.slice(at)];
}

/** `id` set to `width`, kept within what the saved view accepts and the column's own minimum. */
export function resizeColumn(cols: ChosenColumn[], id: string, width: number): ChosenColumn[] {
  if (!Number.isFinite(width)) return cols;
  const w = clampWidth(width, minWidthOf(id));
  return cols.map((c) => (c.id === id ? { ...c, width: w } : c));
}

export function campaignColumns(chosen: ChosenColumn[]): GridColumn<CampaignRecord>[] {
  return chosen.map(({ id, width }) => {
    const f = FIELD_BY_ID.get(id)!;
    const minWidth = minWidthOf(id);
    return {
      id,
      title: f.label,
      // A view saved before the minimums (a 40 px column) opens at the minimum.
      width: Math.max(width, minWidth),
      minWidth,
      // The name takes the spare width while it has its default; once a person sets its width,
      // it keeps exactly that, or dragging its edge would seem to do nothing on a wide window.
      grow: id === 'name' && width === f.width,
      resizable: true,
      movable: true,
      align: RIGHT.has(f.kind) || id === 'id' ? 'right' : 'left',
      sortable: sortable.has(id),
      render: (r: CampaignRecord) =>
        id === 'name' ? <span data-testid="cell-name">{r.name}</span> : <FieldValue kind={f.kind} value={rawValue(r, id)} />,
    };
  });
}

export { CAMPAIGN_FIELDS };
