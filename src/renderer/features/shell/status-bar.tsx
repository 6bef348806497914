// The bottom line: how fresh the cache is, what is queued and why its first change waits (from the
// outbox waits, the same source and the same ticking clock as the Outbox tab), what waits for the
// person, and the tightest rate-limit window (from the picture the Limits tab shows).
import type { AccountLimits } from '../../../shared/ipc/contract';
import { formatAge } from '../../lib/format';
import { useCampaigns } from '../../stores/campaigns-store';
import { useStatus } from '../../stores/status-store';
import { useSecondNow } from '../../stores/use-desk-events';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';
import { budgetName, windowName } from '../limits/limits-words';
import { useLimits } from '../limits/use-limits';
import { accountCounts, accountWaits, attentionWords, headWords, queuedWords } from '../lists/queue-words';

/**
 * The window with the smallest share left among the account's budgets whose limits the service
 * has told, or why there is none: unknown until the service has answered (not "not limited").
 * `elapsedMs` since the picture was taken: a window whose refill time has passed since is full
 * again (the picture is read again only when a budget moves, so a second's window emptied by a
 * burst would otherwise be shown empty until the next request). Of windows with the same share
 * left, the one that refills last is named: it is what the person waits for.
 */
export function tightestWords(limits: AccountLimits | undefined, elapsedMs = 0): string {
  const told = (limits?.budgets ?? []).filter((b) => b.model !== 'guess');
  if (told.length === 0) return 'Rate limits not known yet';
  let best: { text: string; share: number; refillMs: number } | null = null;
  for (const b of told) {
    if (b.model === 'unlimited') continue;
    for (const w of b.windows) {
      if (w.quota <= 0) continue;
      const refilled = elapsedMs > 0 && w.resetInMs !== null && w.resetInMs <= elapsedMs;
      const left = refilled ? w.quota : Math.max(0, w.quota - w.used);
      const share = left / w.quota;
      const refillMs = w.resetInMs ?? Infinity;
      if (best === null || share < best.share || (share === best.share && refillMs > best.refillMs))
        best = { text: `${budgetName(b)}: ${left} of ${w.quota} ${windowName(w)} left`, share, refillMs };
    }
  }
  return best?.text ?? 'Not rate limited';
}

export function StatusBar({ now, onOpenLimits }: { now: number; onOpenLimits?: () => void }) {
  const account = useWorkspace(selectedAccount);
  const syncedAt = useCampaigns((s) => s.syncedAt);
  const counts = useStatus((s) => s.counts);
  const waits = useStatus((s) => s.waits);
  const connection = useWorkspace((s) => s.profiles.find((p) => p.id === account?.profileId)?.connection);
  const limits = useLimits(account?.profileId ?? null);
  const tick = useSecondNow();
  if (!account) return <footer className="statusbar" data-testid="status-bar" />;
  const c = accountCounts(counts, account);
  const head = headWords(c, accountWaits(waits, account), connection, tick);
  const attention = attentionWords(c);
  const last = syncedAt ?? account.lastSyncedAt;
  return (
    <footer className="statusbar" data-testid="status-bar">
      <span data-testid="last-synced">Last synced {formatAge(last, now)}</span>
      <span aria-hidden="true">·</span>
      <span data-testid="queued-count">{queuedWords(c.onTheWay)}</span>
      {head ? <span data-testid="drain-estimate">({head})</span> : null}
      {attention ? (
        <>
          <span aria-hidden="true">·</span>
          <span className="warning" data-testid="attention-count">
            {attention}
          </span>
        </>
      ) : null}
      <span aria-hidden="true">·</span>
      {/* The tightest window; the whole picture is one click (or Alt+7) away in the Limits tab. */}
      <button
        type="button"
        className="statusbar-link"
        data-testid="rate-limit"
        onClick={onOpenLimits}
        title="Open the rate limits of this connection's accounts (Alt+7)"
        aria-keyshortcuts="Alt+7"
      >
        {tightestWords(
          limits.view?.accounts.find((a) => a.accountId === account.accountId),
          tick - limits.receivedAt,
        )}
      </button>
    </footer>
  );
}
