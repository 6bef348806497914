// Store records -> the contract's shapes. Only fields the contract names leave main; nothing here
// ever touches a secret (profiles say whether one is stored, never what it is).
import { campaignCreateSchema, type Campaign } from '../../shared/domain/campaign';
import type * as C from '../../shared/ipc/contract';
import { pushDraftPayloadSchema } from '../../shared/ipc/contract';
import type * as S from '../store';
import type { ConnectionView } from '../connections/connections';
import { describeItem } from '../sync/outbox-settle';
import { postedAs } from '../sync/posted';
import { BLOCKED_WORDS_FIELD, SERVICE_WORDS_FIELD } from '../store/drafts-repo';
import { BLOCK_CODES, FIX_OF_BLOCK, type BlockCode } from '../sync/recheck';
import { DEMO_PROFILE_ID } from './demo';

export function profileDto(p: S.Profile, view: ConnectionView, hasSecret: boolean): C.Profile {
  return {
    id: p.id,
    name: p.name,
    kind: p.id === DEMO_PROFILE_ID ? 'sandbox' : 'service',
    baseUrl: p.baseUrl,
    authUrl: p.authUrl,
    pushUrl: p.pushUrl,
    clientId: p.clientId,
    flow: p.flow,
    redirectUri: p.redirectUri,
    hasSecret,
    signIn: view.signIn,
    connection: view.connection,
  };
}

export function accountDto(a: S.Account, campaignCount: number, queued: number): C.Account {
  return {
    profileId: a.profileId,
    accountId: a.accountId,
    name: a.name ?? a.accountId,
    type: a.type,
    networkId: a.networkId,
    lastSyncedAt: a.lastSyncedAt,
    campaignCount,
    queued,
  };
}

const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function campaignRowDto(accountId: string, c: Campaign): C.CampaignRow {
  return {
    id: c.id,
    account_id: accountId,
    advertiser_id: strOrNull(c.advertiser_id),
    advertiser_name: strOrNull(c.advertiser_name),
    name: c.name,
    status: strOrNull(c.status),
    spent: numOrNull(c.spent),
    cpc: numOrNull(c.cpc),
    daily_cap: numOrNull(c.daily_cap),
    spending_limit: numOrNull(c.spending_limit),
    spending_limit_model: strOrNull(c.spending_limit_model),
    bid_strategy: strOrNull(c.bid_strategy),
    marketing_objective: strOrNull(c.marketing_objective),
    pricing_model: strOrNull(c.pricing_model),
    start_date: strOrNull(c.start_date),
    campaign_item_type: strOrNull(c.campaign_item_type),
    branding_text: strOrNull(c.branding_text),
    campaign_group_id: strOrNull(c.campaign_group_id),
  };
}

/**
 * A change as Drafts shows it: the draft with its one unsent item's state (none: editable). The
 * payload as the contract types it; fields that do not fit are left out, not fatal. The service's
 * kept words travel apart from the rules' problems.
 */
export function draftDto(d: S.Draft, item?: S.OutboxItem): C.Draft {
  const live = item && item.state !== 'sent' ? outboxDto(item) : undefined;
  // Edited after it was refused: an editable draft again, whose next Queue replaces the old item.
  const status: C.Draft['status'] = !live || d.state === 'editing' ? 'draft' : (live.state as Exclude<C.Draft['status'], 'draft'>);
  const words = d.problems.find((p) => p.field === SERVICE_WORDS_FIELD)?.message;
  const blocked = d.problems.find((p) => p.field === BLOCKED_WORDS_FIELD)?.message;
  const base = {
    id: d.id,
    profileId: d.profileId,
    accountId: d.accountId ?? '',
    problems: d.problems.filter((p) => p.field !== SERVICE_WORDS_FIELD && p.field !== BLOCKED_WORDS_FIELD),
    updatedAt: d.updatedAt,
    status,
    ...(live
      ? { item: { id: live.id, lastError: live.lastError, fix: live.fix, attempts: live.attempts, updatedAt: live.updatedAt } }
      : {}),
    ...(words ? { serviceWords: words } : {}),
    ...(blocked ? { blockedWords: blocked } : {}),
  };
  if (d.kind === 'campaign') {
    const parsed = campaignCreateSchema.partial().safeParse(d.payload);
    return { kind: 'campaign', ...base, payload: parsed.success ? parsed.data : {} };
  }
  const parsed = pushDraftPayloadSchema.partial().safeParse(d.payload);
  return { kind: 'push', ...base, payload: parsed.success ? parsed.data : {} };
}

const isBlockCode = (c: string): c is BlockCode => (BLOCK_CODES as readonly string[]).includes(c);

/** When the item is to go out, if it carries a time: shown with the item, so the outbox and the composer say the same. */
function scheduleOf(item: S.OutboxItem): C.OutboxItem['schedule'] {
  if (item.kind === 'send_push' && item.payload.mode === 'scheduled') {
    const ev = item.payload.events[0];
    return ev?.executionTime === undefined ? undefined : { executionTime: ev.executionTime, userTimeZone: ev.userTimeZone ?? 0 };
  }
  if (item.kind === 'update_task' && item.payload.update.executionTime !== undefined) {
    return { executionTime: item.payload.update.executionTime, userTimeZone: item.payload.update.userTimeZone ?? 0 };
  }
  return undefined;
}

export function outboxDto(item: S.OutboxItem): C.OutboxItem {
  const kind: C.OutboxItem['kind'] = item.kind === 'send_push' && item.payload.mode === 'scheduled' ? 'schedule_push' : item.kind;
  const code = item.lastError?.code ?? '';
  let fix: string | null = null;
  if (item.state === 'blocked') fix = isBlockCode(code) ? FIX_OF_BLOCK[code] : FIX_OF_BLOCK.RULES;
  else if (item.state === 'failed')
    fix =
      code === 'SERVER'
        ? 'Use Retry to send it again'
        : item.draftId === null
          ? 'Retry it, or discard it and make the change again'
          : 'Fix it in its draft and queue it again, or discard it';
  const posted = item.state === 'sent' ? postedAs(item.result) : undefined;
  const schedule = scheduleOf(item);
  return {
    id: String(item.seq),
    profileId: item.profileId,
    accountId: item.accountId ?? '',
    kind,
    summary: describeItem(item),
    state: item.state,
    attempts: item.attempts,
    lastError: item.state === 'sent' ? null : item.lastError,
    fix,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    nextAttemptAt: item.state === 'queued' ? item.nextAttemptAt : null,
    ...(item.draftId === null ? {} : { draftId: item.draftId }),
    ...(posted ? { posted } : {}),
    ...(schedule ? { schedule } : {}),
  };
}

export function appDto(a: S.App): C.App {
  return { profileId: a.profileId, appId: a.appId, publisher: a.publisher, swPath: a.swPath };
}

const LEVELS = ['info', 'warning', 'error'] as const;

export function activityDto(e: S.ActivityEntry): C.Activity {
  const level = (e.details as { level?: unknown } | null)?.level;
  return {
    id: e.id,
    at: e.at,
    profileId: e.profileId,
    accountId: e.accountId,
    level: LEVELS.find((l) => l === level) ?? 'info',
    message: e.message,
  };
}
