// The main window: top bar, account tree, tabs with the open account's views, status bar.
import { useEffect, useState } from 'react';
import { AccountSwitcher } from './features/shell/account-switcher';
import { AccountTree } from './features/shell/account-tree';
import { StatusBar } from './features/shell/status-bar';
import { TABS, Tabs, type Tab } from './features/shell/tabs';
import { NoAccessNote } from './features/shell/no-access';
import { TopBar } from './features/shell/top-bar';
import { CampaignsView } from './features/campaigns/campaigns-view';
import { ActivityView } from './features/lists/activity-view';
import { OutboxView } from './features/lists/outbox-view';
import { DraftsView } from './features/drafts/drafts-view';
import { useDrafts } from './stores/drafts-store';
import { PushView } from './features/push/push-view';
import { usePush } from './stores/push-store';
import { TasksView } from './features/tasks/tasks-view';
import { LimitsTab } from './features/limits/limits-view';
import { useTasks } from './stores/tasks-store';
import { useDeskEvents, useNow } from './stores/use-desk-events';
import { keepDraftHistory } from './stores/draft-history-keeper';
import { OfflineBanner } from './features/shell/offline-banner';
import { useCampaigns } from './stores/campaigns-store';
import { useStatus } from './stores/status-store';
import { accountCounts, attentionWords } from './features/lists/queue-words';
import { useViews } from './stores/view-store';
import { sameAccount } from '../shared/domain/account';
import { treeOrder, useWorkspace } from './stores/workspace-store';

export function App() {
  const activityVersion = useDeskEvents();
  const now = useNow();
  const [tab, setTab] = useState<Tab>('campaigns');
  const [switcher, setSwitcher] = useState(false);
  const selected = useWorkspace((s) => s.selected);
  const error = useWorkspace((s) => s.error);
  const loaded = useWorkspace((s) => s.loaded);
  const counts = useStatus((s) => s.counts);
  const viewsLoaded = useViews((s) => s.loaded);
  const accounts = useWorkspace((s) => s.accounts);
  const [restored, setRestored] = useState(false);

  useEffect(() => void useViews.getState().load(), []);
  useEffect(() => keepDraftHistory(), []);
  // The outbox's items (sent history included) are read only while its tab shows them.
  useEffect(() => useStatus.getState().setOutboxOpen(tab === 'outbox'), [tab]);

  // Once both the accounts and the saved window are known, reopen the account and tab left open
  // (if that account is still there); from then on every change of either is saved.
  useEffect(() => {
    if (restored || !viewsLoaded || !loaded) return;
    const saved = useViews.getState().view;
    const ref = saved.account;
    if (ref && accounts.some((a) => sameAccount(a, ref))) useWorkspace.getState().select(ref);
    if (saved.tab && (TABS as readonly string[]).includes(saved.tab)) setTab(saved.tab as Tab);
    setRestored(true);
  }, [restored, viewsLoaded, loaded, accounts]);

  useEffect(() => {
    if (restored) useViews.getState().setOpen({ tab });
  }, [restored, tab]);

  useEffect(() => {
    // Views of the account are applied when it opens, so wait for the saved ones.
    if (!restored) return;
    if (selected && !sameAccount(useViews.getState().view.account ?? null, selected)) useViews.getState().setOpen({ account: selected });
    useCampaigns.getState().setAccount(selected);
    useDrafts.getState().setAccount(selected);
    usePush.getState().setAccount(selected);
    useTasks.getState().setAccount(selected);
  }, [selected, restored]);
  const draftCount = useDrafts((s) => s.drafts.length);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Alt+1..7 picks a tab (the digit row's code, so it works on any keyboard layout).
      const digit = /^Digit([1-7])$/.exec(e.code);
      if (digit && e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && !document.querySelector('[role="dialog"]')) {
        e.preventDefault();
        setTab(TABS[Number(digit[1]) - 1]);
        return;
      }
      // Ctrl/Cmd+1..9 opens the first nine accounts of the tree (tabs are on Alt+1..7).
      const account = /^Digit([1-9])$/.exec(e.code);
      if (account && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && !document.querySelector('[role="dialog"]')) {
        const ws = useWorkspace.getState();
        const target = treeOrder(ws.profiles, ws.accounts).flatMap((g) => g.rows)[Number(account[1]) - 1]?.account;
        if (target) {
          e.preventDefault();
          ws.select({ profileId: target.profileId, accountId: target.accountId });
        }
        return;
      }
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setSwitcher((o) => !o);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The Outbox tab counts what the status bar calls queued; failed and blocked ones are said beside it.
  const outboxCounts = selected ? accountCounts(counts, selected) : null;

  return (
    <div className="app">
      <a className="skip-link" href="#main" data-testid="skip-link">
        Skip to the account&apos;s views
      </a>
      <TopBar onOpenSwitcher={() => setSwitcher(true)} />
      <AccountTree />
      <main className="main" id="main" tabIndex={-1} aria-label="Account">
        {error ? (
          <p className="toolbar-error panel-empty" role="alert">
            {error}
          </p>
        ) : null}
        {selected ? (
          <>
            <NoAccessNote />
            <OfflineBanner />
            <Tabs
              current={tab}
              onChange={setTab}
              counts={{ outbox: outboxCounts?.onTheWay ?? 0, drafts: draftCount }}
              attention={{ outbox: outboxCounts ? attentionWords(outboxCounts) : null }}
            />
            <section id="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`} className="tab-panel">
              {tab === 'campaigns' ? <CampaignsView now={now} onOpenDrafts={() => setTab('drafts')} /> : null}
              {tab === 'outbox' ? (
                <OutboxView now={now} links={{ onOpenDrafts: () => setTab('drafts'), onOpenCampaigns: () => setTab('campaigns') }} />
              ) : null}
              {tab === 'activity' ? <ActivityView now={now} version={activityVersion} /> : null}
              {tab === 'drafts' ? (
                <DraftsView
                  now={now}
                  onOpenPush={(d) => {
                    usePush.getState().open(d);
                    setTab('push');
                  }}
                />
              ) : null}
              {tab === 'push' ? <PushView now={now} /> : null}
              {tab === 'tasks' ? <TasksView now={now} /> : null}
              {tab === 'limits' ? <LimitsTab /> : null}
            </section>
          </>
        ) : loaded && !error ? (
          <p className="muted panel-empty">No account yet. Add a connection and an account to begin.</p>
        ) : null}
      </main>
      <StatusBar now={now} onOpenLimits={() => setTab('limits')} />
      <AccountSwitcher open={switcher} onClose={() => setSwitcher(false)} />
    </div>
  );
}
