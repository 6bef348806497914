// Ctrl/Cmd+K: jump to any account by typing part of its name or id.
import { useEffect, useMemo, useRef, useState } from 'react';
import { treeOrder, useWorkspace } from '../../stores/workspace-store';

export function AccountSwitcher({ open, onClose }: { open: boolean; onClose(): void }) {
  const { profiles, accounts, select } = useWorkspace();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const options = useMemo(() => {
    const q = query.trim().toLowerCase();
    return treeOrder(profiles, accounts)
      .flatMap(({ profile, rows }) => rows.map(({ account }) => ({ profile, account })))
      .filter(({ account }) => !q || account.name.toLowerCase().includes(q) || account.accountId.toLowerCase().includes(q));
  }, [profiles, accounts, query]);

  // Focus comes back where it was when the switcher closes (or to the account's views when that
  // place is gone), never to the page's start.
  const before = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (open) {
      before.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setQuery('');
      setActive(0);
      requestAnimationFrame(() => input.current?.focus());
      return;
    }
    const back = before.current;
    before.current = null;
    if (back === null) return;
    requestAnimationFrame(() => {
      if (back.isConnected && back !== document.body) back.focus();
      else document.getElementById('main')?.focus();
    });
  }, [open]);
  if (!open) return null;

  const choose = (i: number) => {
    const o = options[i];
    if (!o) return;
    select({ profileId: o.account.profileId, accountId: o.account.accountId });
    onClose();
  };

  return (
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- a click on the backdrop closes, as Escape does from the keyboard
    <div className="overlay" onMouseDown={onClose}>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- only keeps a click inside from reaching the backdrop */}
      <div className="switcher" role="dialog" aria-modal="true" aria-label="Switch account" onMouseDown={(e) => e.stopPropagation()} data-testid="account-switcher">
        <input
          ref={input}
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
            else if (e.key === 'Escape') onClose();
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
      </div>
    </div>
  );
}
