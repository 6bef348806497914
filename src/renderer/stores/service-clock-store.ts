// The window's "service now": the offset main learned from the service's Date headers, per
// connection, kept up to date by the 'service.clock' event (zod-checked on arrival). Every rule of
// the window that judges a time (the composer's "in the future", the task editor, one-click fixes,
// the subscriber-zone warning) reads it through serviceNowOf, so it agrees with Queue in main.
import { useEffect } from 'react';
import { create } from 'zustand';
import { serviceTime } from '../../shared/domain/service-time';
import { call } from '../lib/api';

interface ServiceClockState {
  /** Service minus local clock (ms), by profile id; absent while main has learned nothing. */
  offsets: Record<string, number>;
  set(profileId: string, offsetMs: number): void;
  /** Asks main once (for a connection that answered before this window subscribed). */
  load(profileId: string): Promise<void>;
}

export const useServiceClock = create<ServiceClockState>()((set, get) => ({
  offsets: {},
  set(profileId, offsetMs) {
    if (get().offsets[profileId] === offsetMs) return;
    set((s) => ({ offsets: { ...s.offsets, [profileId]: offsetMs } }));
  },
  async load(profileId) {
    try {
      const { offsetMs } = await call('push.serviceClock', { profileId });
      // An event that arrived meanwhile is newer than this answer.
      if (get().offsets[profileId] === undefined) get().set(profileId, offsetMs);
    } catch {
      // Until main knows, the computer's clock is the best guess (as in main).
    }
  },
}));

/** The service's time at the window's `localNow` for a connection. */
export function serviceNowOf(profileId: string | null | undefined, localNow: number): number {
  return serviceTime(localNow, profileId ? useServiceClock.getState().offsets[profileId] : undefined);
}

/** The service's time for a connection, re-rendered when its offset moves. */
export function useServiceNow(profileId: string | null | undefined, localNow: number): number {
  const offset = useServiceClock((s) => (profileId ? s.offsets[profileId] : undefined));
  const known = offset !== undefined;
  useEffect(() => {
    if (profileId && !known) void useServiceClock.getState().load(profileId);
  }, [profileId, known]);
  return serviceTime(localNow, offset);
}
