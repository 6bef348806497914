// The values of the extendable create fields seen in the open account's cached campaigns, for the
// campaign editor's choices (DECISIONS client 7). Read again when that account's cache changes
// (a refresh may bring a value the service started using). Without them the editor still offers
// the spec's values, so a failed read only narrows the choices.
import { useEffect, useState } from 'react';
import { call, onEvent } from '../../lib/api';
import type { SeenValues } from '../../forms/campaign-form';

export function useSeenValues(account: { profileId: string; accountId: string } | null): SeenValues {
  const [seen, setSeen] = useState<SeenValues>({});
  const profileId = account?.profileId;
  const accountId = account?.accountId;
  useEffect(() => {
    setSeen({});
    if (profileId === undefined || accountId === undefined) return undefined;
    let live = true;
    const load = () =>
      call('campaigns.values', { profileId, accountId }).then(
        (v) => live && setSeen(v),
        () => undefined,
      );
    void load();
    const off = onEvent('data.changed', (e) => {
      const ours = (e.profileId === null || e.profileId === profileId) && (e.accountId === null || e.accountId === accountId);
      if (e.what === 'campaigns' && ours) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [profileId, accountId]);
  return seen;
}
