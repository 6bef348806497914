// apps.*: the applications of a connection come from the cache (fetched once when none are
// cached); setting a service worker path is one outbox item, checked before it is queued.
import { DeskError } from '../../../shared/errors';
import { swPathProblems } from '../../../shared/domain/push';
import type { CoreContext } from '../context';
import type { HandlersOf } from '../handlers-of';
import { requireProfile } from '../lookups';
import { appDto, outboxDto } from '../dto';
import { enqueueChange } from '../enqueue-change';
import { asDeskError } from '../errors';

/** Why apps.list has none to show, as the error the window shows in their place. */
function appsUnknown(failure: unknown): unknown {
  const e = asDeskError(failure);
  if (!(e instanceof DeskError))
    return new DeskError('internal', 'The applications of this connection could not be fetched; see the activity log.');
  if (e.code === 'offline' || e.code === 'unauthorized' || e.code === 'cancelled') return e;
  return new DeskError(e.code, `The applications of this connection could not be fetched: ${e.message}`, e.details);
}

export function appsHandlers(ctx: CoreContext): HandlersOf<'apps'> {
  const { store } = ctx;
  return {
    async 'apps.list'({ profileId }) {
      requireProfile(ctx, profileId);
      // None cached (a connection just added, or its first fetch failed): fetched once, not at every look.
      const { failure } = await ctx.refresher.apps.appsWanted(profileId);
      if (failure !== null) throw appsUnknown(failure);
      return store.apps.list(profileId).map(appDto);
    },

    async 'apps.setSwPath'({ profileId, accountId, appId, serviceWorkerPath, performer }) {
      const payload = { containerId: appId, serviceWorkerPath, performer };
      const problems = swPathProblems(payload);
      if (problems.length > 0) throw new DeskError('validation', problems.map((p) => p.message).join('; '), { problems });
      return outboxDto(enqueueChange(ctx, { profileId, accountId, kind: 'set_sw_path', payload }));
    },
  };
}
