// profiles.*: connections to a service, each with its own credentials and sign-in flow. The
// client secret goes to the secret store and nowhere else.
import { countUnsent, unsentPhrase } from '../../../shared/domain/unsent';
import { DeskError } from '../../../shared/errors';
import { withoutDraftHistory } from '../../../shared/domain/draft-history';
import type { CoreContext } from '../context';
import type { HandlersOf } from '../handlers-of';
import { requireProfile } from '../lookups';
import { rememberDemoRemoval, restoreDemo, DEMO_PROFILE_ID } from '../demo';
import { addressProblem, secretAddressMoved, secretAgainMessage } from '../../../shared/domain/profile';
import { profileDto } from '../dto';
import { guardRemoval } from '../unsent';

const ADDRESS_LABELS = {
  baseUrl: 'The service address',
  authUrl: 'The sign-in address',
  pushUrl: 'The push address',
  redirectUri: 'The redirect address',
} as const;

/** Refuses plain http:// to anything but this computer, naming the field and the reason. */
function checkAddresses(fields: Partial<Record<keyof typeof ADDRESS_LABELS, string | null | undefined>>): void {
  for (const key of Object.keys(ADDRESS_LABELS) as (keyof typeof ADDRESS_LABELS)[]) {
    const value = fields[key];
    if (typeof value !== 'string') continue;
    const problem = addressProblem(value, key === 'redirectUri' ? 'redirect' : 'service');
    if (problem) throw new DeskError('validation', `${ADDRESS_LABELS[key]} ${problem}.`, { field: key });
  }
}

export async function profileView(ctx: CoreContext, profileId: string) {
  const p = requireProfile(ctx, profileId);
  // Presence only, answered from the secret store's cache: profiles.list runs on every connection change.
  const hasSecret = await ctx.secrets.has(profileId, 'client_secret').catch(() => false);
  return profileDto(p, ctx.connections.view(profileId), hasSecret);
}

