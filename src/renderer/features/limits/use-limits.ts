// The rate-limit view's picture of a connection, read again whenever the core says a budget or the
// outbox moved (the status store reloads on ratelimit.changed and outbox.changed; this follows
// those reloads), never on a timer. Remembers when it arrived, so countdowns run from there.
import { useEffect, useState } from 'react';
import type { LimitsView } from '../../../shared/ipc/contract';
import { call, messageOf } from '../../lib/api';
import { useStatus } from '../../stores/status-store';

export interface LimitsPicture {
  view: LimitsView | null;
  /** The window's clock when the picture arrived. */
  receivedAt: number;
  error: string | null;
}

export function useLimits(profileId: string | null): LimitsPicture {
  const rateLimits = useStatus((s) => s.rateLimits);
  const counts = useStatus((s) => s.counts);
  const [picture, setPicture] = useState<LimitsPicture>({ view: null, receivedAt: 0, error: null });
  useEffect(() => {
    if (!profileId) return;
    let live = true;
    call('ratelimit.view', { profileId }).then(
      (view) => live && setPicture({ view, receivedAt: Date.now(), error: null }),
      (err) => live && setPicture((p) => ({ ...p, error: messageOf(err) })),
    );
    return () => {
      live = false;
    };
  }, [profileId, rateLimits, counts]);
  return picture;
}
