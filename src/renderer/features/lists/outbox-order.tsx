// Which queued change of the account goes first, as the person sets it (outbox.move): "Move up" and
// "Move down" on each queued row, and Alt+ArrowUp / Alt+ArrowDown on a focused row. Only queued
// changes move; a change being sent or looked for stays first (the core refuses anything else and
// says why). The list comes back in its new order with focus where it was, on the moved row or its
// button: React gives focus back to an element its commit moved (test/e2e/outbox-order.test.ts).
import type { KeyboardEvent, ReactElement } from 'react';
import type { OutboxItem } from '../../../shared/ipc/contract';
import { call } from '../../lib/api';

type Direction = 'up' | 'down';

const KEYS: Record<Direction, { key: string; shortcut: string; label: string; title: string }> = {
  up: { key: 'ArrowUp', shortcut: 'Alt+ArrowUp', label: 'Move up', title: 'Send it before the queued change above it (Alt+Up)' },
  down: { key: 'ArrowDown', shortcut: 'Alt+ArrowDown', label: 'Move down', title: 'Send it after the queued change below it (Alt+Down)' },
};

export interface OutboxOrder {
  /** Props for an item's row: focusable with its shortcuts when it is queued. */
  rowProps(o: OutboxItem): {
    tabIndex?: number;
    onKeyDown?(e: KeyboardEvent<HTMLTableRowElement>): void;
    'aria-keyshortcuts'?: string;
  };
  /** The row's Move up / Move down buttons (none unless it is queued). */
  buttons(o: OutboxItem): ReactElement | null;
}

/**
 * `items` are the account's unsent changes in the order they go out; `act` runs a call and shows
 * its error (the Outbox view's own).
 */
export function outboxOrder(items: readonly OutboxItem[], act: (f: () => Promise<unknown>) => Promise<void>): OutboxOrder {
  const queued = items.filter((o) => o.state === 'queued').map((o) => o.id);
  const move = (o: OutboxItem, to: Direction) => {
    const at = queued.indexOf(o.id);
    if (at < 0 || (to === 'up' && at === 0) || (to === 'down' && at === queued.length - 1)) return;
    void act(() => call('outbox.move', { id: o.id, to }));
  };

  return {
    rowProps(o) {
      if (o.state !== 'queued') return {};
      return {
        tabIndex: 0,
        'aria-keyshortcuts': `${KEYS.up.shortcut} ${KEYS.down.shortcut}`,
        onKeyDown(e) {
          if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
          const to = (Object.keys(KEYS) as Direction[]).find((d) => KEYS[d].key === e.key);
          if (!to) return;
          e.preventDefault();
          move(o, to);
        },
      };
    },
    buttons(o) {
      if (o.state !== 'queued') return null;
      const at = queued.indexOf(o.id);
      const edge: Record<Direction, boolean> = { up: at === 0, down: at === queued.length - 1 };
      return (
        <span className="outbox-move">
          {(['up', 'down'] as const).map((d) => (
            // aria-disabled, not disabled: a moved row reaching the top keeps focus on its button.
            <button
              key={d}
              type="button"
              className="icon-button"
              aria-label={KEYS[d].label}
              aria-disabled={edge[d]}
              aria-keyshortcuts={KEYS[d].shortcut}
              title={edge[d] ? `Already the ${d === 'up' ? 'first' : 'last'} queued change` : KEYS[d].title}
              data-testid={`outbox-move-${d}`}
              onClick={() => move(o, d)}
            >
              {d === 'up' ? '\u2191' : '\u2193'}
            </button>
          ))}
        </span>
      );
    },
  };
}
