// One place where core events reach the stores. Subscribes before the first load, so nothing that
// happens between the load and the subscription can be missed.
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { onEvent } from '../lib/api';
import { useCampaigns } from './campaigns-store';
import { useDrafts } from './drafts-store';
import { usePush } from './push-store';
import { useTasks } from './tasks-store';
import { useServiceClock } from './service-clock-store';
import { useStatus } from './status-store';
import { useWorkspace } from './workspace-store';

/**
 * Feeds the stores from the core's events and loads what they show first; returns the unsubscribe.
 * Each event reloads only what it names, since a refresh sends one every second.
 */
export function subscribeDeskEvents(onActivity: () => void): () => void {
  const offs = [
    onEvent('data.changed', (e) => {
      // A removed or restored connection also changes the demo's state in the app info; so does a removed demo account.
      if (e.what === 'profiles') void useWorkspace.getState().load();
      if (e.what === 'accounts') void useWorkspace.getState().reload({ info: true, accounts: true });
      if (e.what === 'activity') onActivity();
      if (e.what === 'apps') void usePush.getState().loadApps();
      if (e.what === 'tasks' && (e.profileId === null || e.profileId === useTasks.getState().account?.profileId))
        void useTasks.getState().load();
      if (e.what === 'drafts') {
        const open = useDrafts.getState().account;
        if (open && e.profileId === open.profileId && (e.accountId === null || e.accountId === open.accountId))
          void useDrafts.getState().load();
      }
      if (e.what === 'campaigns') {
        const open = useCampaigns.getState().account;
        const forOpen =
          open && (e.profileId === null || e.profileId === open.profileId) && (e.accountId === null || e.accountId === open.accountId);
        // A network's list holds its members' campaigns, so a member's change refreshes it too.
        const network =
          open &&
          useWorkspace.getState().accounts.find((a) => a.profileId === open.profileId && a.accountId === open.accountId)?.type ===
            'NETWORK';
        if (forOpen || (network && e.profileId === open?.profileId)) useCampaigns.getState().refresh();
        // The accounts' counts and sync times (a network's refresh may also add member accounts).
        void useWorkspace.getState().reload({ accounts: true });
      }
    }),
    onEvent('sync.progress', (p) => useStatus.getState().setSync(p)),
    onEvent('connection.changed', (c) => {
      useWorkspace.getState().setConnection(c.profileId, c.connection);
      // The sign-in state and its reason travel with the profile: read the profiles again.
      void useWorkspace.getState().reload({ profiles: true });
    }),
    onEvent('service.clock', (c) => useServiceClock.getState().set(c.profileId, c.offsetMs)),
    onEvent('ratelimit.changed', () => void useStatus.getState().loadRateLimits()),
    onEvent('outbox.changed', (e) => {
      void useStatus.getState().loadOutbox();
      // Each account shows how many of its changes wait.
      void useWorkspace.getState().reload({ accounts: true });
      // Drafts shows each queued change's item state (queued, sending, failed, ...).
      const open = useDrafts.getState().account;
      if (open && e.profileId === open.profileId && (e.accountId === '' || e.accountId === open.accountId))
        void useDrafts.getState().load();
    }),
  ];
  void useWorkspace.getState().load();
  void useStatus.getState().loadRateLimits();
  void useStatus.getState().loadOutbox();
  return () => offs.forEach((off) => off());
}

/** Returns a counter that moves whenever activity changed, for views that list it. */
export function useDeskEvents(): number {
  const [activityVersion, setActivityVersion] = useState(0);
  useEffect(() => subscribeDeskEvents(() => setActivityVersion((v) => v + 1)), []);
  return activityVersion;
}

/** The current time, updated every `ms` (ages in the UI are approximate by design). */
export function useNow(ms = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/**
 * One ticking "now" for every countdown on screen: it ticks each second while some view shows a
 * countdown, and every view reads the same value, so the status bar, the Outbox and the Limits tab
 * never show three different numbers for one wait (nor one frozen for 15 s).
 */
const useTick = create<{ now: number }>(() => ({ now: Date.now() }));
let tickUsers = 0;
let tickTimer: ReturnType<typeof setInterval> | undefined;

export function useSecondNow(): number {
  useEffect(() => {
    if (tickUsers++ === 0) {
      useTick.setState({ now: Date.now() });
      tickTimer = setInterval(() => useTick.setState({ now: Date.now() }), 1_000);
    }
    return () => {
      if (--tickUsers === 0) clearInterval(tickTimer);
    };
  }, []);
  return useTick((s) => s.now);
}
