// What a sent item changes in the caches, so the person sees the result without a full refresh.
// Push answers carry no meaning (DECISIONS client 4): the task lists are fetched again instead.
import type { OutboxItem, Store } from '../store';
import type { EventHub } from '../events/event-hub';
import type { Refresher } from './refresh';
import type { SendResult } from './outbox-settle';
import { targetApps } from './signature';

export function createAfterSent(store: Store, hub: EventHub, refresher: Refresher) {
  const refreshTasksOf = async (profileId: string, appIds: readonly string[]) => {
    // The apps first when some are not known yet (their tasks can only be cached under them).
    if (appIds.some((id) => !store.apps.get(profileId, id))) await refresher.apps.refreshApps(profileId);
    // At the outbox's priority, not in the background: the item counts as sending until this read
    // has told which tasks are its own.
    for (const appId of appIds) {
      if (store.apps.get(profileId, appId)) await refresher.apps.refreshTasks(profileId, appId, 'outbox').catch(() => undefined);
    }
  };

  return async (item: OutboxItem, result: SendResult): Promise<Record<string, unknown>> => {
    switch (result.kind) {
      case 'create_campaign': {
        // Posted without a record: nothing to cache until a look-up or a refresh lists it.
        if (result.campaign === null) return {};
        const ref = { profileId: item.profileId, accountId: item.accountId ?? '' };
        const account = store.accounts.get(ref);
        if (account) {
          await store.campaigns.upsert(ref, result.campaign);
          hub.emit('data.changed', { ...ref, what: 'campaigns' });
          const network = account.networkId ? store.accounts.get({ profileId: item.profileId, accountId: account.networkId }) : undefined;
          if (network) {
            await store.campaigns.upsert(network, { ...result.campaign, advertiser_name: account.name ?? account.accountId });
            hub.emit('data.changed', { profileId: network.profileId, accountId: network.accountId, what: 'campaigns' });
          }
        }
        return { campaignId: result.campaign.id };
      }
      case 'send_push':
        if (item.kind === 'send_push') await refreshTasksOf(item.profileId, [...new Set(item.payload.events.flatMap(targetApps))]);
        return {};
      case 'update_task':
      case 'cancel_task':
        if (item.kind === 'update_task' || item.kind === 'cancel_task') await refreshTasksOf(item.profileId, [item.payload.appId]);
        return {};
      case 'set_sw_path':
        if (item.kind === 'set_sw_path' && store.apps.get(item.profileId, item.payload.containerId)) {
          store.apps.setSwPath(item.profileId, item.payload.containerId, item.payload.serviceWorkerPath);
          hub.emit('data.changed', { profileId: item.profileId, accountId: null, what: 'apps' });
        }
        return {};
    }
  };
}
