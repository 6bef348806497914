// An account the service refused (403): "No access" beside it in the sidebar and in the header,
// with the service's words and the date, until a call about it succeeds again.
import type { Account } from '../../../shared/ipc/contract';
import { formatDateTime } from '../../lib/format';
import { selectedAccount, useWorkspace } from '../../stores/workspace-store';

/** "Refused on 26 Nov 2026, 17:02: Not authorized for account acmeshoes". */
export function noAccessText(a: Pick<Account, 'noAccess'>): string {
  if (!a.noAccess) return '';
  return `Refused on ${formatDateTime(a.noAccess.at)}: ${a.noAccess.words}`;
}

/** The sidebar's mark: short, with the whole story in its title. */
export function NoAccessTag({ account }: { account: Pick<Account, 'noAccess'> }) {
  if (!account.noAccess) return null;
  return (
    <span className="tag-no-access" title={noAccessText(account)} data-testid="no-access-tag">
      No access
    </span>
  );
}

/** The open account's header line, above its tabs: what the service said, when, and what to do. */
export function NoAccessNote() {
  const account = useWorkspace(selectedAccount);
  if (!account?.noAccess) return null;
  return (
    <p className="no-access-note" role="status" data-testid="account-no-access">
      <strong>No access to {account.name || account.accountId}.</strong> {noAccessText(account)}. Ask the service to grant these credentials
      access again; the next call that succeeds clears this.
    </p>
  );
}
