// activity.*: the activity log, newest first, of one connection (with the app-wide entries) or of all.
import type { CoreContext } from '../context';
import { activityDto } from '../dto';
import type { HandlersOf } from '../handlers-of';

export function activityHandlers(ctx: CoreContext): HandlersOf<'activity'> {
  return {
    async 'activity.list'({ profileId, limit }) {
      return ctx.store.activity.list({ ...(profileId === undefined ? {} : { profileId, withAppWide: true }), limit }).map(activityDto);
    },
  };
}
