// Drafts in and out of tables: a campaign duplicated into a draft, a CSV or pasted TSV turned into
// drafts with a report of every problem per row, drafts written out as CSV. Rows are checked with
// the same shared rules the core applies on submit, before anything is saved.
import type { AccountType } from '../../../shared/domain/account';
import { campaignCreateProblems, campaignCreateSchema, CREATABLE_ITEM_TYPE, type FieldProblem } from '../../../shared/domain/campaign';
import type { CampaignRecord, Draft } from '../../../shared/ipc/contract';
import { parseDelimited, toDelimited } from '../../lib/delimited';
import { enumLabel } from '../../lib/enum-labels';
import type { CampaignPayload, SeenValues } from '../../forms/campaign-form';
import { unknownValues } from '../../forms/unknown-values';
import { DRAFT_FIELDS, fieldOfHeader, problemInWords, unknownValueInWords, type DraftField } from './draft-fields';

/** A cached campaign as a new draft: its create fields, the name marked as a copy. */
export function campaignToPayload(c: CampaignRecord): CampaignPayload {
  const f = c.fields;
  const out: Record<string, unknown> = { name: `${c.name} (copy)` };
  for (const { field } of DRAFT_FIELDS) {
    if (field === 'name' || field === 'start_date') continue; // a copy starts when it is posted
    const v = f[field];
    if (v === null || v === undefined || v === '') continue;
    // A surface the service moved the campaign to (HAS_DISPLAY_ITEMS) cannot be created: left out.
    if (field === 'campaign_item_type' && (typeof v !== 'string' || !CREATABLE_ITEM_TYPE.test(v))) continue;
    out[field] = v;
  }
  if (out.spending_limit_model === 'NONE') delete out.spending_limit;
  const parsed = campaignCreateSchema.partial().safeParse(out);
  return parsed.success ? parsed.data : { name: out.name as string };
}

export interface ImportRow {
  /** The line in the file (the header is line 1). */
  line: number;
  name: string;
  payload: CampaignPayload | null;
  problems: string[];
  /** What is imported but worth a look: values the app does not know, with the nearest it does. */
  notes: string[];
}

export interface ImportReport {
  rows: ImportRow[];
  ignoredColumns: string[];
  /** Problems with the whole file (no name column, unreadable). */
  fileProblems: string[];
}

function cellValue(f: DraftField, raw: string): { value?: unknown; problem?: string } {
  const text = raw.trim();
  if (text === '') return {};
  if (f.kind === 'number') {
    const n = Number(text.replace(/\s/g, ''));
    if (!Number.isFinite(n)) return { problem: `${f.label}: "${text}" is not a number. Write it like 0.35.` };
    return { value: n };
  }
  if (f.kind === 'enum') {
    // The service's value (FIXED) or the window's words for it (Fixed CPC).
    if (/^[A-Z][A-Z0-9_]*$/.test(text)) return { value: text };
    const match = KNOWN_ENUMS.find((v) => enumLabel(v).toLowerCase() === text.toLowerCase());
    if (match) return { value: match };
    return { problem: `${f.label}: "${text}" is not a value the service uses. Use one like ${KNOWN_ENUMS.slice(0, 3).join(', ')}.` };
  }
  return { value: text };
}

const KNOWN_ENUMS = [
  'FIXED',
  'MAX_CONVERSIONS',
  'MONTHLY',
  'NONE',
  'LEADS_GENERATION',
  'DRIVE_WEBSITE_TRAFFIC',
  'HAS_NO_ITEMS',
  'HAS_NO_ITEMS_DISPLAY',
  'HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO',
];

/** Every row of the text checked; nothing is saved here. */
export function readImport(text: string, accountType?: AccountType, seen: SeenValues = {}): ImportReport {
  const delimiter = text.split(/\r?\n/, 1)[0]?.includes('\t') ? '\t' : ',';
  const parsed = parseDelimited(text, delimiter);
  const fields = parsed.header.map((h) => fieldOfHeader(h));
  const ignoredColumns = parsed.header.filter((_, i) => !fields[i] && parsed.header[i] !== '');
  const fileProblems = [...parsed.errors];
  if (!fields.some((f) => f?.field === 'name'))
    fileProblems.push('No Name column: the first line must name the columns, one of them Name.');
  const rows: ImportRow[] = parsed.rows.map((cells, i) => {
    const problems: string[] = [];
    const out: Record<string, unknown> = {};
    fields.forEach((f, k) => {
      if (!f) return;
      const v = cellValue(f, cells[k] ?? '');
      if (v.problem) problems.push(v.problem);
      else if (v.value !== undefined) out[f.field] = v.value;
    });
    if (out.bid_strategy === undefined) out.bid_strategy = 'FIXED';
    if (out.marketing_objective === undefined) out.marketing_objective = 'DRIVE_WEBSITE_TRAFFIC';
    if (out.name === undefined) out.name = '';
    const checked = campaignCreateSchema.safeParse(out);
    let payload: CampaignPayload | null = null;
    if (!checked.success) {
      for (const issue of checked.error.issues)
        problems.push(problemInWords({ field: String(issue.path[0] ?? 'draft'), message: issue.message }));
    } else {
      const rules: FieldProblem[] = campaignCreateProblems(checked.data, accountType ? { accountType } : {});
      problems.push(...rules.map(problemInWords));
      payload = checked.data;
    }
    const notes = payload ? unknownValues(payload, seen).map(unknownValueInWords) : [];
    return {
      line: i + 2,
      name: typeof out.name === 'string' ? out.name : '',
      payload: problems.length === 0 ? payload : null,
      problems,
      notes,
    };
  });
  return { rows, ignoredColumns, fileProblems };
}

/** Campaign drafts as CSV under the window's labels (which the import reads back). */
export function draftsToCsv(drafts: Draft[]): string {
  const header = DRAFT_FIELDS.map((f) => f.label);
  const rows = drafts.flatMap((d) =>
    d.kind === 'campaign'
      ? [
          DRAFT_FIELDS.map((f) => {
            const v = (d.payload as Record<string, unknown>)[f.field];
            return v === null || v === undefined ? '' : String(v);
          }),
        ]
      : [],
  );
  return toDelimited([header, ...rows], ',');
}
