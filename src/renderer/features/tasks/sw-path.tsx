// The application's service worker path: shown, and changeable (apps.setSwPath, queued).
import { useState } from 'react';
import { swPathProblems } from '../../../shared/domain/push';
import type { App } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { useTasks } from '../../stores/tasks-store';
import type { AccountRef } from '../../stores/workspace-store';

export function SwPath({ app, account }: { app: App; account: AccountRef }) {
  const [editing, setEditing] = useState(false);
  const [path, setPath] = useState(app.swPath ?? '');
  const [performer, setPerformer] = useState('');
  const say = useTasks((s) => s.say);
  const problems = swPathProblems({ containerId: app.appId, serviceWorkerPath: path, performer });
  if (!editing) {
    return (
      <span className="sw-path" data-testid="sw-path">
        <span className="muted">Service worker:</span> <code>{app.swPath ?? 'not known'}</code>{' '}
        <button type="button" onClick={() => setEditing(true)} data-testid="sw-path-change">
          Change...
        </button>
      </span>
    );
  }
  return (
    <form
      className="sw-path"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          const item = await call('apps.setSwPath', { profileId: account.profileId, accountId: account.accountId, appId: app.appId, serviceWorkerPath: path, performer });
          say(`Queued: ${item.summary}.`, false);
          setEditing(false);
        } catch (err) {
          say(messageOf(err), true);
        }
      }}
      onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
    >
      <input aria-label="Service worker path" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/sw.js" autoFocus data-testid="sw-path-input" />
      <input aria-label="Performer" value={performer} onChange={(e) => setPerformer(e.target.value)} placeholder="performer" />
      <button type="submit" disabled={problems.length > 0}>
        Queue
      </button>
      <button type="button" onClick={() => setEditing(false)} title="Escape">
        Cancel
      </button>
      <span className="form-hint muted">Must start with "/" (a path from the domain root).</span>
      {problems.map((p) => (
        <span key={p.message} className="form-problem">
          {p.message}
        </span>
      ))}
    </form>
  );
}
