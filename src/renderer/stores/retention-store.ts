// How many days sent changes and the activity log are kept, as the core has them: read once, and
// again after the person changes them, so the Outbox says the period that is true.
import { create } from 'zustand';
import { RETENTION_DEFAULTS, type Retention } from '../../shared/retention';
import { call } from '../lib/api';

export interface RetentionState {
  retention: Retention;
  loaded: boolean;
  load(): Promise<void>;
  set(next: Retention): Promise<{ sent: number; activity: number }>;
}

export const useRetention = create<RetentionState>()((set) => ({
  retention: RETENTION_DEFAULTS,
  loaded: false,
  async load() {
    try {
      set({ retention: await call('retention.get', {}), loaded: true });
    } catch {
      // The defaults stay shown; the next open of the Outbox tries again.
    }
  },
  async set(next) {
    const r = await call('retention.set', next);
    set({ retention: r.retention, loaded: true });
    return r.removed;
  },
}));
