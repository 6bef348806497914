// The left sidebar: connections and their accounts, a network holding its members, a dot for the
// connection state and a badge for queued changes.
import { treeOrder, useWorkspace } from '../../stores/workspace-store';
import { ConnectionDot } from './connection-dot';

export function AccountTree() {
  const { profiles, accounts, selected, select, loaded } = useWorkspace();
  const groups = treeOrder(profiles, accounts);
  return (
    <nav className="tree" aria-label="Connections and accounts" data-testid="account-tree">
      <div className="tree-title">Connections</div>
      {loaded && groups.length === 0 ? <p className="muted tree-empty">No connections yet.</p> : null}
      {groups.map(({ profile, rows }) => (
        <div key={profile.id} className="tree-group">
          <div className="tree-profile" title={profile.baseUrl}>
            <ConnectionDot state={profile.connection} />
            <span className="tree-profile-name">{profile.name}</span>
          </div>
          <ul className="tree-list">
            {rows.map(({ account, depth }) => {
              const isSel = selected?.profileId === account.profileId && selected.accountId === account.accountId;
              return (
                <li key={account.accountId}>
                  <button
                    type="button"
                    className={`tree-item depth-${depth}${isSel ? ' is-selected' : ''}`}
                    aria-current={isSel ? 'true' : undefined}
                    onClick={() => select({ profileId: account.profileId, accountId: account.accountId })}
                    data-testid={`account-${account.accountId}`}
                  >
                    <span className="tree-item-name">{account.name || account.accountId}</span>
                    {account.type === 'NETWORK' ? <span className="tag">network</span> : null}
                    {account.queued > 0 ? (
                      <span className="count-badge" title={`${account.queued} queued change${account.queued === 1 ? '' : 's'}`}>
                        {account.queued}
                      </span>
                    ) : null}
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      <button type="button" className="tree-add" disabled title="Adding connections arrives with the profiles screen">
        + Add connection
      </button>
    </nav>
  );
}
