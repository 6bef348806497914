// The Activity tab: what the app did for the open account, newest first. Time, account and the
// message; colour only for warnings and errors.
import { useEffect, useState } from 'react';
import type { Activity } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { formatAge } from '../../lib/format';
import { useWorkspace } from '../../stores/workspace-store';

export function ActivityView({ now, version }: { now: number; version: number }) {
  const selected = useWorkspace((s) => s.selected);
  const accounts = useWorkspace((s) => s.accounts);
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
  // An account nothing has named yet has an empty name: its id stands in, as everywhere else.
  const nameOf = (id: string | null) =>
    id === null ? 'Connection' : accounts.find((a) => a.profileId === selected?.profileId && a.accountId === id)?.name || id;
  // An entry of no connection is the app's own (the data file at start-up).
  const whoOf = (a: { profileId: string | null; accountId: string | null }) => (a.profileId === null ? 'App' : nameOf(a.accountId));
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling list must be reachable from the keyboard to scroll it (axe: scrollable-region-focusable)
    <ul className="activity" data-testid="activity-list" tabIndex={0} aria-label="Activity, newest first">
      {items.map((a) => (
        <li key={a.id} className={`activity-item level-${a.level}`} data-level={a.level}>
          <time className="muted activity-at" dateTime={new Date(a.at).toISOString()} title={new Date(a.at).toLocaleString()}>
            {new Date(a.at).toLocaleTimeString()} <span className="activity-age">({formatAge(a.at, now)})</span>
          </time>
          <span className="activity-account muted">{whoOf(a)}</span>
          {a.level !== 'info' ? <span className="activity-level">{a.level}</span> : null}
          <span className="activity-message">{a.message}</span>
        </li>
      ))}
    </ul>
  );
}
