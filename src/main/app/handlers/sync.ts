// sync.*: a refresh the person asks for, and cancelling it. The refresh itself runs in the
// background (sync/refresh.ts); its progress arrives as sync.progress events.
import type { CoreContext } from '../context';
import { requireAccount } from '../lookups';
import type { HandlersOf } from '../handlers-of';

export function syncHandlers(ctx: CoreContext): HandlersOf<'sync'> {
  const { refresher } = ctx;
  return {
    async 'sync.refresh'(ref) {
      requireAccount(ctx, ref);
      void refresher.refreshAccount(ref);
      // A manual refresh brings the connection's applications and tasks up to date too.
      void refresher.apps.refreshApps(ref.profileId);
      return { ok: true };
    },

    async 'sync.cancel'(ref) {
      refresher.cancel(ref);
      return { ok: true };
    },
  };
}
