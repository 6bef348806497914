// Campaign rules shared by the sandbox (which enforces them) and the desk (which checks a draft
// offline before it is ever sent). Pure TypeScript and zod: no Node, Electron or DOM imports.
import type { AccountType } from './account';
import { z } from 'zod';
import { serviceDateTimeSchema } from './service-dates';
import { lenientNumberSchema, lenientRequiredTextSchema, lenientTextSchema, serviceIdSchema } from './service-id';

/** Account ids are alphabetic (spec 4.1, 4.2). */
export const accountIdSchema = z.string().regex(/^[A-Za-z]+$/, 'account id must contain letters only');
export type AccountId = z.infer<typeof accountIdSchema>;

export const CAMPAIGN_ITEM_TYPES = ['HAS_NO_ITEMS', 'HAS_NO_ITEMS_DISPLAY', 'HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO'] as const;
export type CampaignItemType = (typeof CAMPAIGN_ITEM_TYPES)[number];

/** Values the spec shows. Others may arrive from a real service and are kept (DECISIONS client 7). */
export const KNOWN_BID_STRATEGIES = ['FIXED', 'MAX_CONVERSIONS'] as const;
export const KNOWN_SPENDING_LIMIT_MODELS = ['MONTHLY', 'NONE'] as const;
export const KNOWN_MARKETING_OBJECTIVES = ['LEADS_GENERATION', 'DRIVE_WEBSITE_TRAFFIC'] as const;
export const KNOWN_PRICING_MODELS = ['CPC'] as const;
export const KNOWN_CAMPAIGN_STATUSES = ['APPROVED', 'PENDING_APPROVAL', 'PAUSED', 'REJECTED', 'TERMINATED'] as const;

/**
 * The shape every enum value of the spec has (FIXED, HAS_NO_ITEMS_DISPLAY, ...). A value the spec
 * does not show but that has this shape may be one the service uses ("other allowed values: not
 * shown", spec 2.1), so a draft may carry it (DECISIONS client 7); anything else is a typo.
 */
