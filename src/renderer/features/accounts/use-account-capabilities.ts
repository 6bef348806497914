// What the open account may use, as the core knows it (learned or said), read again whenever the
// core says the account changed (a refusal learned while the editor is open shows at once).
// Without an answer nothing is known, which warns about nothing: the service still decides.
import type { AccountCapabilities } from '../../../shared/domain/capabilities';
import { call } from '../../lib/api';
import { useAccountValue, type AccountKey } from '../../lib/use-account-value';

const read = (key: AccountKey) => call('accounts.capabilities', key);

export function useAccountCapabilities(account: AccountKey | null): AccountCapabilities | null {
  return useAccountValue<AccountCapabilities | null>(account, 'accounts', read, null);
}
