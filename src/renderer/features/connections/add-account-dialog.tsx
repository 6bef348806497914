// "Add account" for one connection: the account id (letters only) and an optional display name.
// The service's answer (e.g. 403 for an account this client does not reach) is shown as it is.
import { useState } from 'react';
import type { Profile } from '../../../shared/ipc/contract';
import { Dialog } from '../../components/dialog';
import { FormField } from '../../components/form-field';
import { FormFooter } from '../../components/form-footer';
import { call } from '../../lib/api';
import { useAction } from '../../lib/use-action';
import { useWorkspace } from '../../stores/workspace-store';
import { accountIdProblem } from './profile-form';

export function AddAccountDialog({ profile, onClose }: { profile: Profile; onClose(): void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const { busy, error, setError, run } = useAction();
  const problem = accountIdProblem(id);
  const add = async () => {
    setTried(true);
    setError(null);
    if (problem) return;
    await run(async () => {
      const a = await call('accounts.add', { profileId: profile.id, accountId: id.trim(), ...(name.trim() ? { name: name.trim() } : {}) });
      await useWorkspace.getState().load();
      useWorkspace.getState().select({ profileId: a.profileId, accountId: a.accountId });
      onClose();
    });
  };
  return (
    <Dialog title={`Add account to ${profile.name}`} onClose={onClose} testId="add-account-dialog">
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <FormField label="Account id" name="accountId" problems={tried && problem ? [problem] : undefined}>
          <input id="f-accountId" value={id} onChange={(e) => setId(e.target.value)} placeholder="e.g. acmeshoes" data-testid="acct-id" />
        </FormField>
        <FormField
          label="Name"
          name="accountName"
          hint="Optional. Otherwise the name the service gives it (a network's listing names its members), or its id"
        >
          <input id="f-accountName" value={name} onChange={(e) => setName(e.target.value)} data-testid="acct-name" />
        </FormField>
        <FormFooter error={error} errorTestId="acct-error" onCancel={onClose} submit="Add account" submitTestId="acct-add" busy={busy} />
      </form>
    </Dialog>
  );
}
