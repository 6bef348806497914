// What the top bar and the status bar report: sync progress per account, the rate-limit windows,
// and the outbox: its unsent counts always, its items only while the Outbox tab shows them. Fed by
// core events; reloaded when the core says something changed.
import { create } from 'zustand';
import type { OutboxCount, OutboxItem, OutboxWait, RateLimitState, SyncProgress } from '../../shared/ipc/contract';
import { call } from '../lib/api';

export interface StatusState {
  sync: Record<string, SyncProgress>;
  rateLimits: RateLimitState[];
  /** Every item with the sent history, read only while the Outbox tab is open (empty otherwise). */
  outbox: OutboxItem[];
  /** Unsent changes per account and state: what the status bar and the tab counts show. */
  counts: OutboxCount[];
  outboxOpen: boolean;
  /** Why each queued or sending item waits, read with the outbox and again when a rate-limit window moves. */
  waits: Record<string, OutboxWait>;
  setSync(p: SyncProgress): void;
  loadRateLimits(): Promise<void>;
  /** Reads the counts again, and the items when the Outbox tab is open. */
  loadOutbox(): Promise<void>;
  /** The Outbox tab opened or closed: its items are read while it is open. */
  setOutboxOpen(open: boolean): void;
}

export const accountKey = (profileId: string, accountId: string) => `${profileId}/${accountId}`;

/** What the top bar says of an account's sync, and how full its progress bar is (none when idle). */
export function syncLabel(p: SyncProgress | undefined): { text: string; bar: { value: number; max: number | undefined } | null } {
  if (!p) return { text: '', bar: null };
  if (p.state === 'running')
    return { text: `Sync ${p.pagesDone}/${p.pagesTotal ?? '?'} pages`, bar: { value: p.pagesDone, max: p.pagesTotal ?? undefined } };
  if (p.state === 'failed') return { text: p.message ?? 'Sync failed', bar: null };
  if (p.state === 'cancelled') return { text: 'Sync cancelled', bar: null };
  return { text: 'Synced', bar: null };
}

async function loadWaits(set: (s: Partial<StatusState>) => void): Promise<void> {
  try {
    const waits = await call('outbox.waits', {});
    set({ waits: Object.fromEntries(waits.map((w) => [w.id, w])) });
  } catch {
    // as above
  }
}

export const useStatus = create<StatusState>()((set, get) => ({
  sync: {},
  rateLimits: [],
  outbox: [],
  counts: [],
  outboxOpen: false,
  waits: {},
  setSync(p) {
    set((s) => ({ sync: { ...s.sync, [accountKey(p.profileId, p.accountId)]: p } }));
  },
  async loadRateLimits() {
    try {
      set({ rateLimits: await call('ratelimit.state', {}) });
    } catch {
      // The status bar keeps its last picture; the next event tries again.
    }
    await loadWaits(set);
  },
  async loadOutbox() {
    try {
      const open = get().outboxOpen;
      const [counts, outbox] = await Promise.all([call('outbox.counts', {}), open ? call('outbox.list', {}) : []]);
      set({ counts, outbox });
    } catch {
      // as above
    }
    await loadWaits(set);
  },
  setOutboxOpen(open) {
    if (open === get().outboxOpen) return;
    set({ outboxOpen: open, ...(open ? {} : { outbox: [] }) });
    if (open) void get().loadOutbox();
  },
}));
