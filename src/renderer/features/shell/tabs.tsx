// Tabs per account; the ones holding pending work show a count. Limits (the rate-limit view) is
// last: it looks at the account's budgets rather than its work.
export const TABS = ['campaigns', 'drafts', 'push', 'tasks', 'outbox', 'activity', 'limits'] as const;
export type Tab = (typeof TABS)[number];
const TITLES: Record<Tab, string> = {
  campaigns: 'Campaigns',
  drafts: 'Drafts',
  push: 'Push',
  tasks: 'Tasks',
  outbox: 'Outbox',
  activity: 'Activity',
  limits: 'Limits',
};

/**
 * `counts`: the number on a tab (the Outbox's counts what is on its way, as the status bar's
 * "queued" does); `attention`: what waits for the person there, said apart ("1 failed").
 */
export function Tabs({
  current,
  onChange,
  counts,
  attention = {},
}: {
  current: Tab;
  onChange(t: Tab): void;
  counts: Partial<Record<Tab, number>>;
  attention?: Partial<Record<Tab, string | null>>;
}) {
  return (
    <div className="tabs" role="tablist" aria-label="Account views">
      {TABS.map((t, i) => (
        <button
          key={t}
          type="button"
          role="tab"
          id={`tab-${t}`}
          aria-selected={t === current}
          aria-controls="tab-panel"
          tabIndex={t === current ? 0 : -1}
          className={`tab${t === current ? ' is-active' : ''}`}
          onClick={() => onChange(t)}
          onKeyDown={(e) => {
            const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
            if (step) {
              e.preventDefault();
              const next = TABS[(i + step + TABS.length) % TABS.length];
              onChange(next);
              document.getElementById(`tab-${next}`)?.focus();
            }
          }}
          data-testid={`tab-${t}`}
          title={`${TITLES[t]} (Alt+${i + 1})`}
          aria-keyshortcuts={`Alt+${i + 1}`}
        >
          {TITLES[t]}
          {counts[t] ? (
            <span className="count-badge" data-testid={`tab-${t}-count`}>
              {counts[t]}
            </span>
          ) : null}
          {attention[t] ? (
            <span className="count-badge attention-badge" data-testid={`tab-${t}-attention`}>
              {attention[t]}
            </span>
          ) : null}
        </button>
      ))}
    </div>
  );
}
