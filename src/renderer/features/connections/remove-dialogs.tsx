// Removing an account or a whole connection from this computer, after saying exactly what goes
// with it. Nothing changes on the service. Whatever was never sent (drafts, queued, failed or
// blocked changes) is listed with its count and can be exported first; removal then needs the
// person's explicit choice to discard it (the core refuses otherwise, and always while a change
// is being sent). With nothing unsent the dialog stays a plain confirmation.
import { useState } from 'react';
import { countUnsent, unsentKey, unsentPhrase, type UnsentItem } from '../../../shared/domain/unsent';
import type { Account, Profile } from '../../../shared/ipc/contract';
import { Dialog } from '../../components/dialog';
import { call, messageOf } from '../../lib/api';
import { useAction } from '../../lib/use-action';
import { useStatus } from '../../stores/status-store';
import { useWorkspace } from '../../stores/workspace-store';
import { UnsentList, useUnsent } from './unsent-list';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const TICK_FIRST = 'Export what you want to keep, then tick “Discard” to remove';

/** The unsent work of what is removed, the choice to discard it, and the removal itself. */
function useRemoval(
  unsent: ReturnType<typeof useUnsent>,
  run: (choice: { discardUnsent: boolean; discarding: string[] }) => Promise<unknown>,
  onClose: () => void,
) {
  const { busy, error, setError, run: runAction } = useAction();
  const [discard, setDiscard] = useState(false);
  const count = unsent.items?.length ?? 0;
  const remove = () =>
    runAction(
      async () => {
        // What the person saw goes with the choice: a change made meanwhile is never discarded unseen.
        await run({ discardUnsent: count > 0 && discard, discarding: (unsent.items ?? []).map(unsentKey) });
        await Promise.all([useWorkspace.getState().load(), useStatus.getState().loadOutbox()]);
        onClose();
      },
      async (err) => {
        setError(messageOf(err));
        // Something may have been queued or sent meanwhile: show the list as it is now, and ask again.
        setDiscard(false);
        await unsent.reload();
      },
    );
  const loading = unsent.items === null && unsent.error === null;
  const blocked = busy || loading || (count > 0 && !discard);
  // The removal button's props: held back until "Discard" is ticked, and saying so while it is.
  const actions = { blocked, error, onRemove: () => void remove(), hint: blocked && !busy && count > 0 ? TICK_FIRST : undefined };
  return { discard, setDiscard, actions };
}

function UnsentSection(props: {
  items: UnsentItem[] | null;
  loadError: string | null;
  what: string;
  exportAs: { connection: string; account?: string };
  discard: boolean;
  onDiscard(v: boolean): void;
}) {
  const { items, loadError, what, exportAs, discard, onDiscard } = props;
  if (loadError) return <p className="form-problem">The unsent changes could not be listed: {loadError}</p>;
  if (items === null) return <p className="muted">Looking for changes not sent yet…</p>;
  if (items.length === 0) return null;
  const n = items.length;
  return (
    <>
      <p className="form-problem" data-testid="unsent-summary">
        {unsentPhrase(countUnsent(items))}. Removing {what} deletes {n === 1 ? 'it' : 'them'} from this computer: export{' '}
        {n === 1 ? 'it' : 'them'} first to keep a copy.
      </p>
      <UnsentList items={items} exportAs={exportAs} />
      <label className="unsent-discard">
        <input type="checkbox" checked={discard} onChange={(e) => onDiscard(e.target.checked)} data-testid="unsent-discard" />
        Discard {n === 1 ? 'this unsent change' : `these ${n} unsent changes`}
      </label>
    </>
  );
}

/** Why the removal was refused, if it was, then the two choices. */
function Actions(props: {
  blocked: boolean;
  error: string | null;
  onClose(): void;
  onRemove(): void;
  label: string;
  testId: string;
  hint: string | undefined;
}) {
  const { blocked, error, onClose, onRemove, label, testId, hint } = props;
  return (
    <>
      {error ? (
        <p className="form-problem" role="alert" data-testid="remove-error">
          {error}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" onClick={onClose} title="Escape" data-autofocus>
          Keep it
        </button>
        <button type="button" className="danger" onClick={onRemove} disabled={blocked} title={hint} data-testid={testId}>
          {label}
        </button>
      </div>
    </>
  );
}

/** What was removed of the built-in demo connection stays removed until brought back (core/demo.ts). */
const DEMO_PROFILE_ID = 'sandbox-demo';
const DEMO_STAYS_REMOVED = 'It stays removed when Campaign Desk starts again. “+ Add connection” can bring the whole Sandbox demo back.';

export function RemoveAccountDialog({ account, members, onClose }: { account: Account; members: Account[]; onClose(): void }) {
  const name = account.name || account.accountId;
  const profileName = useWorkspace((s) => s.profiles.find((p) => p.id === account.profileId)?.name ?? account.profileId);
  const unsent = useUnsent(account.profileId, account.accountId);
  const r = useRemoval(
    unsent,
    (choice) => call('accounts.remove', { profileId: account.profileId, accountId: account.accountId, ...choice }),
    onClose,
  );
  return (
    <Dialog title={`Remove ${name}?`} onClose={onClose} testId="remove-account-dialog">
      <p>
        Its {plural(account.campaignCount, 'cached campaign')} and its drafts are deleted from this computer. Nothing changes on the
        service, and you can add the account again later.
      </p>
      {members.length > 0 ? (
        <p>
          Its member {members.length === 1 ? 'account stays' : 'accounts stay'} ({members.map((m) => m.name || m.accountId).join(', ')}):
          remove {members.length === 1 ? 'it' : 'them'} on {members.length === 1 ? 'its' : 'their'} own if you no longer need{' '}
          {members.length === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
      {account.profileId === DEMO_PROFILE_ID ? <p className="muted">{DEMO_STAYS_REMOVED}</p> : null}
      <UnsentSection
        items={unsent.items}
        loadError={unsent.error}
        what="the account"
        exportAs={{ connection: profileName, account: name }}
        discard={r.discard}
        onDiscard={r.setDiscard}
      />
      <Actions {...r.actions} onClose={onClose} label="Remove account" testId="remove-account-confirm" />
    </Dialog>
  );
}

export function RemoveConnectionDialog({ profile, accounts, onClose }: { profile: Profile; accounts: Account[]; onClose(): void }) {
  const unsent = useUnsent(profile.id);
  const r = useRemoval(unsent, (choice) => call('profiles.remove', { profileId: profile.id, ...choice }), onClose);
  return (
    <Dialog title={`Remove the connection ${profile.name}?`} onClose={onClose} testId="remove-connection-dialog">
      <p>
        Its {plural(accounts.length, 'account')} with their cached data and drafts are deleted from this computer, and its client secret is
        removed from the system keychain. Nothing changes on the service.
      </p>
      {profile.id === DEMO_PROFILE_ID ? <p className="muted">{DEMO_STAYS_REMOVED}</p> : null}
      <UnsentSection
        items={unsent.items}
        loadError={unsent.error}
        what="the connection"
        exportAs={{ connection: profile.name }}
        discard={r.discard}
        onDiscard={r.setDiscard}
      />
      <Actions {...r.actions} onClose={onClose} label="Remove connection" testId="remove-connection-confirm" />
    </Dialog>
  );
}
