// The create fields of a campaign draft (spec 4.1) under the window's labels: how a CSV column is
// matched (by the interface's field name or by a label of the window), how a draft is exported,
// and how a rule's message is said in the window's words ("CPC: enter a CPC when Bidding is
// Fixed CPC", not "cpc is required when bid_strategy is FIXED").
import type { FieldProblem } from '../../../shared/domain/campaign';
import { enumLabel } from '../../lib/enum-labels';
import type { UnknownValue } from '../../forms/unknown-values';

export type DraftFieldKind = 'text' | 'number' | 'enum';

export interface DraftField {
  field: string;
  label: string;
  kind: DraftFieldKind;
  /** Other labels the window uses for it (the campaigns table's, the editor's). */
  aliases?: string[];
}

export const DRAFT_FIELDS: readonly DraftField[] = [
  { field: 'name', label: 'Name', kind: 'text' },
  { field: 'branding_text', label: 'Branding text', kind: 'text' },
  { field: 'tracking_code', label: 'Tracking code', kind: 'text' },
  { field: 'bid_strategy', label: 'Bidding', kind: 'enum', aliases: ['Bid strategy'] },
  { field: 'cpc', label: 'CPC', kind: 'number' },
  { field: 'marketing_objective', label: 'Objective', kind: 'enum' },
  // The editor's select is Budget (it also offers a group budget), so messages say Budget too.
  { field: 'spending_limit_model', label: 'Budget', kind: 'enum', aliases: ['Limit model'] },
  { field: 'spending_limit', label: 'Spending limit', kind: 'number', aliases: ['Limit'] },
  { field: 'daily_cap', label: 'Daily cap', kind: 'number' },
  { field: 'campaign_group_id', label: 'Campaign group', kind: 'text' },
  { field: 'start_date', label: 'Start', kind: 'text' },
  { field: 'campaign_item_type', label: 'Creative surface', kind: 'enum', aliases: ['Item type'] },
];

const norm = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');
const BY_NAME = new Map<string, DraftField>();
for (const f of DRAFT_FIELDS) for (const n of [f.field, f.label, ...(f.aliases ?? [])]) BY_NAME.set(norm(n), f);

/** The draft field a column header names, by field name or label; undefined when none. */
export function fieldOfHeader(header: string): DraftField | undefined {
  return BY_NAME.get(norm(header));
}

/** Form fields that are not create fields: the editor's budget select stands for spending_limit_model. */
const OTHER_LABELS: Record<string, string> = { budget: 'Budget', account: 'Account' };

export function labelOf(field: string): string {
  const known = DRAFT_FIELDS.find((f) => f.field === field)?.label ?? OTHER_LABELS[field];
  if (known) return known;
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A rule's message in the window's words, led by the field's label. */
export function problemInWords(p: FieldProblem): string {
  let text = p.message;
  // Field names become labels, enum values their words.
  for (const f of DRAFT_FIELDS) text = text.replace(new RegExp(`\\b${f.field}\\b`, 'g'), f.label);
  text = text.replace(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b(?:FIXED|MONTHLY|NONE)\b/g, (v) => enumLabel(v));
  text = text.replace(/ is required/, ' is needed').replace(/ cannot be empty/, ': enter a value');
  const head = labelOf(p.field);
  const said = text.toLowerCase().startsWith(head.toLowerCase())
    ? text.charAt(0).toUpperCase() + text.slice(1)
    : `${head}: ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
  return /[.!?]$/.test(said) ? said : `${said}.`;
}

/** A value the app does not know, said before the draft is queued: kept, with the nearest offered. */
export function unknownValueInWords(u: UnknownValue): string {
  return `${labelOf(u.field)}: "${u.value}" is not a value this app knows. It is kept, since the service may use it; did you mean ${enumLabel(u.nearest)}?`;
}
