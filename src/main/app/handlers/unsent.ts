// unsent.list: what the removal dialogs show before an account or a connection is removed, so
// the person sees every unsent change and can export it first (src/main/app/unsent.ts).
import type { CoreContext } from '../context';
import type { HandlersOf } from '../handlers-of';
import { requireAccount, requireProfile } from '../lookups';
import { listUnsent } from '../unsent';

export function unsentHandlers(ctx: CoreContext): HandlersOf<'unsent'> {
  return {
    async 'unsent.list'({ profileId, accountId }) {
      requireProfile(ctx, profileId);
      if (accountId !== undefined) requireAccount(ctx, { profileId, accountId });
      return { items: listUnsent(ctx.store, { profileId, ...(accountId === undefined ? {} : { accountId }) }) };
    },
  };
}
