// One outbox item as a service call, and the look-up that finds it on the service after its
// answer was lost. Pure service work: no state changes here, the drainer decides what they mean.
import { MAX_PAGE_SIZE, type Campaign } from '../../shared/domain/campaign';
import type { Task } from '../../shared/domain/push';
import type { ServiceClient } from '../service';
import type { OutboxItem } from '../store';
import { campaignSignature, targetApps, taskMatches } from './signature';

export type SendResult =
  | { kind: 'create_campaign'; campaign: Campaign }
  | { kind: 'send_push'; ack: string }
  | { kind: 'update_task' | 'cancel_task'; ack: string }
  | { kind: 'set_sw_path' };

const PRIORITY = { priority: 'outbox' as const };

export async function performItem(client: ServiceClient, item: OutboxItem): Promise<SendResult> {
  switch (item.kind) {
    case 'create_campaign':
      return { kind: item.kind, campaign: await client.createCampaign(item.accountId ?? '', item.payload.body, PRIORITY) };
    case 'send_push':
      return { kind: item.kind, ack: await client.sendPush(item.payload.mode, item.payload.events, PRIORITY) };
    case 'update_task':
      return { kind: item.kind, ack: await client.updateTask(item.payload.taskId, item.payload.update, PRIORITY) };
    case 'cancel_task':
      return { kind: item.kind, ack: await client.deleteTask(item.payload.taskId, PRIORITY) };
    case 'set_sw_path':
      await client.setSwPath(item.payload, PRIORITY);
      return { kind: item.kind };
  }
}

/** Every campaign the account lists (RAP: a new campaign is recent, so it is listed). */
export async function listAllForMatch(client: ServiceClient, accountId: string): Promise<Campaign[]> {
  const out: Campaign[] = [];
  let seen = 0;
  for (let page = 1; page < 10_000; page++) {
    const p = await client.listCampaigns(accountId, { fetchLevel: 'RAP', page, pageSize: MAX_PAGE_SIZE }, PRIORITY);
    out.push(...p.campaigns);
    seen += p.campaigns.length;
    if (p.campaigns.length === 0 || seen >= p.total) break;
  }
  return out;
}

const idOrder = (a: string, b: string) => (/^\d+$/.test(a) && /^\d+$/.test(b) ? Number(a) - Number(b) : a.localeCompare(b));

/**
 * The campaign a create made, if the service lists one with its content that is neither in the
 * baseline (it looked the same before we sent) nor claimed by another outbox item.
 */
export function pickCampaign(listed: readonly Campaign[], body: Parameters<typeof campaignSignature>[0], excluded: ReadonlySet<string>): Campaign | undefined {
  const sig = campaignSignature(body);
  return listed
    .filter((c) => !excluded.has(c.id) && campaignSignature(c) === sig)
    .sort((a, b) => idOrder(a.id, b.id))[0];
}

/**
 * The tasks a push made: one per event and target app, looked up with `listTasks` (the service,
 * or the cache just refreshed). Returns the task ids found and how many were expected.
 */
export async function findPushTasks(
  listTasks: (appId: string) => Promise<Task[]>,
  item: Extract<OutboxItem, { kind: 'send_push' }>,
  firstSentAt: number,
  excluded: ReadonlySet<string>,
): Promise<{ found: string[]; expected: number }> {
  const byApp = new Map<string, Task[]>();
  const found: string[] = [];
  let expected = 0;
  const taken = new Set(excluded);
  for (const ev of item.payload.events) {
    for (const appId of targetApps(ev)) {
      expected++;
      let tasks = byApp.get(appId);
      if (!tasks) byApp.set(appId, (tasks = await listTasks(appId)));
      const hit = tasks
        .filter((t) => !taken.has(t.taskId) && taskMatches(t, ev, appId, item.payload.mode, firstSentAt))
        .sort((a, b) => idOrder(a.taskId, b.taskId))[0];
      if (hit) {
        taken.add(hit.taskId);
        found.push(hit.taskId);
      }
    }
  }
  return { found, expected };
}