export const ENUM_VALUE = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * What a create sends in campaign_item_type: an empty surface (spec 3.1, "the HAS_NO_ITEMS_* value
 * is sent at creation"). Other values (HAS_DISPLAY_ITEMS) are states the service moves a campaign
 * to, and cannot be chosen.
 */
export const CREATABLE_ITEM_TYPE = /^HAS_NO_ITEMS(_[A-Z0-9_]{1,50})?$/;

/**
 * Create fields whose values the service may extend, with the values the spec shows: the editor
 * offers these plus the ones seen in the account's cached campaigns.
 */
export const OPEN_CREATE_ENUMS = {
  bid_strategy: KNOWN_BID_STRATEGIES,
  marketing_objective: KNOWN_MARKETING_OBJECTIVES,
  spending_limit_model: KNOWN_SPENDING_LIMIT_MODELS,
  campaign_item_type: CAMPAIGN_ITEM_TYPES,
} as const;
export type OpenCreateEnum = keyof typeof OPEN_CREATE_ENUMS;
export const OPEN_CREATE_ENUM_FIELDS = Object.keys(OPEN_CREATE_ENUMS) as OpenCreateEnum[];

/** Whether a create may carry `value` in `field`: a value the spec shows, or one the service may use. */
export function isCreatableValue(field: OpenCreateEnum, value: string): boolean {
  if ((OPEN_CREATE_ENUMS[field] as readonly string[]).includes(value)) return true;
  if (!ENUM_VALUE.test(value)) return false;
  return field === 'campaign_item_type' ? CREATABLE_ITEM_TYPE.test(value) : true;
}

export const ACCOUNT_FEATURES = ['DISPLAY', 'PERFORMANCE_VIDEO', 'SPENDING_LIMIT_NONE'] as const;
export type AccountFeature = (typeof ACCOUNT_FEATURES)[number];

const money = z.number().finite();

/**
 * The highest price per click the desk lets a draft carry. The interface sets no ceiling, so the
 * sandbox (a service) does not refuse more; the desk does, because a CPC in the thousands is a
 * slipped digit or a pasted amount (1e9 from a spreadsheet), and it would be spent before anyone
 * noticed. A hundred times the dearest clicks of the ad platforms, so no real bid meets it.
 */
export const CPC_MAX = 1000;

/**
 * The body of a create request (spec 4.1). Types are checked here; the cross-field rules are in
 * `campaignCreateProblems` so that a draft can show every problem at once.
 */
export const campaignCreateSchema = z.object({
  name: z.string(),
  branding_text: z.string().optional(),
  tracking_code: z.string().optional(),
  cpc: money.nullable().optional(),
  daily_cap: money.nullable().optional(),
  spending_limit: money.nullable().optional(),
  spending_limit_model: z.string().optional(),
  bid_strategy: z.string(),
  marketing_objective: z.string(),
  campaign_group_id: z.string().optional(),
  start_date: z.string().optional(),
  campaign_item_type: z.string().optional(),
  daily_ad_delivery_model: z.string().optional(),
});
export type CampaignCreate = z.infer<typeof campaignCreateSchema>;

export interface CampaignRuleContext {
  /** Features of the target account; `undefined` when the desk does not know them (offline check). */
  features?: readonly string[];
  /** Account type; creating in a NETWORK account is refused. */
  accountType?: AccountType;
  /**
   * Which enum values pass. 'open' (the default, the desk's): the values the spec shows and any
   * well-formed other value, since the service may use more than the spec shows (DECISIONS client
   * 7). 'known': only the values the spec shows; for the sandbox, which is a service and knows
   * every value it has. Only 'open' applies the desk's own bounds (CPC_MAX), which the interface
   * does not set.
   */
  values?: 'open' | 'known';
}

/** One rule violation: `field` names the form field a person must change. */
export interface FieldProblem {
  field: string;
  message: string;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * Every cross-field rule of campaign creation, in the order a person would fix them. The sandbox
 * answers 400 with the first message; the desk shows them all next to their fields.
 */
export function campaignCreateProblems(c: CampaignCreate, ctx: CampaignRuleContext = {}): FieldProblem[] {
  const out: FieldProblem[] = [];
  const has = (f: string) => ctx.features === undefined || ctx.features.includes(f);
  const allowed = (field: OpenCreateEnum, value: string) =>
    ctx.values === 'known' ? (OPEN_CREATE_ENUMS[field] as readonly string[]).includes(value) : isCreatableValue(field, value);
  const notAllowed = (field: OpenCreateEnum): FieldProblem => ({ field, message: valueMessage(field, ctx.values ?? 'open') });
  if (ctx.accountType === 'NETWORK') {
    out.push({ field: 'account', message: 'Campaigns can only be created in an advertiser account, not a network' });
  }
  if (c.name.trim() === '') out.push({ field: 'name', message: 'name cannot be empty' });
  else if (c.name.length > 255) out.push({ field: 'name', message: 'name is too long (max 255)' });

  const itemType = c.campaign_item_type ?? 'HAS_NO_ITEMS';
  if (!allowed('campaign_item_type', itemType)) {
    out.push(notAllowed('campaign_item_type'));
  } else if (itemType === 'HAS_NO_ITEMS_DISPLAY' && !has('DISPLAY')) {
    out.push({ field: 'campaign_item_type', message: 'This account is not enabled for display campaigns' });
  } else if (itemType === 'HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO' && !has('PERFORMANCE_VIDEO')) {
    out.push({ field: 'campaign_item_type', message: 'This account is not enabled for performance video campaigns' });
  }
  // Only the native surface is known to need branding; another surface's needs are the service's to say.
  const native = itemType === 'HAS_NO_ITEMS';
  if (native && (c.branding_text === undefined || c.branding_text.trim() === '')) {
    out.push({ field: 'branding_text', message: 'branding_text is required for native campaigns' });
  }

  const hasCpc = c.cpc !== undefined && c.cpc !== null;
  if (c.bid_strategy === 'FIXED') {
    if (!hasCpc) {
      out.push({ field: 'cpc', message: 'cpc is required when bid_strategy is FIXED' });
    } else if ((c.cpc as number) <= 0) {
      out.push({ field: 'cpc', message: 'cpc must be greater than 0' });
    }
  } else if (c.bid_strategy === 'MAX_CONVERSIONS') {
    if (hasCpc) {
      out.push({ field: 'cpc', message: 'cpc must be omitted when bid_strategy is MAX_CONVERSIONS' });
    }
  } else if (!allowed('bid_strategy', c.bid_strategy)) {
    out.push(notAllowed('bid_strategy'));
  } else if (hasCpc && (c.cpc as number) <= 0) {
    // Another strategy neither needs nor forbids a cpc (we do not know which it is); one sent is a price.
    out.push({ field: 'cpc', message: 'cpc must be greater than 0' });
  }

  if (ctx.values !== 'known' && hasCpc && (c.cpc as number) > CPC_MAX) {
    out.push({ field: 'cpc', message: cpcTooHighMessage(c.cpc as number) });
  }

  if (!allowed('marketing_objective', c.marketing_objective)) out.push(notAllowed('marketing_objective'));

  const model = c.spending_limit_model;
  const hasLimit = c.spending_limit !== undefined && c.spending_limit !== null;
  if (model === undefined) {
    if (hasLimit) {
      out.push({ field: 'spending_limit_model', message: 'spending_limit_model is required with spending_limit' });
    } else if (c.campaign_group_id === undefined && native) {
      out.push({
        field: 'spending_limit_model',
        message: 'spending_limit_model is required unless the campaign belongs to a shared-budget campaign group',
      });
    }
  } else if (model === 'MONTHLY') {
    if (!hasLimit) out.push({ field: 'spending_limit', message: 'spending_limit is required when spending_limit_model is MONTHLY' });
    else if ((c.spending_limit as number) <= 0) out.push({ field: 'spending_limit', message: 'spending_limit must be greater than 0' });
  } else if (model === 'NONE') {
    if (!has('SPENDING_LIMIT_NONE')) {
      out.push({ field: 'spending_limit_model', message: 'spending_limit_model NONE is not available for this account' });
    }
    if (hasLimit) out.push({ field: 'spending_limit', message: 'spending_limit must be omitted when spending_limit_model is NONE' });
    if (c.daily_cap === undefined || c.daily_cap === null) {
      out.push({ field: 'daily_cap', message: 'daily_cap is required when spending_limit_model is NONE' });
    }
  } else if (!allowed('spending_limit_model', model)) {
    out.push(notAllowed('spending_limit_model'));
  } else if (hasLimit && (c.spending_limit as number) <= 0) {
    // Another model may or may not take a limit; one sent is an amount.
    out.push({ field: 'spending_limit', message: 'spending_limit must be greater than 0' });
  }
  if (c.daily_cap !== undefined && c.daily_cap !== null && c.daily_cap <= 0) {
    out.push({ field: 'daily_cap', message: 'daily_cap must be greater than 0' });
  }
  if (c.campaign_group_id !== undefined && c.campaign_group_id.trim() === '') {
    out.push({ field: 'campaign_group_id', message: 'campaign_group_id cannot be empty when sent' });
  }
  if (c.start_date !== undefined && (!ISO_DATE_TIME.test(c.start_date) || Number.isNaN(Date.parse(c.start_date)))) {
    out.push({ field: 'start_date', message: 'start_date must be an ISO 8601 date-time' });
  }
  return out;
}

/** The desk's refusal of a cpc above CPC_MAX, with the amount as typed so a slipped digit shows. */
function cpcTooHighMessage(cpc: number): string {
  return `cpc ${cpc.toLocaleString('en-US', { maximumFractionDigits: 2 })} is more than ${CPC_MAX.toLocaleString('en-US')} a click: check for a slipped digit`;
}

/** Why a value of an enum field was refused, naming the values the spec shows. */
function valueMessage(field: OpenCreateEnum, values: 'open' | 'known'): string {
  const known = OPEN_CREATE_ENUMS[field].join(', ');
  if (values === 'known') return `${field} must be one of ${known}`;
  if (field === 'campaign_item_type') {
    return `campaign_item_type must be one of ${known}, or another empty surface the service offers (HAS_NO_ITEMS_...)`;
  }
  return `${field} must be one of ${known}, or another value the service uses (capital letters, digits and _)`;
}

// Every field but the id is read liberally (service-id.ts): an odd value is left out, never a reason
// to refuse the listing it came in.
const serviceMoney = lenientNumberSchema.optional();
const lenientText = lenientTextSchema.optional();

/**
 * A campaign as the service returns it, parsed liberally: the id may be a number (create) or a
 * string (list) and is kept as the string the service wrote (service-id.ts); unknown fields and
 * enum values pass through.
 */
export const campaignSchema = z.looseObject({
  id: serviceIdSchema,
  advertiser_id: lenientText,
  advertiser_name: lenientText,
  name: lenientRequiredTextSchema,
  branding_text: lenientText,
  tracking_code: lenientText,
  pricing_model: lenientText,
  cpc: serviceMoney,
  safety_rating: z.unknown().optional(),
  daily_cap: serviceMoney,
  daily_ad_delivery_model: lenientText,
  spending_limit: serviceMoney,
  spending_limit_model: lenientText,
  bid_strategy: lenientText,
  marketing_objective: lenientText,
  campaign_group_id: lenientText,
  // Any ISO 8601 spelling (or epoch ms) read into one form: service-dates.ts.
  start_date: serviceDateTimeSchema.optional(),
  campaign_item_type: lenientText,
  status: lenientText,
  spent: serviceMoney,
});
export type Campaign = z.infer<typeof campaignSchema>;

/** A count of the metadata: a whole number, also written as text or with a point ("12", 12.0). */
const metadataCount = lenientNumberSchema.pipe(z.number().int().nonnegative());

export const campaignListEnvelopeSchema = z.looseObject({
  // An empty listing may leave its results out or write them as null (DECISIONS client 17).
  results: z
    .array(z.unknown())
    .nullable()
    .optional()
    .transform((r) => r ?? []),
  // count is the rows of this answer (spec 2.2), which the answer itself shows: one left out is
  // counted by the reader. total is not: without it no reader can tell a whole listing.
  metadata: z.looseObject({ total: metadataCount, count: metadataCount.optional() }),
});

export const FETCH_LEVELS = ['R', 'RAP'] as const;
export type FetchLevel = (typeof FETCH_LEVELS)[number];

/** Fields the list endpoint can sort on (primitive and enum fields of 2.1). */
export const SORTABLE_CAMPAIGN_FIELDS = [
  'id',
  'name',
  'status',
  'spent',
  'cpc',
  'daily_cap',
  'spending_limit',
  'start_date',
  'advertiser_id',
  'advertiser_name',
  'branding_text',
  'pricing_model',
  'bid_strategy',
  'marketing_objective',
  'spending_limit_model',
  'campaign_item_type',
  'daily_ad_delivery_model',
] as const;
/** Fields that exist but are complex objects and so cannot be sorted. */
export const UNSORTABLE_CAMPAIGN_FIELDS = ['targeting', 'activity_schedule', 'policy_review', 'tracking_code'] as const;
export type SortableCampaignField = (typeof SORTABLE_CAMPAIGN_FIELDS)[number];

export interface CampaignListQuery {
  fetchLevel: FetchLevel;
  /** Sent exactly as the service spelled them (ids are strings end to end). */
  campaignIds?: readonly string[];
  page?: number;
  pageSize?: number;
  sort?: { field: string; direction: 'asc' | 'desc' };
}

/** Largest page the sandbox serves; a real service may serve less, so the client reads `count`. */
export const MAX_PAGE_SIZE = 1000;

/** The query string of a list request, in the spec's form (campaign_ids repeated). */
export function campaignListSearchParams(q: CampaignListQuery): URLSearchParams {
  const p = new URLSearchParams();
  p.set('fetch_level', q.fetchLevel);
  for (const id of q.campaignIds ?? []) p.append('campaign_ids', id);
  if (q.page !== undefined || q.pageSize !== undefined) {
    p.set('page', String(q.page ?? 1));
    p.set('page_size', String(q.pageSize ?? 100));
  }
  if (q.sort) p.set('sort', `${q.sort.field},${q.sort.direction}`);
  return p;
}
