// The bottom line: how fresh the cache is, what is queued and when it will all be sent (the rate
// limit's estimate, while the connection may send), and the tightest rate-limit window.
import { formatAge, formatWindow } from '../../lib/format';
import { useCampaigns } from '../../stores/campaigns-store';
import { countIn, PENDING_STATES, tightestWindow, useStatus } from '../../stores/status-store';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';
import { drainLabel } from '../limits/limits-words';
import { useLimits } from '../limits/use-limits';

export function StatusBar({ now, onOpenLimits }: { now: number; onOpenLimits?: () => void }) {
  const account = useWorkspace(selectedAccount);
  const syncedAt = useCampaigns((s) => s.syncedAt);
  const counts = useStatus((s) => s.counts);
  const rateLimits = useStatus((s) => s.rateLimits);
  const connection = useWorkspace((s) => s.profiles.find((p) => p.id === account?.profileId)?.connection);
  const limits = useLimits(account?.profileId ?? null);
  if (!account) return <footer className="statusbar" data-testid="status-bar" />;
  const queued = countIn(counts, account, PENDING_STATES) || account.queued;
  const tight = tightestWindow(rateLimits, account.profileId, account.accountId);
  const last = syncedAt ?? account.lastSyncedAt;
  // Offline, working offline or signing in, no time can be promised: the Outbox says why it waits.
  const drain = connection === 'online' || connection === 'unknown' ? limits.view?.accounts.find((a) => a.accountId === account.accountId) : undefined;
  return (
    <footer className="statusbar" data-testid="status-bar">
      <span data-testid="last-synced">Last synced {formatAge(last, now)}</span>
      <span aria-hidden="true">·</span>
      <span data-testid="queued-count">{queued === 0 ? 'Nothing queued' : `${queued} queued`}</span>
      {drain && drain.queued > 0 ? <span data-testid="drain-estimate">({drainLabel(drain, Math.max(0, now - limits.receivedAt)).toLowerCase()})</span> : null}
      <span aria-hidden="true">·</span>
      {/* The tightest window; the whole picture is one click (or Alt+7) away in the Limits tab. */}
      <button type="button" className="statusbar-link" data-testid="rate-limit" onClick={onOpenLimits} title="Open the rate limits of this connection's accounts (Alt+7)" aria-keyshortcuts="Alt+7">
        {tight ? `${tight.group}: ${tight.left}/${tight.quota} per ${formatWindow(tight.windowMs)} left` : 'Not rate limited'}
      </button>
    </footer>
  );
}
