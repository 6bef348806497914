// A value the core keeps for the open account, read when the account changes and read again when
// the core says that account's `what` changed. Until the first answer (and for no account) it is
// `empty`; a failed read keeps what was shown, since these values only refine what is offered.
import { useEffect, useState } from 'react';
import type { EventPayload } from '../../shared/ipc/contract';
import { onEvent } from './api';

export interface AccountKey {
  profileId: string;
  accountId: string;
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
    let live = true;
    const load = () =>
      read({ profileId, accountId }).then(
        (v) => live && setValue(v),
        () => undefined,
      );
    void load();
    const off = onEvent('data.changed', (e) => {
      const ours = (e.profileId === null || e.profileId === profileId) && (e.accountId === null || e.accountId === accountId);
      if (e.what === what && ours) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [profileId, accountId, what, read, empty]);
  return value;
}
