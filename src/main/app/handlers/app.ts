// app.*: what the window needs to know of the app itself (version, how it is carried, where
// secrets are kept, the demo connection's state).
import type { CoreContext } from '../context';
import { demoState } from '../demo';
import type { HandlersOf } from '../handlers-of';

export function appHandlers(ctx: CoreContext): HandlersOf<'app'> {
  return {
    async 'app.info'() {
      return {
        version: ctx.info.version,
        transport: ctx.info.transport,
        secrets: { kind: ctx.secrets.kind, warning: ctx.secrets.warning ?? null },
        demo: demoState(ctx),
      };
    },
  };
}
