// One place where core events reach the stores. Subscribes before the first load, so nothing that
// happens between the load and the subscription can be missed.
import { useEffect, useState } from 'react';
import { onEvent } from '../lib/api';
import { useCampaigns } from './campaigns-store';
import { useDrafts } from './drafts-store';
import { usePush } from './push-store';
import { useTasks } from './tasks-store';
import { useStatus } from './status-store';
import { useWorkspace } from './workspace-store';

/** Returns a counter that moves whenever activity changed, for views that list it. */
export function useDeskEvents(): number {
  const [activityVersion, setActivityVersion] = useState(0);
  useEffect(() => {
    const offs = [
      onEvent('data.changed', (e) => {
        if (e.what === 'profiles' || e.what === 'accounts') void useWorkspace.getState().load();
        if (e.what === 'activity') setActivityVersion((v) => v + 1);
        if (e.what === 'apps') void usePush.getState().loadApps();
        if (e.what === 'tasks' && (e.profileId === null || e.profileId === useTasks.getState().account?.profileId)) void useTasks.getState().load();
        if (e.what === 'drafts') {
          const open = useDrafts.getState().account;
          if (open && e.profileId === open.profileId && (e.accountId === null || e.accountId === open.accountId)) void useDrafts.getState().load();
        }
        if (e.what === 'campaigns') {
          const open = useCampaigns.getState().account;
          const forOpen = open && (e.profileId === null || e.profileId === open.profileId) && (e.accountId === null || e.accountId === open.accountId);
          // A network's list holds its members' campaigns, so a member's change refreshes it too.
          const network = open && useWorkspace.getState().accounts.find((a) => a.profileId === open.profileId && a.accountId === open.accountId)?.type === 'NETWORK';
          if (forOpen || (network && e.profileId === open?.profileId)) useCampaigns.getState().refresh();
          void useWorkspace.getState().load();
        }
      }),
      onEvent('sync.progress', (p) => useStatus.getState().setSync(p)),
      onEvent('connection.changed', (c) => {
        useWorkspace.getState().setConnection(c.profileId, c.connection);
        // The sign-in state and its reason travel with the profile: read it again.
        void useWorkspace.getState().load();
      }),
      onEvent('ratelimit.changed', () => void useStatus.getState().loadRateLimits()),
      onEvent('outbox.changed', (e) => {
        void useStatus.getState().loadOutbox();
        void useWorkspace.getState().load();
        // Drafts shows each queued change's item state (queued, sending, failed, ...).
        const open = useDrafts.getState().account;
        if (open && e.profileId === open.profileId && (e.accountId === '' || e.accountId === open.accountId)) void useDrafts.getState().load();
      }),
    ];
    void useWorkspace.getState().load();
    void useStatus.getState().loadRateLimits();
    void useStatus.getState().loadOutbox();
    return () => offs.forEach((off) => off());
  }, []);
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
