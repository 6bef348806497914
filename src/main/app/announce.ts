// The events a handler sends after it changed drafts or the outbox: the window reloads what they
// name. One place, so every change of the same kind is announced the same way.
import type { OutboxItem } from '../store';
import type { CoreContext } from './context';

export const announceDrafts = (ctx: CoreContext, profileId: string, accountId: string | null): void =>
  ctx.hub.emit('data.changed', { profileId, accountId, what: 'drafts' });

export const announceOutbox = (ctx: CoreContext, item: Pick<OutboxItem, 'profileId' | 'accountId'>): void =>
  ctx.hub.emit('outbox.changed', { profileId: item.profileId, accountId: item.accountId ?? '' });
