// The virtual grid's header row: sort buttons, and for columns that allow it a resize handle on the
// right edge (drag it, or focus it and press ArrowLeft/ArrowRight; Enter or a double-click fits
// the column to what it shows) and reordering by dragging the header onto another one. A drag
// shows its width or drop place live and reports once, when the pointer is released, so a saved
// view is written once per gesture rather than once per pixel.
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import type { GridColumn } from './virtual-grid';

/** The floor of a column that names no minimum of its own. */
export const MIN_COLUMN_WIDTH = 40;
export const MAX_COLUMN_WIDTH = 1200;
const KEY_STEP = 10;
/** How far the pointer moves before a press on a header becomes a drag (smaller is a click: sort). */
const DRAG_THRESHOLD = 6;

export const clampWidth = (w: number, min = MIN_COLUMN_WIDTH) => Math.round(Math.max(min, Math.min(MAX_COLUMN_WIDTH, w)));

export type DropSide = 'before' | 'after';

export interface GridHeaderProps<T> {
  columns: GridColumn<T>[];
  template: string;
  height: number;
  minWidth: number;
  sort: { field: string; direction: 'asc' | 'desc' } | null;
  onSort(field: string): void;
  /** A width while a drag is under way (null when none): the grid lays its rows out with it too. */
  onLiveWidth(live: { id: string; width: number } | null): void;
  onResize?(id: string, width: number): void;
  onMove?(id: string, targetId: string, side: DropSide): void;
  /** The width that shows every value on screen and the title of a column. */
  fitWidth(id: string): number | null;
}

interface Press {
  id: string;
  x: number;
  dragging: boolean;
}