export function profilesHandlers(ctx: CoreContext): HandlersOf<'profiles'> {
  const { store, connections, hub } = ctx;
  const changed = () => hub.emit('data.changed', { profileId: null, accountId: null, what: 'profiles' });
  return {
    async 'profiles.list'() {
      return Promise.all(store.profiles.list().map((p) => profileView(ctx, p.id)));
    },

    async 'profiles.create'(input) {
      const { clientSecret, saveUnreachable, ...fields } = input;
      checkAddresses(fields);
      // Never saved silently when its service cannot be reached: the person is asked first.
      const asked = fields.flow === 'client_credentials' ? fields.authUrl : fields.baseUrl;
      const unreachable = await connections.unreachableReason({ ...fields, secret: clientSecret });
      if (unreachable !== null && !saveUnreachable) {
        throw new DeskError('offline', `Could not reach ${asked}: save it anyway and work offline?`, {
          unreachable: asked,
          reason: unreachable,
        });
      }
      const p = store.profiles.create(fields);
      try {
        await ctx.secrets.set(p.id, 'client_secret', clientSecret);
      } catch {
        store.profiles.remove(p.id);
        throw new DeskError(
          'keychain_unavailable',
          'The system keychain refused to store the client secret, so the connection was not added. Unlock your keyring and try again.',
        );
      }
      if (unreachable !== null) {
        connections.setWorkOffline(p.id, true);
        ctx.log(
          p.id,
          null,
          'warning',
          'profile.created',
          `Connection "${p.name}" added while ${asked} could not be reached (${unreachable}); working offline until you go online.`,
        );
        changed();
        return profileView(ctx, p.id);
      }
      ctx.log(p.id, null, 'info', 'profile.created', `Connection "${p.name}" added.`);
      changed();
      if (p.flow === 'client_credentials') {
        // Check the credentials now so a wrong secret shows at once (the outcome is in signIn), and
        // learn the applications it may push to: without them no push can be composed.
        void connections
          .signIn(p.id)
          .then(() => ctx.refresher.apps.refreshApps(p.id))
          .catch(() => undefined);
      }
      return profileView(ctx, p.id);
    },

    async 'profiles.update'({ profileId, clientSecret, ...patch }) {
      const before = requireProfile(ctx, profileId);
      checkAddresses(patch);
      const after = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      if (after.flow === 'authorization_code' && !after.redirectUri) {
        throw new DeskError('validation', 'A browser sign-in needs a redirect address.', { field: 'redirectUri' });
      }
      const moved = secretAddressMoved(before, after);
      if (moved !== null && clientSecret === undefined)
        throw new DeskError('validation', secretAgainMessage(moved), { field: 'clientSecret' });
      const credentialsChanged = clientSecret !== undefined || after.clientId !== before.clientId || after.authUrl !== before.authUrl;
      if (after.flow === 'client_credentials' && credentialsChanged) {
        // Checked with the service before anything is saved: a wrong secret never replaces a right one.
        const secret = clientSecret ?? (await ctx.secrets.get(profileId, 'client_secret').catch(() => null));
        if (!secret)
          throw new DeskError('unauthorized', 'No client secret is stored for this connection: enter it to save.', {
            field: 'clientSecret',
          });
        await connections.verifyClientCredentials({ authUrl: after.authUrl, clientId: after.clientId, secret });
      }
      if (clientSecret !== undefined) {
        try {
          await ctx.secrets.set(profileId, 'client_secret', clientSecret);
        } catch {
          throw new DeskError(
            'keychain_unavailable',
            'The system keychain refused to store the client secret, so nothing was changed. Unlock your keyring and try again.',
          );
        }
      }
      store.profiles.update(profileId, patch);
      // The next call builds a client from the new settings; drafts, cache and outbox are untouched.
      await connections.forget(profileId);
      ctx.refresher.apps.forgetApps(profileId);
      const what = [
        ...Object.keys(patch).filter((k) => patch[k as keyof typeof patch] !== undefined),
        ...(clientSecret !== undefined ? ['secret'] : []),
      ];
      ctx.log(
        profileId,
        null,
        'info',
        'profile.updated',
        `Connection "${after.name}" changed (${what.join(', ') || 'nothing'}); its drafts and queued changes are kept.`,
      );
      changed();
      if (after.flow === 'client_credentials') {
        void connections
          .signIn(profileId)
          .then(() => {
            ctx.drainer.resume(profileId);
            return ctx.refresher.apps.refreshApps(profileId);
          })
          .catch(() => undefined);
      }
      return profileView(ctx, profileId);
    },

    async 'profiles.remove'({ profileId, ...choice }) {
      const p = store.profiles.get(profileId);
      if (!p) return { ok: true };
      guardRemoval(store, { profileId }, choice);
      for (const a of store.accounts.list(profileId)) ctx.refresher.cancel(a);
      // Large caches go in short steps first, so the removal's own delete is quick.
      for (const a of store.accounts.list(profileId)) await store.campaigns.forget(a);
      await connections.forget(profileId);
      ctx.refresher.apps.forgetApps(profileId);
      // Again after the awaits, right before the delete: the drainer may have started a send meanwhile.
      const discarded = guardRemoval(store, { profileId }, choice);
      for (const item of store.outbox.list({ profileId })) ctx.notes.remove(item.seq);
      store.profiles.remove(profileId);
      connections.access.forget(profileId);
      rememberDemoRemoval(ctx, { profileId });
      // Its drafts are gone: an undo history kept for them would bring them back if it were added again.
      store.settings.set('draftHistory', withoutDraftHistory(store.settings.get('draftHistory'), { profileId }));
      await ctx.secrets.delete(profileId).catch(() => undefined);
      const gone = discarded.length > 0 ? `; ${unsentPhrase(countUnsent(discarded)).replace(/ not sent$/, '')} discarded, as chosen` : '';
      ctx.log(null, null, discarded.length > 0 ? 'warning' : 'info', 'profile.removed', `Connection "${p.name}" removed${gone}.`);
      changed();
      if (discarded.length > 0) hub.emit('outbox.changed', { profileId, accountId: '' });
      return { ok: true };
    },

    async 'profiles.restoreDemo'() {
      if (!ctx.demo)
        throw new DeskError(
          'not_found',
          'This copy of Campaign Desk runs without its built-in sandbox, so there is no demo to bring back.',
        );
      await restoreDemo(ctx);
      ctx.log(null, null, 'info', 'profile.created', 'The Sandbox demo connection is back, with all its accounts.');
      changed();
      hub.emit('data.changed', { profileId: DEMO_PROFILE_ID, accountId: null, what: 'accounts' });
      void ctx.refresher.refreshProfile(DEMO_PROFILE_ID);
      return profileView(ctx, DEMO_PROFILE_ID);
    },

    async 'profiles.signIn'({ profileId }) {
      await connections.signIn(profileId);
      ctx.drainer.kick();
      // Signed in (again): the applications and their tasks may have changed meanwhile.
      void ctx.refresher.apps.refreshApps(profileId);
      return profileView(ctx, profileId);
    },

    async 'profiles.cancelSignIn'({ profileId }) {
      requireProfile(ctx, profileId);
      connections.cancelSignIn(profileId);
      return profileView(ctx, profileId);
    },

    async 'profiles.setWorkOffline'({ profileId, offline }) {
      requireProfile(ctx, profileId);
      connections.setWorkOffline(profileId, offline);
      if (!offline) ctx.drainer.kick();
      changed();
      return profileView(ctx, profileId);
    },

    async 'profiles.retryNow'({ profileId }) {
      requireProfile(ctx, profileId);
      await connections.retryNow(profileId);
      return profileView(ctx, profileId);
    },
  };
}
