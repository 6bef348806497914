// Learning what an account may use from the outbox's outcomes (DECISIONS client 13): a create the
// service refused for a capability marks it refused for that account, with the service's words;
// a create that used it and was posted marks it enabled. The drafts of the account then show it
// before they are queued (draft-rules.ts, the campaign editor).
import { capabilitiesUsedBy, CAPABILITY_NOUNS, refusedCapability, type Capability, type Refusal } from '../../shared/domain/capabilities';
import type { EventHub } from '../events/event-hub';
import type { AccountRef, OutboxItem, Store } from '../store';

type Note = (
  profileId: string | null,
  accountId: string | null,
  level: 'info' | 'warning' | 'error',
  kind: string,
  message: string,
) => void;

export interface CapabilityLearning {
  /** The service refused `item`: remembered when it was refused for a capability. */
  refused(item: OutboxItem, refusal: Refusal): void;
  /** `item` was posted: every capability it used is enabled. */
  posted(item: OutboxItem): void;
}

export function createCapabilityLearning(store: Store, hub: EventHub, note: Note): CapabilityLearning {
  const refOf = (item: OutboxItem): AccountRef | undefined =>
    item.kind === 'create_campaign' && item.accountId && store.accounts.get({ profileId: item.profileId, accountId: item.accountId })
      ? { profileId: item.profileId, accountId: item.accountId }
      : undefined;
  const nameOf = (ref: AccountRef) => store.accounts.get(ref)?.name ?? ref.accountId;
  const changed = (ref: AccountRef) => hub.emit('data.changed', { ...ref, what: 'accounts' });

  return {
    refused(item, refusal) {
      const ref = refOf(item);
      if (!ref || item.kind !== 'create_campaign') return;
      const capability = refusedCapability(item.payload.body, refusal);
      if (!capability) return;
      store.capabilities.set(ref, { capability, state: 'refused', source: 'learned', message: refusal.message });
      changed(ref);
      note(
        ref.profileId,
        ref.accountId,
        'warning',
        'account.capability',
        `${nameOf(ref)} refused ${CAPABILITY_NOUNS[capability]}; its drafts now say so before they are queued.`,
      );
    },

    posted(item) {
      const ref = refOf(item);
      if (!ref || item.kind !== 'create_campaign') return;
      const known = store.capabilities.list(ref);
      const learned: Capability[] = [];
      for (const capability of capabilitiesUsedBy(item.payload.body)) {
        // Already known as enabled: nothing new (and the date of first knowledge is kept).
        if (known.some((k) => k.capability === capability && k.state === 'enabled')) continue;
        store.capabilities.set(ref, { capability, state: 'enabled', source: 'learned' });
        learned.push(capability);
      }
      if (learned.length === 0) return;
      changed(ref);
      note(
        ref.profileId,
        ref.accountId,
        'info',
        'account.capability',
        `${nameOf(ref)} is enabled for ${learned.map((c) => CAPABILITY_NOUNS[c]).join(' and ')}: the service posted one.`,
      );
    },
  };
}
