// What is picked in the campaigns table and what can be done with it: copy as TSV (pastes into a
// spreadsheet), export the whole filtered view as CSV, pick every campaign matching the filter.
import type { CampaignRecord } from '../../../shared/ipc/contract';
import { messageOf } from '../../lib/api';
import { downloadText, toDelimited } from '../../lib/delimited';
import { formatCount } from '../../lib/format';
import { useCampaigns } from '../../stores/campaigns-store';
import { useDrafts } from '../../stores/drafts-store';
import { campaignToPayload } from '../drafts/draft-transfer';
import type { ChosenColumn } from './campaign-columns';
import { allMatching, campaignTable, type CampaignFilter } from './campaign-export';

function currentFilter(): CampaignFilter | null {
  const s = useCampaigns.getState();
  if (!s.account) return null;
  return { ...s.account, sort: s.sort, status: s.status, text: s.text };
}

/** The picked campaigns' records: all matching ones when "all" is picked. */
async function pickedRecords(): Promise<CampaignRecord[]> {
  const s = useCampaigns.getState();
  const f = currentFilter();
  if (s.allPicked && f) return allMatching(f);
  return Object.values(s.picked);
}

export async function copyPicked(columns: ChosenColumn[]): Promise<string> {
  const records = await pickedRecords();
  if (records.length === 0) return 'Pick one or more campaigns first (click, Shift+click, Ctrl+click).';
  await navigator.clipboard.writeText(toDelimited(campaignTable(records, columns), '\t'));
  return `Copied ${formatCount(records.length)} campaign${records.length === 1 ? '' : 's'}: paste them into a spreadsheet.`;
}

export function SelectionBar({
  columns,
  note,
  setNote,
  onOpenDrafts,
}: {
  columns: ChosenColumn[];
  note: string;
  setNote(n: string): void;
  onOpenDrafts?(): void;
}) {
  const picked = useCampaigns((s) => Object.keys(s.picked).length);
  const allPicked = useCampaigns((s) => s.allPicked);
  const total = useCampaigns((s) => s.total);
  // Everything matching is picked before it is counted: something is picked all the same.
  const counting = allPicked && total === null;
  const count = allPicked ? (total ?? 0) : picked;
  const some = counting || count > 0;

  const run = async (what: () => Promise<string>) => {
    try {
      setNote(await what());
    } catch (err) {
      setNote(`Nothing was copied or exported: ${messageOf(err)}`);
    }
  };
  const exportView = async () => {
    const f = currentFilter();
    if (!f) return '';
    const records = await allMatching(f);
    downloadText(`campaigns-${f.accountId}.csv`, toDelimited(campaignTable(records, columns), ','), 'text/csv');
    return `Exported ${formatCount(records.length)} campaign${records.length === 1 ? '' : 's'} as CSV.`;
  };

  const duplicate = async () => {
    const records = await pickedRecords();
    if (records.length === 0) return 'Pick the campaigns to duplicate first.';
    const saved = await useDrafts
      .getState()
      .createMany(`duplicate ${records.length} campaign${records.length === 1 ? '' : 's'}`, records.map(campaignToPayload));
    if (saved.length === 0) return useDrafts.getState().notice?.text ?? 'No draft was made.';
    onOpenDrafts?.();
    return `${saved.length} draft${saved.length === 1 ? '' : 's'} made: edit them in Drafts.`;
  };

  return (
    <div className="selection-bar" role="toolbar" aria-label="Picked campaigns">
      <span data-testid="picked-count">
        {counting ? 'All selected (counting…)' : count > 0 ? `${formatCount(count)} selected` : 'None selected'}
      </span>
      <button type="button" onClick={() => useCampaigns.getState().pickAll()} data-testid="pick-all" disabled={total === 0}>
        {total === null ? 'Select all' : `Select all ${formatCount(total)}`}
      </button>
      <button
        type="button"
        onClick={() => void run(() => copyPicked(columns))}
        disabled={!some}
        data-testid="copy-picked"
        title="Copy as TSV (Ctrl+C in the table)"
      >
        Copy
      </button>
      <button
        type="button"
        onClick={() => void run(duplicate)}
        disabled={!some}
        data-testid="duplicate-picked"
        title="Make a draft of each picked campaign (nothing is posted)"
      >
        Duplicate to drafts
      </button>
      {some ? (
        <button type="button" onClick={() => useCampaigns.getState().clearPicks()} data-testid="clear-picks">
          Clear
        </button>
      ) : null}
      <button
        type="button"
        onClick={() => void run(exportView)}
        disabled={total === 0}
        data-testid="export-csv"
        title="Every campaign of this view, in this order, as a CSV file"
      >
        Export CSV
      </button>
      <span className="muted" role="status" data-testid="selection-note">
        {note}
      </span>
    </div>
  );
}
