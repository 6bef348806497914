// accounts.capabilities and accounts.setCapability: what an account may use, as learned from the
// service (sync/capability-learning.ts) or said by the person in the account's settings.
import { CAPABILITY_NOUNS } from '../../../shared/domain/capabilities';
import { accountNotAdded } from '../../../shared/errors';
import type { DeskHandlers } from '../../../shared/ipc/contract';
import type { AccountRef } from '../../store';
import type { CoreContext } from '../context';

type CapabilityHandlers = Pick<DeskHandlers, 'accounts.capabilities' | 'accounts.setCapability'>;

export function capabilityHandlers(ctx: CoreContext): CapabilityHandlers {
  const { store, hub } = ctx;
  const view = (ref: AccountRef) => {
    const account = store.accounts.get(ref);
    if (!account) throw accountNotAdded(ref.accountId);
    return { accountName: account.name ?? account.accountId, capabilities: store.capabilities.list(ref) };
  };
  return {
    async 'accounts.capabilities'({ profileId, accountId }) {
      return view({ profileId, accountId });
    },
    async 'accounts.setCapability'({ profileId, accountId, capability, state }) {
      const ref = { profileId, accountId };
      const name = view(ref).accountName;
      store.capabilities.set(ref, { capability, state, source: 'person' });
      hub.emit('data.changed', { ...ref, what: 'accounts' });
      const said = state === 'unknown' ? 'not known' : state === 'enabled' ? 'enabled' : 'not enabled';
      ctx.log(profileId, accountId, 'info', 'account.capability', `You said ${name} is ${said} for ${CAPABILITY_NOUNS[capability]}.`);
      return view(ref);
    },
  };
}
