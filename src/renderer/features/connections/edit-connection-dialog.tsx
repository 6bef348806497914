// "Edit connection": name, addresses, client id, secret and sign-in flow changed in place; drafts,
// cache and queue stay. A new secret is checked with the service before it is saved (the core
// refuses a wrong one in the service's words); a connection whose secret was lost asks for it.
import { useId, useState } from 'react';
import type { ChannelInput, Profile } from '../../../shared/ipc/contract';
import { Dialog } from '../../components/dialog';
import { ConnectionForm } from './connection-fields';
import { call, DeskCallError, messageOf } from '../../lib/api';
import { useAction } from '../../lib/use-action';
import { useWorkspace } from '../../stores/workspace-store';
import { problemsByField } from '../../forms/campaign-form';
import { profileFormProblems, type ProfileForm } from './profile-form';
import { secretAddressMoved, secretAgainMessage } from '../../../shared/domain/profile';

const formOf = (p: Profile): ProfileForm => ({
  name: p.name,
  baseUrl: p.baseUrl,
  authUrl: p.authUrl,
  pushUrl: p.pushUrl,
  clientId: p.clientId,
  clientSecret: '',
  flow: p.flow,
  redirectUri: p.redirectUri ?? '',
});

/** Only what changed is sent; the secret only when one was typed. */
export function profilePatch(p: Profile, f: ProfileForm): ChannelInput<'profiles.update'> {
  const patch: ChannelInput<'profiles.update'> = { profileId: p.id };
  const was = formOf(p);
  for (const k of ['name', 'baseUrl', 'authUrl', 'pushUrl', 'clientId'] as const) if (f[k].trim() !== was[k]) patch[k] = f[k].trim();
  if (f.flow !== p.flow) patch.flow = f.flow;
  if (f.flow === 'authorization_code' && f.redirectUri.trim() !== was.redirectUri) patch.redirectUri = f.redirectUri.trim();
  if (f.clientSecret !== '') patch.clientSecret = f.clientSecret;
  return patch;
}

export function EditConnectionDialog({ profile, onClose }: { profile: Profile; onClose(): void }) {
  const [form, setForm] = useState<ProfileForm>(() => formOf(profile));
  const idPrefix = useId();
  // Problems show after the first Save, then live (as in the add dialog): a connection whose
  // secret was lost opens asking for it in plain words, not in red before anything was done.
  const [tried, setTried] = useState(false);
  /** The service refused the secret last time: the secret field names that error. */
  const [secretRefused, setSecretRefused] = useState(false);
  const { busy, error, setError, run } = useAction();
  // The secret may stay empty (kept as stored) unless none is stored, or a token endpoint moved to
  // another server (the stored secret is never sent where it was not entered for).
  const moved = secretAddressMoved(profile, form);
  const problems = [
    ...profileFormProblems({ ...form, clientSecret: form.clientSecret || (profile.hasSecret && moved === null ? 'kept' : '') }),
  ].map((p) =>
    p.field === 'clientSecret' && moved !== null && form.clientSecret === '' ? { ...p, message: secretAgainMessage(moved) } : p,
  );
  const by = tried ? problemsByField(problems) : {};
  const save = async () => {
    setTried(true);
    setError(null);
    setSecretRefused(false);
    if (problems.length > 0) return;
    await run(
      async () => {
        await call('profiles.update', profilePatch(profile, form));
        void useWorkspace.getState().load();
        onClose();
      },
      (err) => {
        setError(messageOf(err));
        // Save was disabled while the secret was checked, so focus fell to the page: put it in the
        // field to correct, which names the refusal (the alert has announced it once already).
        if (err instanceof DeskCallError && err.details?.field === 'clientSecret') {
          setSecretRefused(true);
          document.getElementById(`${idPrefix}-clientSecret`)?.focus();
        }
      },
    );
  };
  return (
    <Dialog title={`Edit connection "${profile.name}"`} onClose={onClose} testId="edit-connection-dialog">
      <p className="muted">Its accounts, drafts, cached campaigns and queued changes stay as they are.</p>
      {!profile.hasSecret ? (
        <p className="notice" data-testid="edit-secret-missing">
          No client secret is stored for this connection (the keychain may have lost it): enter it to send its queued changes.
        </p>
      ) : null}
      <ConnectionForm
        form={form}
        setForm={(f) => {
          // A new secret typed is no longer the one refused: the field stops saying so.
          if (f.clientSecret !== form.clientSecret) setSecretRefused(false);
          setForm(f);
        }}
        problems={by}
        idPrefix={idPrefix}
        secretRefused={secretRefused}
        testPrefix="edit"
        secretHint={
          profile.hasSecret
            ? 'Leave empty to keep the stored secret; a new one is checked with the service before it is saved'
            : 'Checked with the service before it is saved'
        }
        secretAutofocus={!profile.hasSecret}
        placeholders={false}
        onSubmit={() => void save()}
        error={error}
        onCancel={onClose}
        submit={busy ? 'Checking...' : 'Save'}
        submitTestId="edit-save"
        busy={busy}
      />
    </Dialog>
  );
}

/** The tree's "Edit" button for a connection, with its dialog (one element for the tree to place). */
/** `tabIndex` -1 when the sidebar reaches it with the arrow keys instead of Tab (account-tree.tsx). */
export function EditConnectionButton({ profile, tabIndex }: { profile: Profile; tabIndex?: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        tabIndex={tabIndex}
        data-tree-stop=""
        className={`icon-button tree-edit${profile.hasSecret ? '' : ' needs-secret'}`}
        onClick={() => setOpen(true)}
        title={profile.hasSecret ? `Edit the connection ${profile.name}...` : `${profile.name} has no secret stored: enter it...`}
        aria-label={`Edit connection ${profile.name}`}
        data-testid={`edit-connection-${profile.id}`}
      >
        {'\u270E'}
      </button>
      {open ? <EditConnectionDialog profile={profile} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * "Enter secret": for a connection whose client secret is missing from the keychain, where a
 * sign-in cannot help. Opens Edit connection with the secret field focused.
 */
export function EnterSecretButton({ profile, testId, className }: { profile: Profile; testId: string; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => setOpen(true)}
        data-testid={testId}
        title={`Enter the client secret of ${profile.name} again`}
      >
        Enter secret
      </button>
      {open ? <EditConnectionDialog profile={{ ...profile, hasSecret: false }} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
