// Scheduled pushes of this account that were not sent because their time passed while they waited
// (offline, or a long queue). Each is fixed in one click: the same outbox item is queued again.
import { useEffect } from 'react';
import { onEvent } from '../../lib/api';
import { usePush } from '../../stores/push-store';
import { scheduleLabel, timeFixes } from '../../forms/schedule';

export function BlockedPushes({ serviceNow }: { serviceNow: number }) {
  const blocked = usePush((s) => s.blocked);
  const account = usePush((s) => s.account);
  useEffect(() => {
    void usePush.getState().loadBlocked();
    return onEvent('outbox.changed', (e) => {
      if (e.profileId === usePush.getState().account?.profileId) void usePush.getState().loadBlocked();
    });
  }, [account]);
  if (blocked.length === 0) return null;
  return (
    <section className="blocked-pushes" aria-label="Pushes whose time passed" data-testid="blocked-pushes">
      <h3 className="section-title">Not sent: the time passed while waiting</h3>
      {blocked.map((b) => (
        <div key={b.id} className="blocked-push" data-testid="blocked-push">
          <div>
            <strong>{b.title || `Push ${b.id}`}</strong>{' '}
            <span className="muted">{b.executionTime !== null ? `was due ${scheduleLabel(b.executionTime, b.userTimeZone)}` : ''}</span>
          </div>
          <div className="time-fixes" role="group" aria-label={`New time for ${b.title}`}>
            {timeFixes(b.executionTime ?? undefined, serviceNow).map((fix) => (
              <button
                key={fix.label}
                type="button"
                onClick={() => void usePush.getState().reschedule(b.id, fix.executionTime)}
                data-testid={`blocked-fix-${fix.executionTime === null ? 'now' : fix.label.startsWith('In') ? 'hour' : 'tomorrow'}`}
              >
                {fix.label}
              </button>
            ))}
          </div>
        </div>
      ))}
    </section>
  );
}
