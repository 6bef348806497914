// What the handlers look up before they act, and the one way each says it is missing: a call can
// name a connection, an account or a change that was removed meanwhile (in another window, or by
// the engine a moment ago).
import { accountNotAdded, connectionGone, DeskError } from '../../shared/errors';
import type { Account, AccountRef, OutboxItem, Profile } from '../store';
import type { CoreContext } from './context';
import { ITEM_GONE_WORDS } from '../../shared/domain/outbox';

export function requireProfile(ctx: CoreContext, profileId: string): Profile {
  const p = ctx.store.profiles.get(profileId);
  if (!p) throw connectionGone();
  return p;
}

export function requireAccount(ctx: CoreContext, ref: AccountRef): Account {
  const a = ctx.store.accounts.get(ref);
  if (!a) throw accountNotAdded(ref.accountId);
  return a;
}

/** An outbox item by the id the window knows it by (its sequence number, as text). */
export function requireOutboxItem(ctx: CoreContext, id: string): OutboxItem {
  const item = /^\d{1,15}$/.test(id) ? ctx.store.outbox.get(Number(id)) : undefined;
  if (!item) throw new DeskError('not_found', ITEM_GONE_WORDS);
  return item;
}
