// images.*: the composer's images checked before a push is queued (reachable, an image, the size
// the service wants), without letting a typed address reach this computer's private network.
import { checkImage, IMAGE_CHECK_DEFAULTS } from '../../images/image-check';
import type { CoreContext } from '../context';
import type { HandlersOf } from '../handlers-of';

export function imagesHandlers(ctx: CoreContext): HandlersOf<'images'> {
  const { store } = ctx;
  return {
    async 'images.check'({ url, role }) {
      // The connections' own addresses were typed by the person: their image hosts may be local.
      const trustedOrigins = new Set(store.profiles.list().flatMap((p) => [p.baseUrl, p.authUrl, p.pushUrl].map((a) => new URL(a).origin)));
      return checkImage(url, role, { ...IMAGE_CHECK_DEFAULTS, trustedOrigins });
    },
  };
}
