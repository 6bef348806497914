// Removing an account or a whole connection from this computer, after saying exactly what goes
// with it. Nothing changes on the service. An account with changes not yet sent is refused by the
// core (send or discard them first); removing a connection discards its queue, so the dialog
// counts what would be lost before the person confirms.
import { useState } from 'react';
import type { Account, Profile } from '../../../shared/ipc/contract';
import { Dialog } from '../../components/dialog';
import { call, messageOf } from '../../lib/api';
import { useWorkspace } from '../../stores/workspace-store';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function useRemove(run: () => Promise<unknown>, onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await run();
      await useWorkspace.getState().load();
      onClose();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, remove };
}

/** Why the removal was refused, if it was, then the two choices. */
function Actions(props: { busy: boolean; error: string | null; onClose(): void; onRemove(): void; label: string; testId: string }) {
  const { busy, error, onClose, onRemove, label, testId } = props;
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
        <button type="button" className="danger" onClick={onRemove} disabled={busy} data-testid={testId}>
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
  const { busy, error, remove } = useRemove(() => call('accounts.remove', { profileId: account.profileId, accountId: account.accountId }), onClose);
  return (
    <Dialog title={`Remove ${name}?`} onClose={onClose} testId="remove-account-dialog">
      <p>
        Its {plural(account.campaignCount, 'cached campaign')} and its drafts are deleted from this computer. Nothing changes on the service, and you can add the
        account again later.
      </p>
      {members.length > 0 ? (
        <p>
          Its member {members.length === 1 ? 'account stays' : 'accounts stay'} ({members.map((m) => m.name || m.accountId).join(', ')}): remove{' '}
          {members.length === 1 ? 'it' : 'them'} on {members.length === 1 ? 'its' : 'their'} own if you no longer need {members.length === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
      {account.profileId === DEMO_PROFILE_ID ? <p className="muted">{DEMO_STAYS_REMOVED}</p> : null}
      {account.queued > 0 ? (
        <p className="form-problem">
          {plural(account.queued, 'change')} of this account {account.queued === 1 ? 'is' : 'are'} not sent yet: send or discard {account.queued === 1 ? 'it' : 'them'} in the
          Outbox first.
        </p>
      ) : null}
      <Actions busy={busy} error={error} onClose={onClose} onRemove={() => void remove()} label="Remove account" testId="remove-account-confirm" />
    </Dialog>
  );
}

export function RemoveConnectionDialog({ profile, accounts, onClose }: { profile: Profile; accounts: Account[]; onClose(): void }) {
  const queued = accounts.reduce((n, a) => n + a.queued, 0);
  const { busy, error, remove } = useRemove(() => call('profiles.remove', { profileId: profile.id }), onClose);
  return (
    <Dialog title={`Remove the connection ${profile.name}?`} onClose={onClose} testId="remove-connection-dialog">
      <p>
        Its {plural(accounts.length, 'account')} with their cached data and drafts are deleted from this computer, and its client secret is removed from the system
        keychain. Nothing changes on the service.
      </p>
      {profile.id === DEMO_PROFILE_ID ? <p className="muted">{DEMO_STAYS_REMOVED}</p> : null}
      {queued > 0 ? (
        <p className="form-problem" data-testid="remove-queued">
          {plural(queued, 'change')} waiting in the Outbox will never be sent.
        </p>
      ) : null}
      <Actions busy={busy} error={error} onClose={onClose} onRemove={() => void remove()} label="Remove connection" testId="remove-connection-confirm" />
    </Dialog>
  );
}
