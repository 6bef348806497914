// views.*: the window's saved views (open account, tab, each account's sort, filter and columns).
import type { CoreContext } from '../context';
import type { HandlersOf } from '../handlers-of';

export function viewsHandlers(ctx: CoreContext): HandlersOf<'views'> {
  const { store } = ctx;
  return {
    async 'views.load'() {
      return store.settings.get('views');
    },

    async 'views.save'(view) {
      store.settings.set('views', view);
      return { ok: true as const };
    },
  };
}
