// accounts.*: accounts are added by id and verified with one small list call; everything a
// screen shows afterwards is read from the cache, so switching accounts never waits for the
// network. What an account may use is learned from the service (sync/capability-learning.ts) or
// said by the person in the account's settings.
import { CAPABILITY_NOUNS } from '../../../shared/domain/capabilities';
import type { Campaign } from '../../../shared/domain/campaign';
import { ON_THE_WAY_STATES } from '../../../shared/domain/outbox';
import { countUnsent, unsentPhrase } from '../../../shared/domain/unsent';
import { withoutDraftHistory } from '../../../shared/domain/draft-history';
import { DeskError } from '../../../shared/errors';
import { isServiceError } from '../../service';
import type { Account, AccountRef } from '../../store';
import type { CoreContext } from '../context';
import { serviceName } from '../account-names';
import { rememberDemoRemoval } from '../demo';
import { accountDto } from '../dto';
import { requireAccount, requireProfile } from '../lookups';
import { guardRemoval } from '../unsent';
import type { HandlersOf } from '../handlers-of';

/** How many changes of each account are on their way, keyed profile/account: one read for a whole list. */
function onTheWayCounts(ctx: CoreContext, lane: { profileId?: string; accountId?: string }): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of ctx.store.outbox.list({ ...lane, states: ON_THE_WAY_STATES })) {
    const key = `${item.profileId}/${item.accountId ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export function accountView(
  ctx: CoreContext,
  a: Account,
  campaignsOf: (ref: AccountRef) => number,
  onTheWay = onTheWayCounts(ctx, { profileId: a.profileId, accountId: a.accountId }),
) {
  const queued = onTheWay.get(`${a.profileId}/${a.accountId}`) ?? 0;
  const noAccess = ctx.connections.access.get(a.profileId, a.accountId);
  return { ...accountDto(a, campaignsOf(a), queued), ...(noAccess ? { noAccess } : {}) };
}

/** Verifies that the profile's credentials reach the account and learns whether it is a network. */
async function verify(ctx: CoreContext, ref: AccountRef): Promise<{ type: 'ADVERTISER' | 'NETWORK'; sample: readonly Campaign[] }> {
  const client = ctx.connections.client(ref.profileId);
  try {
    const page = await client.listCampaigns(ref.accountId, { fetchLevel: 'RAP', page: 1, pageSize: 1 }, { priority: 'interactive' });
    ctx.connections.noteSuccess(ref.profileId);
    const first = page.campaigns[0];
    const network =
      first !== undefined &&
      (first.advertiser_name !== undefined || (first.advertiser_id !== undefined && first.advertiser_id !== ref.accountId));
    return { type: network ? 'NETWORK' : 'ADVERTISER', sample: page.campaigns };
  } catch (e) {
    ctx.connections.noteFailure(ref.profileId, e, { read: true });
    if (isServiceError(e) && e.kind === 'forbidden') {
      throw new DeskError(
        'forbidden',
        `These credentials cannot reach account ${ref.accountId}. Check the account id, or ask the account manager to grant this client access.`,
      );
    }
    if (isServiceError(e) && (e.kind === 'network' || e.kind === 'outcome_unknown' || e.kind === 'timeout')) {
      throw new DeskError('offline', `The service could not be reached to check account ${ref.accountId}. Try again when you are online.`);
    }
    throw e;
  }
}

export function accountsHandlers(ctx: CoreContext): HandlersOf<'accounts'> {
  const { store, hub, refresher } = ctx;
  const capabilities = (ref: AccountRef) => {
    const account = requireAccount(ctx, ref);
    return { accountName: account.name ?? account.accountId, capabilities: store.capabilities.list(ref) };
  };
  return {
    async 'accounts.list'({ profileId }) {
      // Counted off this thread first; the accounts are read after it, so each is still there.
      const campaignsOf = await store.campaigns.countsByAccount();
      const accounts = profileId === undefined ? store.accounts.listAll() : store.accounts.list(profileId);
      // Listed on every refresh event (up to once a second): the outbox is read once, not per account.
      const onTheWay = onTheWayCounts(ctx, profileId === undefined ? {} : { profileId });
      return accounts.map((a) => accountView(ctx, a, campaignsOf, onTheWay));
    },

    async 'accounts.add'({ profileId, accountId, name }) {
      requireProfile(ctx, profileId);
      const ref = { profileId, accountId };
      if (store.accounts.get(ref)) throw new DeskError('conflict', `Account ${accountId} is already added to this connection.`);
      if (ctx.connections.isWorkingOffline(profileId)) {
        throw new DeskError('offline', 'You chose to work offline. Go online to add an account: it has to be checked with the service.');
      }
      const found = await verify(ctx, ref);
      // The person's name first; else the one the service gives it (account-names.ts), else none (its id shows).
      const a = store.accounts.add({
        ...ref,
        name: name?.trim() || serviceName(store, { ...ref, type: found.type }, found.sample),
        type: found.type,
        verifiedAt: ctx.now(),
      });
      // Named by the service already: the entry says the name the person will see everywhere.
      const who = a.name ? `"${a.name}" (${accountId})` : accountId;
      ctx.log(
        profileId,
        accountId,
        'info',
        'account.added',
        `Account ${who} added (${found.type === 'NETWORK' ? 'network' : 'advertiser'}).`,
      );
      hub.emit('data.changed', { profileId, accountId: null, what: 'accounts' });
      // Once listed, the cache may name it (a network by its own campaigns: see create-core), and a
      // network's listing names the members it lists (refresh.ts).
      void refresher.refreshAccount(ref).catch(() => undefined); // the core closed meanwhile
      return accountView(ctx, a, await store.campaigns.countsByAccount());
    },

    async 'accounts.remove'({ discardUnsent, discarding, ...ref }) {
      requireAccount(ctx, ref);
      guardRemoval(store, ref, { discardUnsent, discarding });
      refresher.cancel(ref);
      // A large cache goes in short steps first, so the removal's own delete is quick.
      await store.campaigns.forget(ref);
      if (!store.accounts.get(ref)) return { ok: true };
      // Checked again and removed with no await between: the drainer cannot start sending in the gap.
      const discarded = guardRemoval(store, ref, { discardUnsent, discarding });
      store.accounts.remove(ref, { discardPending: discarded.length > 0 });
      ctx.connections.access.forget(ref.profileId, ref.accountId);
      rememberDemoRemoval(ctx, ref);
      // Its drafts are gone: an undo history kept for them would bring them back if it were added again.
      store.settings.set('draftHistory', withoutDraftHistory(store.settings.get('draftHistory'), ref));
      if (discarded.length > 0) {
        ctx.log(
          ref.profileId,
          null,
          'warning',
          'account.removed',
          `Account ${ref.accountId} removed; ${unsentPhrase(countUnsent(discarded)).replace(/ not sent$/, '')} discarded, as chosen.`,
        );
        hub.emit('outbox.changed', { profileId: ref.profileId, accountId: ref.accountId });
      }
      hub.emit('data.changed', { profileId: ref.profileId, accountId: null, what: 'accounts' });
      return { ok: true };
    },

    async 'accounts.capabilities'({ profileId, accountId }) {
      return capabilities({ profileId, accountId });
    },
    async 'accounts.setCapability'({ profileId, accountId, capability, state }) {
      const ref = { profileId, accountId };
      const name = capabilities(ref).accountName;
      store.capabilities.set(ref, { capability, state, source: 'person' });
      hub.emit('data.changed', { ...ref, what: 'accounts' });
      const said = state === 'unknown' ? 'not known' : state === 'enabled' ? 'enabled' : 'not enabled';
      ctx.log(profileId, accountId, 'info', 'account.capability', `You said ${name} is ${said} for ${CAPABILITY_NOUNS[capability]}.`);
      return capabilities(ref);
    },
  };
}
