// Ctrl/Cmd+K: jump to any account by typing part of its name or id.
import { useEffect, useMemo, useState } from 'react';
import { Dialog } from '../../components/dialog';
import { useCampaigns } from '../../stores/campaigns-store';
import { treeOrder, useWorkspace } from '../../stores/workspace-store';

export function AccountSwitcher({ open, onClose }: { open: boolean; onClose(): void }) {
  // Mounted only while open, so each opening starts with an empty query.
  return open ? <SwitcherPanel onClose={onClose} /> : null;
}

function SwitcherPanel({ onClose }: { onClose(): void }) {
  const { profiles, accounts, select } = useWorkspace();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const options = useMemo(() => {
    const q = query.trim().toLowerCase();
    return treeOrder(profiles, accounts)
      .flatMap(({ profile, rows }) => rows.map(({ account }) => ({ profile, account })))
      .filter(({ account }) => !q || account.name.toLowerCase().includes(q) || account.accountId.toLowerCase().includes(q));
  }, [profiles, accounts, query]);

  // The option Enter would open has its first page read ahead.
  const ahead = options[active]?.account;
  useEffect(() => {
    if (ahead) useCampaigns.getState().prefetch(ahead, ahead.campaignCount);
  }, [ahead]);

  const choose = (i: number) => {
    const o = options[i];
    if (!o) return;
    select({ profileId: o.account.profileId, accountId: o.account.accountId });
    onClose();
  };

  // The shared Dialog moves focus in (to the input) and back where it was, and closes on Escape.
  return (
    <Dialog title="Switch account" titleHidden className="switcher" onClose={onClose} testId="account-switcher">
      <input
        className="switcher-input"
        placeholder="Go to account..."
        value={query}
        role="combobox"
        aria-expanded="true"
        aria-controls="switcher-list"
        aria-activedescendant={options[active] ? `switcher-${active}` : undefined}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((a) => Math.min(options.length - 1, a + 1));
          else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
          else if (e.key === 'Enter') choose(active);
          else return;
          e.preventDefault();
        }}
      />
      <ul id="switcher-list" role="listbox" className="switcher-list">
        {options.map(({ profile, account }, i) => (
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the keyboard picks options through the combobox (arrows, Enter)
          <li
            key={`${profile.id}/${account.accountId}`}
            id={`switcher-${i}`}
            role="option"
            aria-selected={i === active}
            className={`switcher-option${i === active ? ' is-active' : ''}`}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(i)}
          >
            <span>{account.name || account.accountId}</span>
            <span className="muted">
              {account.accountId} · {profile.name}
            </span>
          </li>
        ))}
        {options.length === 0 ? <li className="muted switcher-none">No account matches.</li> : null}
      </ul>
    </Dialog>
  );
}
