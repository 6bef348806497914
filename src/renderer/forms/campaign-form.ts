// The campaign draft editor's form model: every input is kept as the text the person typed, so
// nothing is lost half-typed; the draft payload (spec 4.1 create body, partial) is derived from it.
// The shared rules check that payload live, exactly as main checks it on submit. Enum fields keep
// any value the service may use (DECISIONS client 7), not only the ones the spec shows.
import type { AccountType } from '../../shared/domain/account';
import {
  campaignCreateProblems,
  isCreatableValue,
  OPEN_CREATE_ENUMS,
  type CampaignCreate,
  type FieldProblem,
  type OpenCreateEnum,
} from '../../shared/domain/campaign';

/**
 * The budget select: a spending_limit_model (MONTHLY, NONE or another the service uses),
 * GROUP_BUDGET, or '' (not chosen yet).
 */
export type BudgetMode = string;

/**
 * The spec's third option: no spending_limit_model, the budget of a campaign group (spec 4.1 rule
 * 5). Lower-case, so no service value (always upper-case) can be taken for it.
 */
export const GROUP_BUDGET = 'group';

export interface CampaignForm {
  name: string;
  branding_text: string;
  bid_strategy: string;
  cpc: string;
  marketing_objective: string;
  budget: BudgetMode;
  spending_limit: string;
  daily_cap: string;
  campaign_group_id: string;
  /** A datetime-local value (local time, no zone) or ''. */
  start_date: string;
  campaign_item_type: string;
}

export type CampaignPayload = Partial<CampaignCreate>;

export const NEW_CAMPAIGN_FORM: CampaignForm = {
  name: '',
  branding_text: '',
  bid_strategy: 'FIXED',
  cpc: '',
  marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
  budget: 'MONTHLY',
  spending_limit: '',
  daily_cap: '',
  campaign_group_id: '',
  start_date: '',
  campaign_item_type: 'HAS_NO_ITEMS',
};

function num(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  // A value that is not a number is kept out of the payload; the field's own check reports it.
  return Number.isFinite(n) ? n : undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO date-time -> datetime-local text in the person's time zone. */
export function isoToLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const d = new Date(t);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** datetime-local text -> ISO 8601 in UTC (what start_date carries), or undefined. */
export function localInputToIso(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const t = new Date(text).getTime();
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/**
 * Whether the form shows (and sends) a cpc: FIXED needs one, MAX_CONVERSIONS must not have one, and
 * for another strategy the service uses we do not know, so it is offered and optional.
 */
export function cpcShown(bidStrategy: string): 'required' | 'optional' | 'hidden' {
  if (bidStrategy === 'FIXED') return 'required';
  return bidStrategy === 'MAX_CONVERSIONS' || bidStrategy === '' ? 'hidden' : 'optional';
}

/** The same for the spending limit: MONTHLY needs one, NONE and a group budget must not have one. */
export function spendingLimitShown(budget: BudgetMode): 'required' | 'optional' | 'hidden' {
  if (budget === 'MONTHLY') return 'required';
  return budget === 'NONE' || budget === GROUP_BUDGET || budget === '' ? 'hidden' : 'optional';
}

/** The create body a form stands for: hidden fields are left out, so what is sent is what is seen. */
export function formToPayload(f: CampaignForm): CampaignPayload {
  const p: CampaignPayload = { name: f.name, bid_strategy: f.bid_strategy, marketing_objective: f.marketing_objective };
  if (f.branding_text !== '') p.branding_text = f.branding_text;
  if (f.campaign_item_type !== '') p.campaign_item_type = f.campaign_item_type;
  const cpc = num(f.cpc);
  if (cpcShown(f.bid_strategy) !== 'hidden' && cpc !== undefined) p.cpc = cpc;
  if (f.budget !== GROUP_BUDGET && f.budget !== '') p.spending_limit_model = f.budget;
  const limit = num(f.spending_limit);
  if (spendingLimitShown(f.budget) !== 'hidden' && limit !== undefined) p.spending_limit = limit;
  const cap = num(f.daily_cap);
  if (cap !== undefined) p.daily_cap = cap;
  // With a group budget the group id is the point, so it is sent even empty (and the rules say so).
  if (f.budget === GROUP_BUDGET || f.campaign_group_id.trim() !== '') p.campaign_group_id = f.campaign_group_id;
  const start = localInputToIso(f.start_date);
  if (start !== undefined) p.start_date = start;
  return p;
}

export function payloadToForm(p: CampaignPayload): CampaignForm {
  const model = p.spending_limit_model;
  // Any model is kept as it is (a value the service uses must survive a reload of the draft).
  const budget: BudgetMode = model !== undefined ? model : p.campaign_group_id !== undefined ? GROUP_BUDGET : '';
  const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    name: p.name ?? '',
    branding_text: p.branding_text ?? '',
    bid_strategy: p.bid_strategy ?? '',
    cpc: text(p.cpc),
    marketing_objective: p.marketing_objective ?? '',
    budget,
    spending_limit: text(p.spending_limit),
    daily_cap: text(p.daily_cap),
    campaign_group_id: p.campaign_group_id ?? '',
    start_date: isoToLocalInput(p.start_date),
    campaign_item_type: p.campaign_item_type ?? '',
  };
}

/** Numbers typed that are not numbers: the shared rules never see them, so they are reported here. */
function numberProblems(f: CampaignForm): FieldProblem[] {
  const out: FieldProblem[] = [];
  const check = (field: keyof CampaignForm, shown: boolean) => {
    const t = f[field].trim();
    if (shown && t !== '' && !Number.isFinite(Number(t))) out.push({ field, message: `${field} must be a number` });
  };
  check('cpc', cpcShown(f.bid_strategy) !== 'hidden');
  check('spending_limit', spendingLimitShown(f.budget) !== 'hidden');
  check('daily_cap', true);
  return out;
}

/** Every problem of the form, by the shared rules, as main will judge the draft on submit. */
export function campaignFormProblems(f: CampaignForm, accountType?: AccountType): FieldProblem[] {
  const p = formToPayload(f);
  const body: CampaignCreate = {
    ...p,
    name: p.name ?? '',
    bid_strategy: p.bid_strategy ?? '',
    marketing_objective: p.marketing_objective ?? '',
  };
  if (f.start_date !== '' && p.start_date === undefined) body.start_date = f.start_date;
  const shared = campaignCreateProblems(body, accountType ? { accountType } : {});
  return [...numberProblems(f), ...shared].map((x) => (x.field === 'spending_limit_model' ? { ...x, field: 'budget' } : x));
}

/** Values of the extendable fields seen in the account's cached campaigns (campaigns.values). */
export type SeenValues = Partial<Record<OpenCreateEnum, readonly string[]>>;

/**
 * The choices a select offers: the values the spec shows, then the other values the service was
 * seen using that a create may carry (never a state like HAS_DISPLAY_ITEMS), each once, sorted.
 */
export function fieldChoices(field: OpenCreateEnum, seen: SeenValues): string[] {
  const known: readonly string[] = OPEN_CREATE_ENUMS[field];
  const others = [...new Set(seen[field] ?? [])].filter((v) => !known.includes(v) && isCreatableValue(field, v)).sort();
  return [...known, ...others];
}

/** Problems grouped by form field, for showing each next to its input. */
export function problemsByField(problems: readonly FieldProblem[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of problems) (out[p.field] ??= []).push(p.message);
  return out;
}

/** What a draft is called in a list. */
export function campaignDraftTitle(p: CampaignPayload): string {
  return p.name && p.name.trim() !== '' ? p.name : 'Untitled campaign';
}
