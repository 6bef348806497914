// The rate-limit view's picture of a connection, read again whenever the core says a budget or the
// outbox moved (the status store reloads on ratelimit.changed and outbox.changed; this follows
// those reloads), never on a timer. One picture per connection, shared by the status bar and the
// Limits tab so the two never show different figures. Remembers when it arrived, so countdowns
// run from there.
import { useEffect } from 'react';
import { create } from 'zustand';
import type { LimitsView } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { useStatus } from '../../stores/status-store';

export interface LimitsPicture {
  view: LimitsView | null;
  /** The window's clock when the picture arrived. */
  receivedAt: number;
  error: string | null;
}

const EMPTY: LimitsPicture = { view: null, receivedAt: 0, error: null };

interface LimitsStore {
  pictures: Record<string, LimitsPicture>;
  /** What the last read of each connection followed (the status store's arrays): read once per change, whoever asks. */
  readFor: Record<string, unknown>;
}

const useLimitsStore = create<LimitsStore>()(() => ({ pictures: {}, readFor: {} }));

function read(profileId: string, cause: unknown): void {
  const s = useLimitsStore.getState();
  if (s.readFor[profileId] === cause) return;
  useLimitsStore.setState({ readFor: { ...s.readFor, [profileId]: cause } });
  call('ratelimit.view', { profileId }).then(
    (view) =>
      useLimitsStore.setState((st) => ({ pictures: { ...st.pictures, [profileId]: { view, receivedAt: Date.now(), error: null } } })),
    (err) =>
      useLimitsStore.setState((st) => ({
        pictures: { ...st.pictures, [profileId]: { ...(st.pictures[profileId] ?? EMPTY), error: messageOf(err) } },
      })),
  );
}

export function useLimits(profileId: string | null): LimitsPicture {
  const rateLimits = useStatus((s) => s.rateLimits);
  const counts = useStatus((s) => s.counts);
  useEffect(() => {
    if (profileId) read(profileId, causeOf(rateLimits, counts));
  }, [profileId, rateLimits, counts]);
  return useLimitsStore((s) => (profileId ? s.pictures[profileId] : undefined)) ?? EMPTY;
}

/** One object per pair of status arrays, so every caller that saw the same reload names the same cause. */
const causes = new WeakMap<object, WeakMap<object, object>>();
function causeOf(a: object, b: object): object {
  let inner = causes.get(a);
  if (!inner) causes.set(a, (inner = new WeakMap()));
  let c = inner.get(b);
  if (!c) inner.set(b, (c = {}));
  return c;
}
