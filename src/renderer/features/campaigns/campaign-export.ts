// Campaigns as table text for copy (TSV) and export (CSV): the chosen columns, a header row of
// their labels, values as the service sent them (raw enum values, plain numbers) so a spreadsheet
// or a script reads them back exactly.
import type { CampaignRecord } from '../../../shared/ipc/contract';
import { call } from '../../lib/api';
import { sortArg } from '../../stores/campaigns-store';
import type { ChosenColumn } from './campaign-columns';
import { FIELD_BY_ID, plainText, rawValue } from './campaign-fields';

const EXPORT_PAGE = 1000;

export function campaignTable(records: CampaignRecord[], columns: ChosenColumn[]): string[][] {
  const header = columns.map((c) => FIELD_BY_ID.get(c.id)?.label ?? c.id);
  return [header, ...records.map((r) => columns.map((c) => plainText(rawValue(r, c.id))))];
}

export interface CampaignFilter {
  profileId: string;
  accountId: string;
  sort: { field: string; direction: 'asc' | 'desc' } | null;
  status: string | null;
  text: string;
}

/** Every cached campaign that matches the view's filter, in the view's order. */
export async function allMatching(f: CampaignFilter): Promise<CampaignRecord[]> {
  const out: CampaignRecord[] = [];
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const page = await call('campaigns.records', {
      profileId: f.profileId,
      accountId: f.accountId,
      ...sortArg(f.sort),
      ...(f.status ? { statuses: [f.status] } : {}),
      ...(f.text.trim() ? { text: f.text.trim() } : {}),
      offset,
      limit: EXPORT_PAGE,
      // A short page ends the list: no total is counted for any page (one more, empty, when the
      // matches are a multiple of EXPORT_PAGE, costs less than counting them).
      withTotal: false,
    });
    out.push(...page.rows);
    if (page.rows.length < EXPORT_PAGE) return out;
  }
}
