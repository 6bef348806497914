// The variants that make a campaign listing something other than a snapshot (DECISIONS client 15):
// other users change the account between two reads (churn), spends move the default order
// (moving_order), and rows are filtered after paging (short_pages, in campaign-routes.ts). Every
// per-request choice is drawn from core.choices, so a seed replays the same listing.
import type { CampaignCreate } from '../shared/domain/campaign';
import type { SandboxCore } from './core';
import { campaignFromCreate, type RecordId } from './records';
import type { AccountRec } from './state';
import { isListed } from './campaign-query';

/** Listing answers above this many rows are "large": slow_start holds their headers back. */
export const LARGE_LISTING_ROWS = 100;

/** A campaign another user of the account creates (churn). */
function churnCampaign(id: RecordId): CampaignCreate {
  return {
    name: `Created meanwhile ${id}`,
    branding_text: 'Churn',
    cpc: 0.3,
    spending_limit: 100,
    spending_limit_model: 'MONTHLY',
    bid_strategy: 'FIXED',
    marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
  } as CampaignCreate;
}

/**
 * Variant churn: before a listing of `account` is answered, another user may have created a
 * campaign in it or deleted one of its listed campaigns (one or the other, never both at once).
 */
export function applyChurn(core: SandboxCore, account: AccountRec, now: number): void {
  if (!core.choices.chance(core.variants.churn ?? 0)) return;
  const world = core.world;
  const list = world.campaigns.get(account.id) ?? [];
  const listed = list.filter((c) => isListed(c, 'RAP', now));
  if (core.choices.chance(0.5) || listed.length === 0) {
    const id = world.allocateCampaignId(core.variants, core.choices);
    world.pushCampaign(campaignFromCreate(account.id, id, churnCampaign(id), now));
    return;
  }
  const gone = core.choices.pick(listed);
  list.splice(list.indexOf(gone), 1);
  world.deletedByOthers.push(gone);
}

/** Variant moving_order: a few campaigns of the owners spend more before this listing is answered. */
export function moveSpends(core: SandboxCore, owners: readonly AccountRec[]): void {
  if (!core.variants.moving_order) return;
  const all = owners.flatMap((o) => core.world.campaigns.get(o.id) ?? []);
  if (all.length === 0) return;
  const moves = core.choices.int(1, Math.max(1, Math.ceil(all.length / 10)));
  for (let i = 0; i < moves; i++) {
    const c = core.choices.pick(all);
    c.record.spent = Math.round((c.record.spent + core.choices.int(1, 1000)) * 100) / 100;
  }
}
