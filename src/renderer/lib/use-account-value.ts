// A value the core keeps for the open account, read when the account changes and read again when
// the core says that account's `what` changed: at most once per RE_READ_MS while changes keep
// coming (a refresh says so every second, and the values seen in a cache of 1,000,000 campaigns
// take the core ~1 s to read), and always once after the last. Until the first answer (and for no
// account) it is `empty`; a failed read keeps what was shown, since these values only refine what
// is offered.
import { useEffect, useState } from 'react';
import type { EventPayload } from '../../shared/ipc/contract';
import { onEvent } from './api';

export interface AccountKey {
  profileId: string;
  accountId: string;
}

/** The least time between two reads of the value while the core keeps saying it changed. */
export const RE_READ_MS = 5000;

/**
 * The reads of one account's value (the hook's plan, apart from React so a test can run it on a
 * clock it advances): one at once, then one after a change, no sooner than RE_READ_MS after the
 * last, which reads what every change until then made. `show` hears each answer until the
 * returned stop is called; a failed read shows nothing.
 */
export function watchAccountValue<T>(opts: {
  read: () => Promise<T>;
  show: (value: T) => void;
  /** Calls `changed` whenever the core says the value changed; returns how to stop listening. */
  subscribe: (changed: () => void) => () => void;
}): () => void {
  let live = true;
  let lastRead = 0;
  const load = () => {
    lastRead = Date.now();
    opts.read().then(
      (v) => live && opts.show(v),
      () => undefined,
    );
  };
  load();
  let planned: ReturnType<typeof setTimeout> | null = null;
  const off = opts.subscribe(() => {
    if (planned !== null) return;
    planned = setTimeout(
      () => {
        planned = null;
        load();
      },
      Math.max(0, lastRead + RE_READ_MS - Date.now()),
    );
  });
  return () => {
    live = false;
    off();
    if (planned !== null) clearTimeout(planned);
  };
}

/** `read` and `empty` must not change between renders (define them outside the component). */
export function useAccountValue<T>(
  account: AccountKey | null,
  what: EventPayload<'data.changed'>['what'],
  read: (key: AccountKey) => Promise<T>,
  empty: T,
): T {
  const [value, setValue] = useState<T>(empty);
  const profileId = account?.profileId;
  const accountId = account?.accountId;
  useEffect(() => {
    setValue(empty);
    if (profileId === undefined || accountId === undefined) return undefined;
    return watchAccountValue({
      read: () => read({ profileId, accountId }),
      show: setValue,
      subscribe: (changed) =>
        onEvent('data.changed', (e) => {
          const ours = (e.profileId === null || e.profileId === profileId) && (e.accountId === null || e.accountId === accountId);
          if (e.what === what && ours) changed();
        }),
    });
  }, [profileId, accountId, what, read, empty]);
  return value;
}
