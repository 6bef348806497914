// The Activity tab: what the app did for the open account, newest first.
import { useEffect, useState } from 'react';
import type { Activity } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { formatAge } from '../../lib/format';
import { useWorkspace } from '../../stores/workspace-store';

export function ActivityView({ now, version }: { now: number; version: number }) {
  const selected = useWorkspace((s) => s.selected);
  const [items, setItems] = useState<Activity[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!selected) return;
    let live = true;
    call('activity.list', { profileId: selected.profileId, limit: 200 })
      .then((all) => live && setItems(all.filter((a) => a.accountId === null || a.accountId === selected.accountId)))
      .catch((err) => live && setError(messageOf(err)));
    return () => {
      live = false;
    };
  }, [selected, version]);
  if (error) return <p className="toolbar-error panel-empty">{error}</p>;
  if (items.length === 0) return <p className="muted panel-empty">No activity yet.</p>;
  return (
    <ul className="activity" data-testid="activity-list">
      {items.map((a) => (
        <li key={a.id} className={`activity-item level-${a.level}`}>
          <span className="muted activity-at">{formatAge(a.at, now)}</span>
          <span>{a.message}</span>
        </li>
      ))}
    </ul>
  );
}
