// Every channel's handler, one file per IPC namespace (`<namespace>.ts`, each typed HandlersOf its
// namespace, so a channel can only live in the file named after it).
import type { DeskHandlers } from '../../../shared/ipc/contract';
import type { CoreContext } from '../context';
import { accountsHandlers } from './accounts';
import { activityHandlers } from './activity';
import { appHandlers } from './app';
import { appsHandlers } from './apps';
import { campaignsHandlers } from './campaigns';
import { draftsHandlers } from './drafts';
import { imagesHandlers } from './images';
import { outboxHandlers } from './outbox';
import { profilesHandlers } from './profiles';
import { pushHandlers } from './push';
import { ratelimitHandlers } from './ratelimit';
import { retentionHandlers } from './retention';
import { syncHandlers } from './sync';
import { tasksHandlers } from './tasks';
import { unsentHandlers } from './unsent';
import { viewsHandlers } from './views';

export function deskHandlers(ctx: CoreContext): DeskHandlers {
  return {
    ...accountsHandlers(ctx),
    ...activityHandlers(ctx),
    ...appHandlers(ctx),
    ...appsHandlers(ctx),
    ...campaignsHandlers(ctx),
    ...draftsHandlers(ctx),
    ...imagesHandlers(ctx),
    ...outboxHandlers(ctx),
    ...profilesHandlers(ctx),
    ...pushHandlers(ctx),
    ...ratelimitHandlers(ctx),
    ...retentionHandlers(ctx),
    ...syncHandlers(ctx),
    ...tasksHandlers(ctx),
    ...unsentHandlers(ctx),
    ...viewsHandlers(ctx),
  };
}
