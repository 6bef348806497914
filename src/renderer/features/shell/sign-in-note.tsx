// Under a connection in the tree: why it needs a sign-in, with the button that starts one; while a
// browser sign-in waits for the person, what to do and how to stop it. Without this a connection
// that signs in with the browser could only be signed in from the dialog that created it.
import { useState } from 'react';
import type { Profile } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { useWorkspace } from '../../stores/workspace-store';
import { EnterSecretButton } from '../connections/edit-connection-dialog';

export function SignInNote({ profile, onError }: { profile: Profile; onError(m: string | null): void }) {
  const [waiting, setWaiting] = useState(false);
  const browser = profile.flow === 'authorization_code';

  const signIn = async () => {
    onError(null);
    setWaiting(true);
    try {
      await call('profiles.signIn', { profileId: profile.id });
    } catch (err) {
      // A cancelled or failed sign-in leaves its reason on the connection (shown below); anything
      // else is said here.
      if (!browser) onError(messageOf(err));
    } finally {
      setWaiting(false);
      void useWorkspace.getState().load();
    }
  };

  const cancel = async () => {
    try {
      await call('profiles.cancelSignIn', { profileId: profile.id });
    } catch (err) {
      onError(messageOf(err));
    }
  };

  if (browser && (waiting || profile.connection === 'signing_in')) {
    return (
      <div className="tree-note sign-in-note" data-testid={`sign-in-waiting-${profile.id}`}>
        <span className="muted">Sign in on the page that opened in your browser, then come back.</span>
        <button type="button" className="small-button" onClick={() => void cancel()} data-testid={`sign-in-cancel-${profile.id}`}>
          Cancel
        </button>
      </div>
    );
  }
  if (profile.signIn.state !== 'sign_in_required' && profile.signIn.state !== 'failed') return null;
  if (profile.signIn.needsSecret) {
    // The secret is gone from the keychain: a sign-in would only fail again.
    return (
      <div className="tree-note sign-in-note" data-testid={`secret-missing-${profile.id}`}>
        <span className="form-problem">{profile.signIn.message}</span>
        <EnterSecretButton profile={profile} className="small-button" testId={`enter-secret-${profile.id}`} />
      </div>
    );
  }
  return (
    <div className="tree-note sign-in-note">
      <span className="form-problem">{profile.signIn.message ?? 'Sign in again to continue.'}</span>
      <button type="button" className="small-button" onClick={() => void signIn()} disabled={waiting} data-testid={`sign-in-${profile.id}`}>
        {browser ? 'Sign in with browser' : 'Sign in'}
      </button>
    </div>
  );
}
