// Queues one change for the service: the account must be added, the change is logged and the
// window and the drainer are told. Every handler that turns a person's action into an outbox item
// without a draft (sw-path, task update or cancel) goes through here.
import { accountNotAdded } from '../../shared/errors';
import type { EnqueueInput, OutboxItem } from '../store';
import type { CoreContext } from './context';
import { outboxDto } from './dto';

export function enqueueChange(ctx: CoreContext, input: EnqueueInput): OutboxItem {
  const { store, hub, drainer } = ctx;
  if (!store.accounts.get({ profileId: input.profileId, accountId: input.accountId ?? '' })) {
    throw accountNotAdded(input.accountId ?? '');
  }
  const item = store.outbox.enqueue(input);
  ctx.log(item.profileId, item.accountId, 'info', 'outbox.queued', `${outboxDto(item).summary} queued.`);
  hub.emit('outbox.changed', { profileId: item.profileId, accountId: item.accountId ?? '' });
  drainer.kick();
  return item;
}
