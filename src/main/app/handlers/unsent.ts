// unsent.list: what the removal dialogs show before an account or a connection is removed, so
// the person sees every unsent change and can export it first (src/main/app/unsent.ts).
import { accountNotAdded, connectionGone } from '../../../shared/errors';
import type { DeskHandlers } from '../../../shared/ipc/contract';
import type { CoreContext } from '../context';
import { listUnsent } from '../unsent';

export function unsentHandlers(ctx: CoreContext): Pick<DeskHandlers, 'unsent.list'> {
  return {
    async 'unsent.list'({ profileId, accountId }) {
      if (!ctx.store.profiles.get(profileId)) throw connectionGone();
      if (accountId !== undefined && !ctx.store.accounts.get({ profileId, accountId })) {
        throw accountNotAdded(accountId);
      }
      return { items: listUnsent(ctx.store, { profileId, ...(accountId === undefined ? {} : { accountId }) }) };
    },
  };
}
