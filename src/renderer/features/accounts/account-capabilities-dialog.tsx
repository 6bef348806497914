// "What this account may use": display campaigns, performance video campaigns and campaigns without
// a spending limit, each not known / enabled / not enabled. The service has no call that says so
// (DECISIONS client 13): the desk learns it from refusals and posts, and the person can say what
// they know. Each row shows what is known and where it came from, a refusal in the service's words.
import { useEffect, useState, type FormEvent } from 'react';
import {
  CAPABILITIES,
  capabilityStatus,
  type AccountCapabilities,
  type Capability,
  type CapabilityState,
} from '../../../shared/domain/capabilities';
import type { Account } from '../../../shared/ipc/contract';
import { Dialog } from '../../components/dialog';
import { FormFooter } from '../../components/form-footer';
import { call, messageOf } from '../../lib/api';
import { useAction } from '../../lib/use-action';

const CHOICES: readonly [CapabilityState, string][] = [
  ['unknown', 'Not known'],
  ['enabled', 'Enabled'],
  ['refused', 'Not enabled'],
];

const TITLE_OF: Readonly<Record<Capability, string>> = {
  display: 'Display campaigns',
  performance_video: 'Performance video campaigns',
  no_spending_limit: 'No spending limit (daily cap only)',
};

type Choices = Record<Capability, CapabilityState>;

const choicesOf = (k: AccountCapabilities): Choices =>
  Object.fromEntries(CAPABILITIES.map((c) => [c, k.capabilities.find((r) => r.capability === c)?.state ?? 'unknown'])) as Choices;

export function AccountCapabilitiesDialog({
  account,
  onClose,
}: {
  account: Pick<Account, 'profileId' | 'accountId' | 'name'>;
  onClose(): void;
}) {
  const name = account.name || account.accountId;
  const [known, setKnown] = useState<AccountCapabilities | null>(null);
  const [choices, setChoices] = useState<Choices | null>(null);
  const { busy, error, setError, run } = useAction();
  const now = Date.now();

  useEffect(() => {
    let live = true;
    call('accounts.capabilities', { profileId: account.profileId, accountId: account.accountId }).then(
      (k) => {
        if (!live) return;
        setKnown(k);
        setChoices(choicesOf(k));
      },
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
    // setError is React's state setter, the same on every render: the account is what reloads.
  }, [account.profileId, account.accountId, setError]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!known || !choices) return;
    await run(async () => {
      // Only what the person changed is said: an untouched row keeps what was learned, and its date.
      const before = choicesOf(known);
      for (const capability of CAPABILITIES) {
        if (choices[capability] === before[capability]) continue;
        await call('accounts.setCapability', {
          profileId: account.profileId,
          accountId: account.accountId,
          capability,
          state: choices[capability],
        });
      }
      onClose();
    });
  };

  return (
    <Dialog title={`What ${name} may use`} onClose={onClose} testId="account-capabilities-dialog">
      <form onSubmit={(e) => void save(e)} className="capabilities-form">
        <p className="muted dialog-note">
          The service cannot be asked which accounts are enabled for these. Campaign Desk learns it from what the service refuses or posts,
          and you can say what you know. A draft using one the account lacks gets a warning before it is queued; it can still be queued.
        </p>
        {known && choices
          ? CAPABILITIES.map((c) => {
              const rec = known.capabilities.find((r) => r.capability === c);
              return (
                <fieldset key={c} className="capability-row" data-testid={`capability-${c}`}>
                  <legend>{TITLE_OF[c]}</legend>
                  <div className="segmented">
                    {CHOICES.map(([state, label]) => (
                      <label key={state} className={`segment${choices[c] === state ? ' is-on' : ''}`}>
                        <input
                          type="radio"
                          name={`capability-${c}`}
                          value={state}
                          checked={choices[c] === state}
                          onChange={() => setChoices({ ...choices, [c]: state })}
                          data-testid={`capability-${c}-${state}`}
                        />
                        {label}
                      </label>
                    ))}
                  </div>
                  <p className="muted capability-known" data-testid={`capability-${c}-known`}>
                    {capabilityStatus(rec, now)}
                    {rec?.message ? `: ${rec.message}` : ''}
                  </p>
                </fieldset>
              );
            })
          : null}
        {!known && !error ? <p className="muted">Loading...</p> : null}
        <FormFooter
          error={error}
          errorTestId="capabilities-error"
          onCancel={onClose}
          submit="Save"
          submitTestId="capabilities-save"
          busy={busy || !known}
        />
      </form>
    </Dialog>
  );
}
