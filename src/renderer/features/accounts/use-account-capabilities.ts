// What the open account may use, as the core knows it (learned or said), read again whenever the
// core says the account changed (a refusal learned while the editor is open shows at once).
// Without an answer nothing is known, which warns about nothing: the service still decides.
import { useEffect, useState } from 'react';
import type { AccountCapabilities } from '../../../shared/domain/capabilities';
import { call, onEvent } from '../../lib/api';

export function useAccountCapabilities(account: { profileId: string; accountId: string } | null): AccountCapabilities | null {
  const [known, setKnown] = useState<AccountCapabilities | null>(null);
  const profileId = account?.profileId;
  const accountId = account?.accountId;
  useEffect(() => {
    setKnown(null);
    if (profileId === undefined || accountId === undefined) return undefined;
    let live = true;
    const load = () =>
      call('accounts.capabilities', { profileId, accountId }).then(
        (v) => live && setKnown(v),
        () => undefined,
      );
    void load();
    const off = onEvent('data.changed', (e) => {
      const ours = (e.profileId === null || e.profileId === profileId) && (e.accountId === null || e.accountId === accountId);
      if (e.what === 'accounts' && ours) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [profileId, accountId]);
  return known;
}
