// "+ Add connection": the service's addresses, the client id and secret, the sign-in flow. After
// creation an authorization-code connection offers "Sign in" (the browser opens the service's page).
import { useId, useState } from 'react';
import type { Profile } from '../../../shared/ipc/contract';
import { Dialog } from '../../components/dialog';
import { ConnectionForm } from './connection-fields';
import { call, DeskCallError, messageOf } from '../../lib/api';
import { useAction } from '../../lib/use-action';
import { useWorkspace } from '../../stores/workspace-store';
import { problemsByField } from '../../forms/campaign-form';
import { NEW_PROFILE_FORM, profileCreateInput, profileFormProblems, type ProfileForm } from './profile-form';

export function AddConnectionDialog({ onClose }: { onClose(): void }) {
  const [form, setForm] = useState<ProfileForm>(NEW_PROFILE_FORM);
  const idPrefix = useId();
  const [tried, setTried] = useState(false);
  const { busy, error, setError, run } = useAction();
  const [created, setCreated] = useState<Profile | null>(null);
  /** The service could not be reached: the question put to the person, and why it failed. */
  const [unreachable, setUnreachable] = useState<{ question: string; reason: string } | null>(null);
  const demo = useWorkspace((s) => s.info?.demo);
  const problems = profileFormProblems(form);
  // Problems show after the first attempt, then live: no red before a person has typed anything.
  const by = tried ? problemsByField(problems) : {};

  const create = async (saveUnreachable = false) => {
    setTried(true);
    setError(null);
    if (problems.length > 0) return;
    await run(
      async () => {
        const p = await call('profiles.create', { ...profileCreateInput(form), ...(saveUnreachable ? { saveUnreachable: true } : {}) });
        setUnreachable(null);
        setForm({ ...form, clientSecret: '' });
        setCreated(p);
        void useWorkspace.getState().load();
        if (p.flow === 'client_credentials') onClose();
      },
      (err) => {
        // Never saved silently when the service cannot be reached: ask whether to keep it offline.
        if (err instanceof DeskCallError && err.code === 'offline' && typeof err.details?.unreachable === 'string') {
          setUnreachable({ question: err.message, reason: typeof err.details.reason === 'string' ? err.details.reason : '' });
        } else setError(messageOf(err));
      },
    );
  };

  const restoreDemo = () =>
    run(async () => {
      await call('profiles.restoreDemo', {});
      void useWorkspace.getState().load();
      onClose();
    });

  const signIn = async () => {
    if (!created) return;
    await run(
      async () => {
        const p = await call('profiles.signIn', { profileId: created.id });
        setCreated(p);
        if (p.signIn.state === 'signed_in') onClose();
        else if (p.signIn.message) setError(p.signIn.message);
      },
      (err) => {
        // The person stopped it: nothing went wrong, and "Sign in" is there to start again.
        if (!(err instanceof DeskCallError && err.code === 'cancelled')) setError(messageOf(err));
      },
    );
  };

  if (created) {
    return (
      <Dialog title="Sign in" onClose={onClose} testId="add-connection-dialog">
        <p>
          The connection <strong>{created.name}</strong> is saved. It uses your browser to sign in: the service's page opens, and you come
          back here once you have allowed Campaign Desk.
        </p>
        {busy ? (
          <p className="muted" role="status" data-testid="conn-sign-in-waiting">
            Sign in on the page that opened in your browser, then come back here. No page? Cancel and try again.
          </p>
        ) : null}
        {error ? (
          <p className="form-problem" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Later
          </button>
          {busy ? (
            <button
              type="button"
              onClick={() => void call('profiles.cancelSignIn', { profileId: created.id }).catch(() => undefined)}
              data-testid="conn-sign-in-cancel"
            >
              Cancel sign-in
            </button>
          ) : null}
          <button type="button" className="primary" onClick={() => void signIn()} disabled={busy} data-testid="conn-sign-in" data-autofocus>
            Sign in
          </button>
        </div>
      </Dialog>
    );
  }

  if (unreachable) {
    return (
      <Dialog title="Service not reached" onClose={onClose} testId="add-connection-dialog">
        <p data-testid="conn-unreachable">{unreachable.question}</p>
        {unreachable.reason ? <p className="muted">{unreachable.reason}</p> : null}
        <p className="muted">
          Saved offline, its drafts can be written now and nothing is sent until you go online (the box under the connection).
        </p>
        {error ? (
          <p className="form-problem" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" onClick={() => setUnreachable(null)} disabled={busy} data-testid="conn-unreachable-back" data-autofocus>
            Go back and check the address
          </button>
          <button type="button" className="primary" onClick={() => void create(true)} disabled={busy} data-testid="conn-save-offline">
            Save and work offline
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title="Add connection" onClose={onClose} testId="add-connection-dialog">
      {demo?.available && demo.removed ? (
        <div className="dialog-aside" data-testid="demo-restore-box">
          <p className="muted">Want the sample accounts back? The built-in Sandbox demo returns with all of them.</p>
          <button type="button" onClick={() => void restoreDemo()} disabled={busy} data-testid="demo-restore">
            Bring back the Sandbox demo
          </button>
        </div>
      ) : null}
      <ConnectionForm
        form={form}
        setForm={setForm}
        problems={by}
        idPrefix={idPrefix}
        testPrefix="conn"
        secretHint="Kept in the system keychain, never shown again"
        secretAutofocus={false}
        placeholders
        onSubmit={() => void create()}
        error={error}
        onCancel={onClose}
        submit="Add connection"
        submitTestId="conn-create"
        busy={busy}
      />
    </Dialog>
  );
}