export function GridHeader<T>(props: GridHeaderProps<T>) {
  const { columns, sort, onSort, onResize, onMove, onLiveWidth, fitWidth } = props;
  const row = useRef<HTMLDivElement>(null);
  const [drop, setDrop] = useState<{ id: string; targetId: string; side: DropSide } | null>(null);
  // A press that turned into a drag must not also sort when the button sees the click.
  const swallowClick = useRef(false);
  const cleanup = useRef<() => void>(() => undefined);
  useEffect(() => () => cleanup.current(), []);

  const cellOf = (id: string) =>
    [...(row.current?.children ?? [])].find((el) => (el as HTMLElement).dataset.col === id) as HTMLElement | undefined;
  const shownWidth = (c: GridColumn<T>) => Math.round(cellOf(c.id)?.getBoundingClientRect().width ?? c.width);

  /** Where a header dragged to x would land: beside the movable column under x. */
  const dropTarget = (x: number, id: string): { targetId: string; side: DropSide } | null => {
    for (const c of columns) {
      const rect = cellOf(c.id)?.getBoundingClientRect();
      if (!rect || x < rect.left || x >= rect.right) continue;
      if (!c.movable || c.id === id) return null;
      return { targetId: c.id, side: x < rect.left + rect.width / 2 ? 'before' : 'after' };
    }
    return null;
  };

  /** Follows the pointer until it is released (up) or Escape drops the gesture (cancel). */
  const follow = (move: (e: PointerEvent) => void, up: () => void, cancel: () => void) => {
    const onUp = () => {
      cleanup.current();
      up();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      cleanup.current();
      cancel();
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
    window.addEventListener('keydown', onKey, true);
    cleanup.current = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      window.removeEventListener('keydown', onKey, true);
      cleanup.current = () => undefined;
    };
  };

  const startResize = (c: GridColumn<T>, e: ReactPointerEvent) => {
    if (e.button !== 0 || !onResize) return;
    e.preventDefault();
    e.stopPropagation();
    const from = shownWidth(c);
    const x0 = e.clientX;
    let width = from;
    follow(
      (m) => {
        width = clampWidth(from + m.clientX - x0, c.minWidth);
        onLiveWidth({ id: c.id, width });
      },
      () => {
        onLiveWidth(null);
        if (width !== from) onResize(c.id, width);
      },
      () => onLiveWidth(null),
    );
  };

  const startMove = (c: GridColumn<T>, e: ReactPointerEvent) => {
    if (e.button !== 0 || !onMove || !c.movable) return;
    const press: Press = { id: c.id, x: e.clientX, dragging: false };
    let target: ReturnType<typeof dropTarget> = null;
    follow(
      (m) => {
        if (!press.dragging && Math.abs(m.clientX - press.x) < DRAG_THRESHOLD) return;
        press.dragging = true;
        target = dropTarget(m.clientX, c.id);
        setDrop(target ? { id: c.id, ...target } : { id: c.id, targetId: '', side: 'before' });
      },
      () => {
        setDrop(null);
        if (!press.dragging) return;
        swallowClick.current = true;
        setTimeout(() => (swallowClick.current = false), 0);
        if (target) onMove(c.id, target.targetId, target.side);
      },
      () => {
        setDrop(null);
        if (!press.dragging) return;
        // The button still gets its click when the pointer is released: that is no sort either.
        swallowClick.current = true;
        window.addEventListener('pointerup', () => setTimeout(() => (swallowClick.current = false), 0), { once: true });
      },
    );
  };

  const setWidth = (c: GridColumn<T>, width: number) => {
    const w = clampWidth(width, c.minWidth);
    // The handle's aria-valuetext follows, which is what a screen reader announces.
    onResize?.(c.id, w);
  };
  const fit = (c: GridColumn<T>) => {
    const w = fitWidth(c.id);
    if (w !== null) setWidth(c, w);
  };
  const onHandleKey = (c: GridColumn<T>, e: ReactKeyboardEvent) => {
    const step = e.key === 'ArrowLeft' ? -KEY_STEP : e.key === 'ArrowRight' ? KEY_STEP : 0;
    if (step !== 0) setWidth(c, shownWidth(c) + step);
    else if (e.key === 'Enter') fit(c);
    else return;
    // The grid moves its selection on arrow keys: these belong to the handle.
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div
      ref={row}
      className={`vg-header${drop ? ' is-moving' : ''}`}
      role="row"
      aria-rowindex={1}
      style={{ gridTemplateColumns: props.template, height: props.height, minWidth: props.minWidth }}
      onClickCapture={(e) => {
        if (swallowClick.current) e.stopPropagation();
      }}
    >
      {columns.map((c) => {
        const active = sort?.field === c.id;
        const ariaSort = active ? (sort?.direction === 'asc' ? 'ascending' : 'descending') : 'none';
        let cls = `vg-head${c.align === 'right' ? ' is-right' : ''}${c.movable && onMove ? ' is-movable' : ''}`;
        if (drop?.id === c.id) cls += ' is-dragged';
        if (drop?.targetId === c.id) cls += drop.side === 'before' ? ' drop-before' : ' drop-after';
        return (
          <div
            key={c.id}
            role="columnheader"
            aria-sort={ariaSort}
            className={cls}
            data-col={c.id}
            data-testid={`head-${c.id}`}
            onPointerDown={(e) => startMove(c, e)}
          >
            {c.sortable ? (
              <button
                type="button"
                className="vg-sort"
                onClick={() => onSort(c.id)}
                data-testid={`sort-${c.id}`}
                title={`Sort by ${c.title}`}
              >
                <span className="vg-title">{c.title}</span>
                <span className="vg-arrow" aria-hidden="true">
                  {active ? (sort?.direction === 'asc' ? '\u25B2' : '\u25BC') : ''}
                </span>
              </button>
            ) : (
              <span className="vg-title">{c.title}</span>
            )}
            {c.resizable && onResize ? (
              // A window splitter in ARIA terms: focusable, with its value, moved by arrow keys.
              <div
                role="separator"
                aria-orientation="vertical"
                aria-label={`Width of ${c.title}`}
                aria-valuemin={c.minWidth ?? MIN_COLUMN_WIDTH}
                aria-valuemax={MAX_COLUMN_WIDTH}
                aria-valuenow={Math.round(c.width)}
                aria-valuetext={`${Math.round(c.width)} pixels`}
                // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a separator with a value is a focusable widget in ARIA 1.2; the linter's table predates it
                tabIndex={0}
                title="Drag to resize; double-click to fit the content. Keys: ArrowLeft, ArrowRight, Enter to fit"
                className="vg-resize"
                data-testid={`resize-${c.id}`}
                onPointerDown={(e) => startResize(c, e)}
                onDoubleClick={() => fit(c)}
                onKeyDown={(e) => onHandleKey(c, e)}
              />
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
