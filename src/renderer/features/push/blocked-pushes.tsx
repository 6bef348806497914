// Scheduled pushes of this account that were not sent because their time passed while they waited
// (offline, or a long queue). Each is fixed in one click, here in the Push tab and on its row in
// the Outbox: the same outbox item is queued again with a new time, or to be sent now.
import { useEffect } from 'react';
import type { BlockedPush } from '../../../shared/ipc/contract';
import { onEvent } from '../../lib/api';
import { usePush } from '../../stores/push-store';
import { scheduleLabel, timeFixes } from '../../forms/schedule';

/**
 * The open account's blocked pushes, kept current: loaded when shown and again whenever its outbox
 * changes (a push blocks, or a fix queues it again). Both the Push tab and the Outbox read them.
 */
export function useBlockedPushes(): BlockedPush[] {
  const blocked = usePush((s) => s.blocked);
  const account = usePush((s) => s.account);
  useEffect(() => {
    void usePush.getState().loadBlocked();
    return onEvent('outbox.changed', (e) => {
      if (e.profileId === usePush.getState().account?.profileId) void usePush.getState().loadBlocked();
    });
  }, [account]);
  return blocked;
}

/**
 * The one-click new times of a blocked push (in 1 hour and tomorrow at the time asked for, on the
 * service's clock, or send now); `onFix` gets the new time, null to send it now.
 */
export function BlockedPushFixes({
  push,
  serviceNow,
  onFix,
}: {
  push: BlockedPush;
  serviceNow: number;
  onFix(executionTime: number | null): void;
}) {
  return (
    <div className="time-fixes" role="group" aria-label={`New time for ${push.title || `push ${push.id}`}`}>
      {timeFixes(push.executionTime ?? undefined, serviceNow).map((fix) => (
        <button
          key={fix.label}
          type="button"
          onClick={() => onFix(fix.executionTime)}
          data-testid={`blocked-fix-${fix.executionTime === null ? 'now' : fix.label.startsWith('In') ? 'hour' : 'tomorrow'}`}
        >
          {fix.label}
        </button>
      ))}
    </div>
  );
}

export function BlockedPushes({ serviceNow }: { serviceNow: number }) {
  const blocked = useBlockedPushes();
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
          <BlockedPushFixes push={b} serviceNow={serviceNow} onFix={(t) => void usePush.getState().reschedule(b.id, t)} />
        </div>
      ))}
    </section>
  );
}
