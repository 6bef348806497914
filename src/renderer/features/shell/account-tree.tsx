// The left sidebar: connections and their accounts, a network holding its members, a dot for the
// connection state and a badge for queued changes. Per connection: add an account, edit, remove,
// work offline. The whole tree is one tab stop (the open account): arrow keys move through the
// accounts and each connection's controls, so with two connections the views are a few Tab
// presses away rather than fifteen; Enter opens an account, Delete offers to remove it; a filter
// above narrows the tree by name or id.
import { sameAccount } from '../../../shared/domain/account';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { MOD_KEY } from '../../lib/format';
import type { Account, Profile } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { useCampaigns } from '../../stores/campaigns-store';
import { useViews } from '../../stores/view-store';
import { treeOrder, useWorkspace } from '../../stores/workspace-store';
import { AddAccountDialog } from '../connections/add-account-dialog';
import { AddConnectionDialog } from '../connections/add-connection-dialog';
import { EditConnectionButton } from '../connections/edit-connection-dialog';
import { RemoveAccountDialog, RemoveConnectionDialog } from '../connections/remove-dialogs';
import { AccountCapabilitiesDialog } from '../accounts/account-capabilities-dialog';
import { ConnectionDot, connectionLabel } from './connection-dot';
import { NoAccessTag } from './no-access';
import { SignInNote } from './sign-in-note';

function WorkOffline({ profile, onError }: { profile: Profile; onError(m: string | null): void }) {
  // The box follows the click at once; the connection state catches up when main answers, and a
  // refused change puts the box back.
  const [asked, setAsked] = useState<boolean | null>(null);
  const offline = asked ?? profile.connection === 'working_offline';
  return (
    <label className="tree-offline" title="Keep changes local and send nothing until you switch this off">
      <input
        type="checkbox"
        checked={offline}
        onChange={async (e) => {
          const on = e.target.checked;
          onError(null);
          setAsked(on);
          try {
            const p = await call('profiles.setWorkOffline', { profileId: profile.id, offline: on });
            useWorkspace.getState().setConnection(p.id, p.connection);
          } catch (err) {
            onError(messageOf(err));
          } finally {
            setAsked(null);
          }
        }}
        tabIndex={-1}
        data-tree-stop=""
        data-testid={`work-offline-${profile.id}`}
      />
      Work offline
    </label>
  );
}

