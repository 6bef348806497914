// The shapes the sandbox answers with (spec 2.1 and 2.6) and how fixtures and requests become them.
// Field order is fixed so that responses are stable and diffable.
import type { CampaignCreate } from '../shared/domain/campaign';
import { DEFAULT_SPENDING_LIMIT_MODEL } from './create-fill';
import type { CampaignFixture, TaskFixture } from './fixtures';

/**
 * Ids the sandbox hands out (campaign id, taskId, tagId) are bigints: exact at any size (the
 * id_range variant hands out ids beyond 2^53), written as bare JSON numbers where the interface
 * shows a number (answers.ts, json-writer.ts).
 */
export type RecordId = bigint;

export interface CampaignRecord {
  id: RecordId;
  advertiser_id: string;
  name: string;
  branding_text: string | null;
  tracking_code: string | null;
  pricing_model: string | null;
  cpc: number | null;
  safety_rating: string | null;
  daily_cap: number | null;
  daily_ad_delivery_model: string | null;
  spending_limit: number | null;
  spending_limit_model: string | null;
  bid_strategy: string | null;
  marketing_objective: string | null;
  campaign_group_id: string | null;
  start_date: string | null;
  campaign_item_type: string | null;
  status: string;
  spent: number;
  created_at: string;
}

export interface StoredCampaign {
  accountId: string;
  createdAtMs: number;
  record: CampaignRecord;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export function campaignFromFixture(f: CampaignFixture): StoredCampaign {
  return {
    accountId: f.account_id,
    createdAtMs: Date.parse(f.created_at),
    record: {
      id: BigInt(f.id),
      advertiser_id: f.account_id,
      name: f.name,
      branding_text: f.branding_text ?? null,
      tracking_code: f.tracking_code ?? '',
      pricing_model: f.pricing_model ?? 'CPC',
      cpc: f.cpc ?? null,
      safety_rating: f.safety_rating ?? null,
      daily_cap: f.daily_cap ?? null,
      daily_ad_delivery_model: f.daily_ad_delivery_model ?? 'STRICT',
      spending_limit: f.spending_limit ?? null,
      spending_limit_model: f.spending_limit_model ?? null,
      bid_strategy: f.bid_strategy ?? null,
      marketing_objective: f.marketing_objective ?? null,
      campaign_group_id: f.campaign_group_id ?? null,
      start_date: f.start_date ?? f.created_at,
      campaign_item_type: f.campaign_item_type ?? 'HAS_NO_ITEMS',
      status: f.status ?? 'APPROVED',
      spent: f.spent ?? 0,
      created_at: f.created_at,
    },
  };
}

/**
 * A campaign created through the API (rules already checked by campaignCreateProblems). With
 * `fill` (the fill_on_create variant) a campaign outside a campaign group that was sent no
 * spending_limit_model gets MONTHLY, as a service with a default model would answer.
 */
export function campaignFromCreate(
  accountId: string,
  id: RecordId,
  body: CampaignCreate,
  now: number,
  opts: { fill?: boolean } = {},
): StoredCampaign {
  const nowIso = iso(now);
  const filledModel = opts.fill && body.campaign_group_id === undefined ? DEFAULT_SPENDING_LIMIT_MODEL : null;
  return {
    accountId,
    createdAtMs: now,
    record: {
      id,
      advertiser_id: accountId,
      name: body.name,
      branding_text: body.branding_text ?? null,
      tracking_code: body.tracking_code ?? '',
      pricing_model: 'CPC',
      cpc: body.bid_strategy === 'MAX_CONVERSIONS' ? null : (body.cpc ?? null),
      safety_rating: null,
      daily_cap: body.daily_cap ?? null,
      daily_ad_delivery_model: body.daily_ad_delivery_model ?? 'STRICT',
      spending_limit: body.spending_limit_model === 'NONE' ? null : (body.spending_limit ?? null),
      spending_limit_model: body.spending_limit_model ?? filledModel,
      bid_strategy: body.bid_strategy,
      marketing_objective: body.marketing_objective,
      campaign_group_id: body.campaign_group_id ?? null,
      start_date: body.start_date ?? nowIso,
      campaign_item_type: body.campaign_item_type ?? 'HAS_NO_ITEMS',
      status: 'PENDING_APPROVAL',
      spent: 0,
      created_at: nowIso,
    },
  };
}

export interface TaskRecord {
  taskId: RecordId;
  /** The app id (spec 2.6: "Application ID of the task"), as a number. */
  tagId: RecordId;
  taskType: 'immediate' | 'scheduled';
  taskStatus: string;
  taskUpdateTime: number;
  taskUpdateTimeFormatted: string;
  executionTime: number;
  executionTimeFormatted: string;
  method: string;
  videoId: string | null;
  forcedItemPolicy: string | null;
  userTimeZone: number;
  title: string;
  url: string;
  thumbnailUrl: string | null;
  iconUrl: string | null;
  performer: string;
  itemDescription?: string;
}

export interface StoredTask {
  appId: string;
  record: TaskRecord;
  /** Kept for the record of what was sent; the spec's task record does not show it. */
  target?: unknown;
  /** When a send created it (service clock); fixture tasks have none (listed from the start). */
  createdAtMs?: number;
}

export function taskFromFixture(t: TaskFixture, worldStart: number): StoredTask {
  const finished = t.taskStatus === 'completed' || t.taskStatus === 'failed';
  const updated = t.taskUpdateTime ?? (finished ? t.executionTime : Math.min(worldStart, t.executionTime));
  const record: TaskRecord = {
    taskId: BigInt(t.taskId),
    tagId: BigInt(t.tagId),
    taskType: t.taskType,
    taskStatus: t.taskStatus,
    taskUpdateTime: updated,
    taskUpdateTimeFormatted: iso(updated),
    executionTime: t.executionTime,
    executionTimeFormatted: iso(t.executionTime),
    method: t.method ?? 'PUSH',
    videoId: t.videoId ?? null,
    forcedItemPolicy: t.forcedItemPolicy ?? null,
    userTimeZone: t.userTimeZone ?? 0,
    title: t.title,
    url: t.url,
    thumbnailUrl: t.thumbnailUrl ?? null,
    iconUrl: t.iconUrl ?? null,
    performer: t.performer,
  };
  if (t.itemDescription !== undefined) record.itemDescription = t.itemDescription;
  return { appId: String(t.tagId), record };
}

/** Spec 2.6 / DECISIONS sandbox 9: image addresses are rewritten to the image CDN. */
export function cdnUrl(cdnBase: string, src: string, width: 480 | 192): string {
  return `${cdnBase}/?src=${encodeURIComponent(src)}&w=${width}`;
}

export function setTaskUpdateTime(r: TaskRecord, ms: number): void {
  r.taskUpdateTime = ms;
  r.taskUpdateTimeFormatted = iso(ms);
}

export function setExecutionTime(r: TaskRecord, ms: number): void {
  r.executionTime = ms;
  r.executionTimeFormatted = iso(ms);
}
