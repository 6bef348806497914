// The application's service worker path: shown, and changeable (apps.setSwPath, queued).
import { useState } from 'react';
import { swPathProblems } from '../../../shared/domain/push';
import type { App } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { useTasks } from '../../stores/tasks-store';
import type { AccountRef } from '../../../shared/domain/account';

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
          const item = await call('apps.setSwPath', {
            profileId: account.profileId,
            accountId: account.accountId,
            appId: app.appId,
            serviceWorkerPath: path,
            performer,
          });
          say(`Queued: ${item.summary}.`, false);
          setEditing(false);
        } catch (err) {
          say(messageOf(err), true);
        }
      }}
      onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
    >
      <input
        aria-label="Service worker path"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        placeholder="/sw.js"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the person just asked for this field (its button opened it)
        autoFocus
        data-testid="sw-path-input"
      />
      <input aria-label="Performer" value={performer} onChange={(e) => setPerformer(e.target.value)} placeholder="performer" />
      <button type="submit" disabled={problems.length > 0}>
        Queue
      </button>
      <button type="button" onClick={() => setEditing(false)} title="Escape">
        Cancel
      </button>
      <span className="form-hint muted sw-help" data-testid="sw-path-help">
        The path of the service worker file from the root of the application's domain, starting with "/" (e.g. /push/sw.js); the file must
        be reachable there. Change it when the file is not at the default place, another worker already uses it, the site lives in a
        subdirectory, or the worker moved. The service answers 400 when the request is not valid or this connection may not change this
        application, and 404 when the application id (container) is not known to it; either shows in the Outbox with the service's words.
      </span>
      {problems.map((p) => (
        <span key={p.message} className="form-problem">
          {p.message}
        </span>
      ))}
    </form>
  );
}
