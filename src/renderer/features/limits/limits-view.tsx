// The Limits tab (Alt+7): for each account of the open connection (the open one first), then for
// the connection's push work, every budget the app has used since start-up, per endpoint group and
// read/write, with each window as "used of quota", when it refills and which one holds work back,
// and how long the account's queued changes will take to go out. Live from the scheduler's model
// (ratelimit.changed and outbox.changed); the countdowns tick with the window's clock.
import type { Account, AccountLimits, LimitBudget, Profile } from '../../../shared/ipc/contract';
import { useSecondNow } from '../../stores/use-desk-events';
import { useStatus } from '../../stores/status-store';
import { accountCounts, accountWaits, headWords, queuedWords } from '../lists/queue-words';
import { useWorkspace } from '../../stores/workspace-store';
import { blockedLabel, budgetName, modelNote, refillLabel, usedOfQuota, windowName } from './limits-words';
import { useLimits } from './use-limits';

/** The tab as the app shows it: its countdowns move every second while it is open. */
export function LimitsTab() {
  const now = useSecondNow();
  return <LimitsView now={now} />;
}

function BudgetRows({ budget, elapsed }: { budget: LimitBudget; elapsed: number }) {
  const note = modelNote(budget);
  const blocked = blockedLabel(budget, elapsed);
  const head = (
    <th scope="row" rowSpan={Math.max(1, budget.windows.length)} className="limits-budget">
      {budgetName(budget)}
      {note ? <div className="muted limits-note">{note}</div> : null}
      {blocked ? (
        <div className="limits-holding" data-testid="limits-blocked">
          {blocked}
        </div>
      ) : null}
    </th>
  );
  if (budget.windows.length === 0) {
    return (
      <tr data-testid="limits-window" data-group={budget.group} data-budget={budget.budget}>
        {head}
        <td colSpan={4} className="muted">
          No windows: nothing holds these requests back
        </td>
      </tr>
    );
  }
  return (
    <>
      {budget.windows.map((w, i) => (
        <tr
          key={w.name}
          className={w.holding ? 'is-holding' : undefined}
          data-testid="limits-window"
          data-group={budget.group}
          data-budget={budget.budget}
          data-window={w.name}
          data-holding={w.holding ? 'true' : 'false'}
        >
          {i === 0 ? head : null}
          <td>{windowName(w)}</td>
          <td className="limits-used">
            <meter
              min={0}
              max={w.quota}
              low={w.quota * 0.5}
              high={w.quota * 0.9}
              optimum={0}
              value={Math.min(w.used, w.quota)}
              aria-label={`${budgetName(budget)} ${windowName(w)}: ${usedOfQuota(w)}`}
            />
            <span data-testid="limits-used">{usedOfQuota(w)}</span>
          </td>
          <td data-testid="limits-refill">{refillLabel(w, elapsed)}</td>
          <td>{w.holding ? <span className="limits-holding">Holding work back</span> : null}</td>
        </tr>
      ))}
    </>
  );
}

/** Every window of the given budgets, a row each, under one header. */
function BudgetTable({ caption, budgets, elapsed }: { caption: string; budgets: LimitBudget[]; elapsed: number }) {
  return (
    <table className="list limits-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Budget</th>
          <th scope="col">Window</th>
          <th scope="col">Used of quota</th>
          <th scope="col">Refills</th>
          <th scope="col">
            <span className="visually-hidden">Holding work back</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {budgets.map((b) => (
          <BudgetRows key={`${b.group}/${b.budget}`} budget={b} elapsed={elapsed} />
        ))}
      </tbody>
    </table>
  );
}

function AccountCard({
  profileId,
  limits,
  account,
  open,
  elapsed,
  now,
  connection,
}: {
  profileId: string;
  limits: AccountLimits;
  account: Account | undefined;
  open: boolean;
  elapsed: number;
  now: number;
  connection: Profile['connection'];
}) {
  // The queue in the status bar's words and from its source (outbox counts and waits), on the same ticking clock.
  const counts = useStatus((s) => s.counts);
  const waits = useStatus((s) => s.waits);
  const ref = { profileId, accountId: limits.accountId };
  const c = accountCounts(counts, ref);
  const head = headWords(c, accountWaits(waits, ref), connection, now);
  const name = account?.name || limits.accountId;
  const headingId = `limits-heading-${limits.accountId}`;
  return (
    <section className="limits-account" aria-labelledby={headingId} data-testid={`limits-account-${limits.accountId}`}>
      <h2 id={headingId} className="limits-title">
        {name}
        {open ? <span className="tag">open</span> : null}
      </h2>
      <p className="limits-summary">
        <span data-testid="limits-queued">{queuedWords(c.onTheWay)}</span>
        {head ? (
          <>
            <span aria-hidden="true"> · </span>
            <span data-testid="limits-drain">{head}</span>
          </>
        ) : null}
      </p>
      {limits.budgets.length === 0 ? (
        <p className="muted limits-note" data-testid="limits-none">
          Nothing read or sent since start-up: its limits are learned from the service&apos;s first answer.
        </p>
      ) : (
        <BudgetTable caption={`Rate limits of ${name}`} budgets={limits.budgets} elapsed={elapsed} />
      )}
    </section>
  );
}

/**
 * The connection's push budgets: the push API names no account, so every account's push work
 * (sends, task edits, service worker paths, and reading apps and tasks) shares them.
 */
function PushCard({ budgets, elapsed }: { budgets: LimitBudget[]; elapsed: number }) {
  return (
    <section className="limits-account" aria-labelledby="limits-heading-push" data-testid="limits-push">
      <h2 id="limits-heading-push" className="limits-title">
        Push notifications
      </h2>
      <p className="limits-summary muted">
        Shared by every account of this connection: push requests name no account, so they count against the connection's own budget.
      </p>
      <BudgetTable caption="Rate limits of push notifications" budgets={budgets} elapsed={elapsed} />
    </section>
  );
}

export function LimitsView({ now }: { now: number }) {
  const selected = useWorkspace((s) => s.selected);
  const accounts = useWorkspace((s) => s.accounts);
  const connection = useWorkspace((s) => s.profiles.find((p) => p.id === s.selected?.profileId)?.connection ?? 'unknown');
  const { view, receivedAt, error } = useLimits(selected?.profileId ?? null);
  if (!selected) return null;
  const elapsed = Math.max(0, now - receivedAt);
  const all = view?.accounts ?? [];
  const ordered = [...all.filter((a) => a.accountId === selected.accountId), ...all.filter((a) => a.accountId !== selected.accountId)];
  const accountOf = (id: string) => accounts.find((a) => a.profileId === selected.profileId && a.accountId === id);
  return (
    // Focusable so the keyboard can scroll a long list of accounts.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="limits" data-testid="limits-view" tabIndex={0} aria-label="Rate limits of this connection's accounts">
      {error ? (
        <p className="notice form-problem" role="alert">
          {error}
        </p>
      ) : null}
      <p className="muted limits-intro">
        What the app has learned of each budget from the service&apos;s rate-limit headers. A request goes out only when it fits every
        window, so the service never has to refuse one.
      </p>
      {view && ordered.length === 0 ? <p className="muted panel-empty">This connection has no accounts yet.</p> : null}
      {ordered.map((a) => (
        <AccountCard
          key={a.accountId}
          profileId={selected.profileId}
          limits={a}
          account={accountOf(a.accountId)}
          open={a.accountId === selected.accountId}
          elapsed={elapsed}
          now={now}
          connection={connection}
        />
      ))}
      {view && view.push.length > 0 ? <PushCard budgets={view.push} elapsed={elapsed} /> : null}
    </div>
  );
}
