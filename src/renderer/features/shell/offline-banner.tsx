// A banner over the account's views while its connection is offline or working offline: the dot
// and its tooltip were the only sign, and they said nothing of what still works. It says what
// is kept and when it is sent, and offers the one useful action (ask again now, or go online).
import { useState } from 'react';
import type { Profile } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { useWorkspace } from '../../stores/workspace-store';

export function OfflineBanner() {
  const profile = useWorkspace((s) => s.profiles.find((p) => p.id === s.selected?.profileId) ?? null);
  if (!profile || (profile.connection !== 'offline' && profile.connection !== 'working_offline')) return null;
  // Keyed by connection and state: what the last Retry said belongs to that state only.
  return <Banner key={`${profile.id}/${profile.connection}`} profile={profile} />;
}

function Banner({ profile }: { profile: Profile }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const working = profile.connection === 'working_offline';

  const retry = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const p = working
        ? await call('profiles.setWorkOffline', { profileId: profile.id, offline: false })
        : await call('profiles.retryNow', { profileId: profile.id });
      useWorkspace.getState().setConnection(p.id, p.connection);
      // Still offline: say the question was asked, or the click looks like it did nothing.
      if (p.connection === 'offline') setOutcome(`Still no answer at ${new Date().toLocaleTimeString()}; it is asked again on its own.`);
    } catch (err) {
      setOutcome(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="offline-banner" role="status" data-testid="offline-banner" data-state={profile.connection}>
      <p>
        <strong>{working ? 'Working offline.' : `Offline: ${profile.name} cannot be reached.`}</strong>{' '}
        {working ? 'Nothing is sent or refreshed until you go online. ' : ''}
        You can still write and edit drafts and queue changes: they are kept on this computer and sent when{' '}
        {working ? 'you go online' : 'the service answers again'}. The campaigns shown are the last synced ones.
        {outcome ? <span data-testid="offline-outcome"> {outcome}</span> : null}
      </p>
      <button type="button" onClick={() => void retry()} disabled={busy} data-testid="offline-retry">
        {busy ? 'Trying...' : working ? 'Go online and retry now' : 'Retry now'}
      </button>
    </div>
  );
}
