// A grid that keeps only the visible rows in the DOM: a spacer as tall as all rows gives the
// scrollbar its size, and the rows in view are placed absolutely inside it. Rows have one fixed
// height, so position and range are plain arithmetic (lib/virtual-range.ts).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { scrollTopToReveal, visibleRange } from '../lib/virtual-range';
import { clampWidth, GridHeader, type DropSide } from './grid-header';

export interface GridColumn<T> {
  id: string;
  title: string;
  /** Pixels; a growing column takes this as its minimum and shares the spare width. */
  width: number;
  grow?: boolean;
  align?: 'left' | 'right';
  sortable?: boolean;
  /** A handle on the header's right edge resizes it (needs onResize). */
  resizable?: boolean;
  /** The header can be dragged onto another movable one (needs onMove). */
  movable?: boolean;
  render(row: T): ReactNode;
}

export interface VirtualGridProps<T> {
  columns: GridColumn<T>[];
  rowCount: number;
  rowHeight: number;
  getRow(index: number): T | undefined;
  rowKey(row: T): string;
  selectedIndex: number | null;
  onSelect(index: number, row: T): void;
  onRangeChange(start: number, end: number): void;
  sort: { field: string; direction: 'asc' | 'desc' } | null;
  onSort(field: string): void;
  label: string;
  testId?: string;
  empty?: ReactNode;
  onResize?(id: string, width: number): void;
  onMove?(id: string, targetId: string, side: DropSide): void;
}

export function VirtualGrid<T>(props: VirtualGridProps<T>) {
  const { columns, rowCount, rowHeight, getRow, rowKey, selectedIndex, onSelect, onRangeChange, sort, onSort } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const frame = useRef(0);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setViewport(el.clientHeight);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const onScroll = useCallback(() => {
    // One state update per animation frame, however many scroll events arrive.
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      if (scroller.current) setScrollTop(scroller.current.scrollTop);
    });
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const header = rowHeight + 2;
  const { start, end } = visibleRange({ scrollTop, viewportHeight: viewport - header, rowHeight, rowCount });
  useEffect(() => onRangeChange(start, end), [start, end, onRangeChange]);

  // Every row and the header get the same template and the same width, so columns line up
  // whatever the content of a row; the body is at least as wide as all minimum widths.
  // A column being resized by drag shows its new width in every row at once.
  const [live, setLive] = useState<{ id: string; width: number } | null>(null);
  const laid = live ? columns.map((c) => (c.id === live.id ? { ...c, width: live.width, grow: false } : c)) : columns;
  const template = laid.map((c) => (c.grow ? `minmax(${c.width}px, 1fr)` : `${c.width}px`)).join(' ');
  const minWidth = laid.reduce((sum, c) => sum + c.width, 0);
  /** The width that shows the title and every value of a column among the rows on screen. */
  const fitWidth = (id: string): number | null => {
    const el = scroller.current;
    if (!el) return null;
    const range = document.createRange();
    let widest = 0;
    for (const node of el.querySelectorAll<HTMLElement>('.vg-cell, .vg-head .vg-sort, .vg-head > .vg-title')) {
      const cell = node.classList.contains('vg-title') ? node.parentElement! : node;
      if ((node.closest('[data-col]') as HTMLElement | null)?.dataset.col !== id) continue;
      // The text's own extent, even where the cell clips it with an ellipsis, plus the cell's padding.
      range.selectNodeContents(node);
      const style = getComputedStyle(cell);
      const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      widest = Math.max(widest, range.getBoundingClientRect().width + pad);
    }
    return widest > 0 ? clampWidth(Math.ceil(widest) + 2) : null;
  };
  const reveal = (index: number) => {
    const el = scroller.current;
    if (!el) return;
    const next = scrollTopToReveal(index, rowHeight, el.scrollTop, el.clientHeight - header);
    if (next !== el.scrollTop) el.scrollTop = next;
  };

  // A key can land on a row whose page is not loaded yet (End on 100,000 rows): select it when it arrives.
  const [pending, setPending] = useState<number | null>(null);
  useEffect(() => {
    if (pending === null) return;
    const row = getRow(pending);
    if (row) {
      setPending(null);
      onSelect(pending, row);
    }
  }, [pending, getRow, onSelect]);

  const move = (index: number) => {
    if (rowCount === 0) return;
    const i = Math.max(0, Math.min(rowCount - 1, index));
    const row = getRow(i);
    reveal(i);
    if (row) {
      setPending(null);
      onSelect(i, row);
    } else setPending(i);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((viewport - header) / rowHeight) - 1);
    const cur = selectedIndex ?? -1;
    const keys: Record<string, number> = { ArrowDown: cur + 1, ArrowUp: cur - 1, PageDown: cur + page, PageUp: cur - page, Home: 0, End: rowCount - 1 };
    if (e.key in keys) {
      e.preventDefault();
      move(keys[e.key]);
    }
  };

  const rows: ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const row = getRow(i);
    const selected = i === selectedIndex;
    rows.push(
      // eslint-disable-next-line jsx-a11y/interactive-supports-focus -- the grid holds the focus and points at its row with aria-activedescendant
      <div
        key={row ? rowKey(row) : `loading-${i}`}
        role="row"
        aria-rowindex={i + 2}
        aria-selected={selected}
        className={`vg-row${selected ? ' is-selected' : ''}${row ? '' : ' is-loading'}`}
        data-testid={row ? 'grid-row' : 'grid-row-loading'}
        style={{ top: i * rowHeight, height: rowHeight, gridTemplateColumns: template }}
        onMouseDown={() => row && onSelect(i, row)}
      >
        {columns.map((c) => (
          <div key={c.id} role="gridcell" className={`vg-cell${c.align === 'right' ? ' is-right' : ''}`} data-col={c.id}>
            {row ? c.render(row) : ''}
          </div>
        ))}
      </div>,
    );
  }

  return (
    <div
      ref={scroller}
      className="vg"
      role="grid"
      aria-label={props.label}
      aria-rowcount={rowCount + 1}
      aria-multiselectable={false}
      tabIndex={0}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      data-testid={props.testId}
    >
      <GridHeader
        columns={laid}
        template={template}
        height={header}
        minWidth={minWidth}
        sort={sort}
        onSort={onSort}
        onLiveWidth={setLive}
        onResize={props.onResize}
        onMove={props.onMove}
        fitWidth={fitWidth}
      />
      <div className="vg-body" style={{ height: rowCount * rowHeight, minWidth }}>
        {rows}
      </div>
      {rowCount === 0 && props.empty ? <div className="vg-empty">{props.empty}</div> : null}
    </div>
  );
}
