// "Columns": which campaign fields the grid shows, in which order and how wide. Every field of the
// campaign is offered; the choice is saved with the account's view. Keyboard: the panel opens on
// the button, Escape closes it and gives focus back to the button.
import { useEffect, useRef, useState } from 'react';
import { MAX_COLUMN_WIDTH as MAX_WIDTH } from '../../components/grid-header';
import { CAMPAIGN_FIELDS, FIELD_BY_ID, minWidthOf } from './campaign-fields';
import { resizeColumn, type ChosenColumn } from './campaign-columns';

export function ColumnChooser({ columns, onChange }: { columns: ChosenColumn[]; onChange(next: ChosenColumn[]): void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLInputElement>('input')?.focus();
    const onDown = (e: MouseEvent) => {
      if (!panel.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const shown = new Map(columns.map((c, i) => [c.id, i]));
  const toggle = (id: string) => {
    if (shown.has(id)) {
      if (columns.length > 1) onChange(columns.filter((c) => c.id !== id));
    } else onChange([...columns, { id, width: FIELD_BY_ID.get(id)!.width }]);
  };
  const move = (id: string, step: number) => {
    const i = shown.get(id)!;
    const j = i + step;
    if (j < 0 || j >= columns.length) return;
    const next = [...columns];
    [next[i], next[j]] = [next[j], next[i]];
    onChange(next);
    // At either end the pressed button turns disabled and would drop the focus (and with it
    // Escape's closing the panel): the focus goes to the same field's other button.
    if (j === 0 || j === columns.length - 1) {
      const other = `column-${step < 0 ? 'right' : 'left'}-${id}`;
      requestAnimationFrame(() =>
        [...(panel.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])].find((b) => b.dataset.testid === other)?.focus(),
      );
    }
  };
  const resize = (id: string, width: number) => onChange(resizeColumn(columns, id, width));
  // Shown columns first, in their order, then the others in the catalog's order.
  const ordered = [...columns.map((c) => FIELD_BY_ID.get(c.id)!), ...CAMPAIGN_FIELDS.filter((f) => !shown.has(f.id))];

  return (
    <div className="column-chooser">
      <button
        ref={button}
        type="button"
        className="btn"
        aria-expanded={open}
        aria-controls="column-chooser-panel"
        onClick={() => (open ? close() : setOpen(true))}
        data-testid="columns-button"
      >
        Columns ({columns.length})
      </button>
      {open ? (
        <div
          ref={panel}
          id="column-chooser-panel"
          className="column-panel"
          role="group"
          aria-label="Columns shown in the campaigns table"
          data-testid="columns-panel"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close();
            }
          }}
        >
          <p className="muted column-hint">
            Tick the fields to show. Move them up or down to change the order (or drag a header in the table); widths are in pixels (or drag
            a header's edge).
          </p>
          <ul className="column-list">
            {ordered.map((f) => {
              const i = shown.get(f.id);
              const on = i !== undefined;
              return (
                <li key={f.id} className={`column-item${on ? ' is-on' : ''}`}>
                  <label className="column-check">
                    <input
                      type="checkbox"
                      checked={on}
                      onChange={() => toggle(f.id)}
                      data-testid={`column-${f.id}`}
                      disabled={on && columns.length === 1}
                    />
                    {f.label}
                  </label>
                  {on ? (
                    <span className="column-tools">
                      <input
                        type="number"
                        className="column-width"
                        min={minWidthOf(f.id)}
                        max={MAX_WIDTH}
                        step={10}
                        value={columns[i].width}
                        aria-label={`Width of ${f.label} in pixels`}
                        onChange={(e) => resize(f.id, Number(e.target.value))}
                        data-testid={`column-width-${f.id}`}
                      />
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={`Move ${f.label} left`}
                        disabled={i === 0}
                        onClick={() => move(f.id, -1)}
                        data-testid={`column-left-${f.id}`}
                      >
                        {'\u2191'}
                      </button>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={`Move ${f.label} right`}
                        disabled={i === columns.length - 1}
                        onClick={() => move(f.id, 1)}
                        data-testid={`column-right-${f.id}`}
                      >
                        {'\u2193'}
                      </button>
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
          <button type="button" className="btn" onClick={() => onChange([])} data-testid="columns-reset">
            Default columns
          </button>
        </div>
      ) : null}
    </div>
  );
}
