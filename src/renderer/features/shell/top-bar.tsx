// Always visible: the account switcher, the connection state and sync progress.
import { call, messageOf } from '../../lib/api';
import { MOD_KEY } from '../../lib/format';
import { accountKey, syncLabel, useStatus } from '../../stores/status-store';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';
import { ConnectionDot, connectionLabel } from './connection-dot';
import { EnterSecretButton } from '../connections/edit-connection-dialog';
import { useState } from 'react';

export function TopBar({ onOpenSwitcher }: { onOpenSwitcher(): void }) {
  const account = useWorkspace(selectedAccount);
  const profile = useWorkspace((s) => s.profiles.find((p) => p.id === s.selected?.profileId) ?? null);
  const info = useWorkspace((s) => s.info);
  const progress = useStatus((s) => (account ? s.sync[accountKey(account.profileId, account.accountId)] : undefined));
  const [error, setError] = useState<string | null>(null);

  const refresh = async () => {
    if (!account) return;
    setError(null);
    try {
      await call('sync.refresh', { profileId: account.profileId, accountId: account.accountId });
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const cancel = async () => {
    if (!account) return;
    try {
      await call('sync.cancel', { profileId: account.profileId, accountId: account.accountId });
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const sync = syncLabel(progress);

  return (
    <header className="topbar">
      <button
        type="button"
        className="switcher-button"
        onClick={onOpenSwitcher}
        data-testid="account-switcher-button"
        aria-keyshortcuts="Control+K Meta+K"
      >
        <span className="switcher-current">{account ? account.name || account.accountId : 'No account'}</span>
        <span aria-hidden="true">{'\u25BE'}</span>
        <kbd>{MOD_KEY}+K</kbd>
      </button>
      <div className="topbar-spacer" />
      {info?.secrets.warning ? (
        <span className="warning" title={info.secrets.warning}>
          Secrets in memory only
        </span>
      ) : null}
      {profile ? (
        <span className="topbar-state" data-testid="connection-state">
          <ConnectionDot state={profile.connection} /> {connectionLabel(profile)}
        </span>
      ) : null}
      {profile?.connection === 'failing' && profile.signIn.needsSecret ? (
        <EnterSecretButton profile={profile} testId="topbar-enter-secret" />
      ) : null}
      {/* A long failure message is cut to the room there is; the whole of it shows on hover. */}
      <span className="topbar-sync" data-testid="sync-progress" aria-live="polite" title={sync.text || undefined}>
        {sync.bar ? <progress max={sync.bar.max} value={sync.bar.value} /> : null}
        <span className="topbar-sync-text">{sync.text}</span>
      </span>
      {progress?.state === 'running' ? (
        <button type="button" onClick={cancel} data-testid="cancel-sync-button" title="Stop this refresh; what is cached so far stays">
          Stop sync
        </button>
      ) : (
        <button type="button" onClick={refresh} disabled={!account} data-testid="refresh-button">
          Refresh
        </button>
      )}
      {error ? (
        <span className="toolbar-error topbar-error" role="alert" title={error}>
          {error}
        </span>
      ) : null}
      {info ? <span className="muted topbar-mode">{info.transport === 'browser' ? 'browser mode' : ''}</span> : null}
    </header>
  );
}
