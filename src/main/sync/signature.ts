// How the engine recognises its own work on the service after an unknown outcome: the content a
// create or a push carries, normalised the way the service is known to echo it back.
import type { Campaign, CampaignCreate } from '../../shared/domain/campaign';
import type { PushEvent, PushMode, Task } from '../../shared/domain/push';

/** Display and video campaigns leave their HAS_NO_ITEMS_* state once items are added (spec 3.1). */
function surface(itemType: string | null | undefined): string {
  const t = itemType ?? 'HAS_NO_ITEMS';
  if (t.includes('VIDEO')) return 'video';
  if (t.includes('DISPLAY')) return 'display';
  return 'native';
}

const num = (v: number | null | undefined): number | null => (v === undefined || v === null ? null : Math.round(v * 10_000) / 10_000);
const str = (v: string | null | undefined): string | null => (v === undefined || v === null || v === '' ? null : v);

/**
 * The fields a person chose, as the service stores them: cpc is dropped for MAX_CONVERSIONS and
 * spending_limit for model NONE (spec 4.1), missing and null are the same.
 */
export function campaignSignature(c: CampaignCreate | Campaign): string {
  const bid = str(c.bid_strategy);
  const model = str(c.spending_limit_model);
  return JSON.stringify([
    c.name,
    str(c.branding_text),
    bid,
    bid === 'MAX_CONVERSIONS' ? null : num(c.cpc),
    model,
    model === 'NONE' ? null : num(c.spending_limit),
    num(c.daily_cap),
    str(c.marketing_objective),
    surface(c.campaign_item_type),
    str(c.campaign_group_id),
  ]);
}

/** How far the service's clock may be from ours when it stamps an immediate push. */
export const IMMEDIATE_SKEW_MS = 5 * 60_000;

/**
 * Whether a listed task is one that `ev` (sent to `appId` in `mode`) would have created. An
 * immediate push carries no time of its own, so it matches tasks executed since shortly before
 * the first send.
 */
export function taskMatches(task: Task, ev: PushEvent, appId: string, mode: PushMode, firstSentAt: number): boolean {
  if (task.tagId !== appId || task.taskType !== mode) return false;
  if ((task.title ?? '') !== (ev.title ?? '') || (task.url ?? '') !== (ev.url ?? '') || (task.performer ?? '') !== (ev.performer ?? '')) {
    return false;
  }
  if (mode === 'scheduled') return task.executionTime === ev.executionTime;
  return typeof task.executionTime !== 'number' || task.executionTime >= firstSentAt - IMMEDIATE_SKEW_MS;
}

/** Apps a push event targets, each once. */
export function targetApps(ev: PushEvent): string[] {
  return [...new Set((ev.target?.include?.apps ?? []).map(String))];
}