export function AccountTree() {
  const { profiles, accounts, selected, select, loaded } = useWorkspace();
  const groups = treeOrder(profiles, accounts);
  const [adding, setAdding] = useState(false);
  const [addAccountTo, setAddAccountTo] = useState<Profile | null>(null);
  const [removing, setRemoving] = useState<{ profile: Profile } | { account: Account } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The account's settings (what it may use): right-click, the context-menu key or Shift+F10.
  const [settingsOf, setSettingsOf] = useState<Account | null>(null);
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const hit = (a: Account) => a.name.toLowerCase().includes(needle) || a.accountId.toLowerCase().includes(needle);
  const shownRows = (rows: { account: Account; depth: number }[]) =>
    needle === ''
      ? rows
      : rows.filter(
          ({ account }) =>
            hit(account) ||
            (account.type === 'NETWORK' &&
              accounts.some((m) => m.networkId === account.accountId && m.profileId === account.profileId && hit(m))),
        );
  const shortcutOf = new Map(
    groups
      .flatMap((g) => g.rows)
      .slice(0, 9)
      .map(({ account }, i) => [`${account.profileId}/${account.accountId}`, i + 1]),
  );
  // The accounts a keystroke away (Ctrl/Cmd+1..9) open without waiting for the cache: their first
  // pages are read ahead once the saved views (which say what each opens on) are known.
  const viewsLoaded = useViews((s) => s.loaded);
  // Each with its count: a page kept for an account is shown only while its count is the same.
  const shortcutKeys = groups
    .flatMap((g) => g.rows)
    .slice(0, 9)
    .map(({ account }) => `${account.profileId}/${account.accountId}/${account.campaignCount}`)
    .join('\n');
  useEffect(() => {
    if (!viewsLoaded) return;
    // Asked again only when other accounts (or counts) come into the first nine, not at each render.
    const ws = useWorkspace.getState();
    for (const { account } of treeOrder(ws.profiles, ws.accounts)
      .flatMap((g) => g.rows)
      .slice(0, 9))
      useCampaigns.getState().prefetch(account, account.campaignCount);
  }, [viewsLoaded, shortcutKeys]);
  const visible = groups.flatMap((g) => shownRows(g.rows));
  const selectedVisible = visible.some(({ account }) => sameAccount(account, selected));
  // With no account to hold the tab stop, the first connection's "+" holds it.
  const firstHolds = visible.length === 0;
  /** Arrow keys, Home and End through every control of the tree, in the order shown. */
  const onTreeKey = (e: KeyboardEvent<HTMLElement>) => {
    const stops = Array.from(e.currentTarget.querySelectorAll<HTMLElement>('[data-tree-stop]'));
    const i = stops.indexOf(e.target as HTMLElement);
    if (i < 0) return;
    const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: stops.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    stops[Math.max(0, Math.min(stops.length - 1, to))]?.focus();
  };
  const onItemKey = (e: KeyboardEvent<HTMLButtonElement>, account: Account) => {
    if (e.key === 'Delete') {
      e.preventDefault();
      setRemoving({ account });
    } else if ((e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) && account.type === 'ADVERTISER') {
      e.preventDefault();
      setSettingsOf(account);
    }
  };
  return (
    <nav className="tree" aria-label="Connections and accounts" data-testid="account-tree" onKeyDown={onTreeKey}>
      <div className="tree-title">Connections</div>
      <label className="tree-filter">
        <span className="visually-hidden">Filter accounts</span>
        <input
          type="search"
          placeholder="Filter accounts..."
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          data-testid="tree-filter"
        />
      </label>
      {loaded && groups.length === 0 ? <p className="muted tree-empty">No connections yet.</p> : null}
      {groups.map(({ profile, rows }, g) => (
        <div key={profile.id} className="tree-group" data-testid={`connection-${profile.id}`}>
          <div className="tree-profile" title={`${profile.baseUrl} · ${connectionLabel(profile)}`}>
            <ConnectionDot state={profile.connection} />
            <span className="tree-profile-name" title={profile.name}>
              {profile.name}
            </span>
            <button
              type="button"
              className="icon-button tree-profile-add"
              tabIndex={firstHolds && g === 0 ? 0 : -1}
              data-tree-stop=""
              onClick={() => setAddAccountTo(profile)}
              title={`Add an account to ${profile.name}`}
              aria-label={`Add account to ${profile.name}`}
              data-testid={`add-account-${profile.id}`}
            >
              +
            </button>
            <EditConnectionButton profile={profile} tabIndex={-1} />
            <button
              type="button"
              className="icon-button tree-remove"
              tabIndex={-1}
              data-tree-stop=""
              onClick={() => setRemoving({ profile })}
              title={`Remove the connection ${profile.name}...`}
              aria-label={`Remove connection ${profile.name}`}
              data-testid={`remove-connection-${profile.id}`}
            >
              {'\u00D7'}
            </button>
          </div>
          <SignInNote profile={profile} onError={setError} />
          <WorkOffline profile={profile} onError={setError} />
          <ul className="tree-list">
            {shownRows(rows).map(({ account, depth }) => {
              const isSel = sameAccount(selected, account);
              const stop = isSel || (!selectedVisible && visible[0]?.account === account);
              const digit = shortcutOf.get(`${account.profileId}/${account.accountId}`);
              return (
                <li key={account.accountId} className={`tree-row${isSel ? ' is-selected' : ''}`}>
                  <button
                    type="button"
                    className={`tree-item depth-${depth}${isSel ? ' is-selected' : ''}`}
                    aria-current={isSel ? 'true' : undefined}
                    tabIndex={stop ? 0 : -1}
                    data-tree-item=""
                    data-tree-stop=""
                    onKeyDown={(e) => onItemKey(e, account)}
                    // The pointer or the focus on an account reads its first page ahead of the click.
                    onPointerEnter={() => useCampaigns.getState().prefetch(account, account.campaignCount)}
                    onFocus={() => useCampaigns.getState().prefetch(account, account.campaignCount)}
                    title={digit ? `${account.name || account.accountId} (${MOD_KEY}+${digit})` : account.name || account.accountId}
                    aria-keyshortcuts={digit ? `Control+${digit} Meta+${digit}` : undefined}
                    onClick={() => select({ profileId: account.profileId, accountId: account.accountId })}
                    onContextMenu={(e) => {
                      if (account.type !== 'ADVERTISER') return;
                      e.preventDefault();
                      setSettingsOf(account);
                    }}
                    data-testid={`account-${account.accountId}`}
                  >
                    <span className="tree-item-name">{account.name || account.accountId}</span>
                    {account.type === 'NETWORK' ? <span className="tag">network</span> : null}
                    <NoAccessTag account={account} />
                    {account.queued > 0 ? (
                      <span className="count-badge" title={`${account.queued} queued change${account.queued === 1 ? '' : 's'}`}>
                        {account.queued}
                      </span>
                    ) : null}
                  </button>
                  {account.type === 'ADVERTISER' ? (
                    <button
                      type="button"
                      className="icon-button tree-remove tree-settings"
                      tabIndex={-1}
                      onClick={() => setSettingsOf(account)}
                      title={`What ${account.name || account.accountId} may use (Shift+F10)`}
                      aria-label={`Account settings of ${account.name || account.accountId}`}
                      data-testid={`account-settings-${account.accountId}`}
                    >
                      {'\u2699'}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="icon-button tree-remove"
                    tabIndex={-1}
                    onClick={() => setRemoving({ account })}
                    title={`Remove ${account.name || account.accountId}...`}
                    aria-label={`Remove account ${account.name || account.accountId}`}
                    data-testid={`remove-account-${account.accountId}`}
                  >
                    {'\u00D7'}
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      {error ? <p className="tree-note form-problem">{error}</p> : null}
      <button type="button" className="tree-add" onClick={() => setAdding(true)} data-testid="add-connection">
        + Add connection
      </button>
      {adding ? <AddConnectionDialog onClose={() => setAdding(false)} /> : null}
      {addAccountTo ? <AddAccountDialog profile={addAccountTo} onClose={() => setAddAccountTo(null)} /> : null}
      {removing && 'account' in removing ? (
        <RemoveAccountDialog
          account={removing.account}
          members={accounts.filter((a) => a.profileId === removing.account.profileId && a.networkId === removing.account.accountId)}
          onClose={() => setRemoving(null)}
        />
      ) : null}
      {settingsOf ? <AccountCapabilitiesDialog account={settingsOf} onClose={() => setSettingsOf(null)} /> : null}
      {removing && 'profile' in removing ? (
        <RemoveConnectionDialog
          profile={removing.profile}
          accounts={accounts.filter((a) => a.profileId === removing.profile.id)}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </nav>
  );
}
