// The values of the extendable create fields seen in the open account's cached campaigns, for the
// campaign editor's choices (DECISIONS client 7). Read again when that account's cache changes
// (a refresh may bring a value the service started using). Without them the editor still offers
// the spec's values, so a failed read only narrows the choices.
import { call } from '../../lib/api';
import { useAccountValue, type AccountKey } from '../../lib/use-account-value';
import type { SeenValues } from '../../forms/campaign-form';

const read = (key: AccountKey): Promise<SeenValues> => call('campaigns.values', key);
const NONE_SEEN: SeenValues = {};

export function useSeenValues(account: AccountKey | null): SeenValues {
  return useAccountValue(account, 'campaigns', read, NONE_SEEN);
}
