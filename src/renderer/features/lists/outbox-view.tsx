// The Outbox tab: changes waiting to be sent (or needing attention) for the open account.
import { formatAge } from '../../lib/format';
import { useStatus } from '../../stores/status-store';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';

export function OutboxView({ now }: { now: number }) {
  const account = useWorkspace(selectedAccount);
  const items = useStatus((s) => s.outbox).filter((o) => account && o.profileId === account.profileId && o.accountId === account.accountId);
  if (items.length === 0) return <p className="muted panel-empty">Nothing queued for this account.</p>;
  return (
    <table className="list" data-testid="outbox-list">
      <thead>
        <tr>
          <th>Change</th>
          <th>State</th>
          <th>Attempts</th>
          <th>Updated</th>
          <th>What to do</th>
        </tr>
      </thead>
      <tbody>
        {items.map((o) => (
          <tr key={o.id} data-testid="outbox-item" data-state={o.state}>
            <td>{o.summary}</td>
            <td>
              <span className={`badge outbox-${o.state}`}>{o.state}</span>
            </td>
            <td>{o.attempts}</td>
            <td>{formatAge(o.updatedAt, now)}</td>
            <td>{o.fix ?? o.lastError?.message ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
