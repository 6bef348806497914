// A grid that keeps only the visible rows in the DOM: a spacer as tall as all rows gives the
// scrollbar its size, and the rows in view are placed absolutely inside it. Rows have one fixed
// height, so position and range are plain arithmetic (lib/virtual-range.ts).
// Scrolling stays smooth on 100,000 rows (bench/grid-scroll.ts) because:
// - the rows in the DOM reach beyond the screen, and a scroll that keeps the screen inside them
//   with a margin renders nothing; when the margin runs low they move on in React's next task;
// - when rows on screen are not in the DOM (a jump, a fast fling), they are rendered in the scroll
//   event itself (flushSync), before the frame is painted: waiting for React's next task painted
//   frames of empty space where rows belong (grid-window.ts has the rules). Only those rows: the
//   rest of the window follows in React's next task, so the frame styles and lays out half the rows
//   (with Chromium's CPU slowed 4x, flings at 1,000,000 rows made 44-76 long tasks instead of 91-133);
// - rows are keyed by their slot, not by campaign, and memoized: a row scrolled in takes over the
//   elements of one scrolled out, and a row that stays is not rendered again. They stay in slot
//   order in the DOM (placed by `top`, so the order is not seen): in list order, every move of the
//   window moved a third to all of the rows' elements in the DOM (remove and insert), which made
//   the browser restyle and lay out each moved row anew. Assistive technology gets list order from
//   aria-owns on the row group (and each row's aria-rowindex);
// - the rows the grid asks data for reach further ahead in the direction of scrolling, so a page
//   is usually loaded before it comes into view; flying past faster than that, it asks only for
//   the rows in the DOM.
// A list taller than the browser can lay out (grid-window.ts MAX_SCROLL_PX) scrolls a smaller
// space: one px of scrolling moves `ratio` px of rows, and the rows are drawn shifted by the
// difference. The shift is one transform on the layer that holds the rows (set in the scroll
// event, so no row is rendered again), inside a spacer with CSS containment: a transform needs no
// layout. (It was a CSS variable each row's `top` read: every scroll event then restyled and laid
// out every row and the whole document, 10-30 ms a frame in a trace at 1,000,000 rows.)
import { memo, useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { scrollTopToReveal } from '../lib/virtual-range';
import { clampWidth, GridHeader, type DropSide } from './grid-header';
import {
  AHEAD_ROWS,
  BEHIND_ROWS,
  layoutBase,
  rowsOnScreen,
  scrollSpace,
  scrollTopFor,
  windowChange,
  windowFor,
  type GridWindow,
  type Rows,
} from './grid-window';

export interface GridColumn<T> {
  id: string;
  title: string;
  /** Pixels; a growing column takes this as its minimum and shares the spare width. */
  width: number;
  /** The narrowest it may be made (by drag, keys or a saved view): its title and a value still fit. */
  minWidth?: number;
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
  /** Names the list shown (its account and query): another list opens at its first row. */
  listKey?: string;
}

export function VirtualGrid<T>(props: VirtualGridProps<T>) {
  const { columns, rowCount, rowHeight, getRow, selectedIndex, onSelect, onRangeChange, sort, onSort } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState(600);
  const header = rowHeight + 2;
  const rowIdPrefix = `${useId()}-row-`;
  const body = useRef<HTMLDivElement>(null);
  // The scroll space's ratio depends on the grid's height: always the height it has now (a details
  // pane opening shortens it before the resize observer says so).
  const contentHeight = rowCount * rowHeight;
  const spaceAt = useCallback((height: number) => scrollSpace(contentHeight, height - header), [contentHeight, header]);
  const screenAt = useCallback(
    (scrollTop: number, height: number) => rowsOnScreen(scrollTop * spaceAt(height).ratio, height - header, rowHeight, rowCount),
    [spaceAt, header, rowHeight, rowCount],
  );
  // Rows are laid out at their place in the list less the window's base (grid-window.ts
  // layoutBase); the layer holding them is moved down by the base and up by how far the scaled
  // space lags behind the rows. Set from positions read before any change (a read after it would
  // lay the page out once more).
  const base = useRef(0);
  // The transform last set, compared as a number: reading style.transform back serializes the
  // style, a cost in every scroll event.
  const shiftY = useRef(NaN);
  const shift = useCallback(
    (scrollTop: number, height: number) => {
      const y = scrollTop - scrollTop * spaceAt(height).ratio + base.current;
      if (!body.current || y === shiftY.current) return;
      shiftY.current = y;
      body.current.style.transform = `translateY(${y}px)`;
    },
    [spaceAt],
  );
  const [win, setWin] = useState<GridWindow>(() => windowFor(screenAt(0, 600), rowCount, true, 0));
  const { start, end } = win;
  const rowsBase = layoutBase(start, rowHeight);
  useLayoutEffect(() => {
    base.current = rowsBase;
    if (scroller.current) shift(scroller.current.scrollTop, scroller.current.clientHeight);
  }, [shift, viewport, rowsBase]);
  // The window in the DOM now (a scroll event compares the screen with it).
  const shown = useRef(win);
  useLayoutEffect(() => {
    shown.current = win;
  }, [win]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setViewport(el.clientHeight);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // A scroll space whose scale changes (a list over 2^24 px whose count lands after its first rows,
  // or the grid made shorter by the details pane) keeps the row at its top where it was: the same
  // scroll position is another row in another scale (row 300 became row ~500 when the count of a
  // 1,000,000-row list came while the person scrolled its first rows).
  const scaled = useRef<number | null>(null);
  const lastTop = useRef(0);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const space = spaceAt(el.clientHeight);
    const before = scaled.current;
    scaled.current = space.ratio;
    if (before === null || before === space.ratio || el.scrollTop === 0) return;
    el.scrollTop = scrollTopFor(el.scrollTop * before, space, el.scrollTop);
    lastTop.current = el.scrollTop;
    shift(el.scrollTop, el.clientHeight);
  }, [spaceAt, shift, viewport]);

  // Another list (another account, sort, filter or search) opens at its first row, where its store
  // reads it first, not where the last list was scrolled to (clamped to the new length: a
  // 1,000,000-row account opened at row 800 after the end of a 500-row one). Set before the paint,
  // with the window it shows.
  const shownList = useRef(props.listKey);
  useLayoutEffect(() => {
    if (shownList.current === props.listKey) return;
    shownList.current = props.listKey;
    const el = scroller.current;
    if (!el || el.scrollTop === 0) return;
    el.scrollTop = 0;
    lastTop.current = 0;
    const next = windowFor(screenAt(0, viewport), rowCount, true, 0);
    setWin((cur) => (cur.start === next.start && cur.end === next.end ? cur : next));
  }, [props.listKey, screenAt, viewport, rowCount]);

  // A new row count or viewport height (or a scroll position the browser moved, e.g. clamped after
  // the rows got fewer) gives a new window without a scroll event.
  useLayoutEffect(() => {
    const next = windowFor(screenAt(scroller.current?.scrollTop ?? 0, viewport), rowCount, true, 0);
    setWin((cur) => (cur.start === next.start && cur.end === next.end ? cur : next));
  }, [screenAt, viewport, rowCount]);

  /**
   * The rows on screen while a scroll event renders them alone (see onScroll); null otherwise. The
   * other slots of the ring then keep the rows they hold (`drawn`) until the next render.
   */
  const [urgent, setUrgent] = useState<Rows | null>(null);
  const drawn = useRef<ReactNode[]>([]);
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const [top, height] = [el.scrollTop, el.clientHeight];
    const { ratio } = spaceAt(height);
    if (ratio !== 1) shift(top, height);
    const screen = screenAt(top, height);
    const moved = (Math.abs(top - lastTop.current) * ratio) / rowHeight;
    const down = top >= lastTop.current;
    lastTop.current = top;
    const change = windowChange(shown.current, screen, rowCount);
    if (change === 'keep') return;
    const next = windowFor(screen, rowCount, down, moved);
    const update = () => setWin(next);
    if (change !== 'now') return update();
    // The browser fires at most one scroll event per frame: rendering here puts the missing rows in
    // the DOM before this frame is painted. Only the rows on screen: the window's margin follows in
    // a render of its own (React's next task), so a fling's frame renders, styles and lays out half
    // the rows it did.
    flushSync(() => {
      setUrgent(screen);
      update();
    });
    setUrgent(null);
  }, [screenAt, spaceAt, rowHeight, rowCount, shift]);

  const wantFrom = Math.max(0, start - win.before);
  const wantTo = Math.min(rowCount, end + win.after);
  useEffect(() => onRangeChange(wantFrom, wantTo), [wantFrom, wantTo, onRangeChange]);

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
    const space = spaceAt(el.clientHeight);
    const offset = el.scrollTop * space.ratio;
    const next = scrollTopToReveal(index, rowHeight, offset, el.clientHeight - header);
    if (next !== offset) el.scrollTop = scrollTopFor(next, space, el.scrollTop);
  };

  // A row the person selects is revealed again once the selection has rendered: what it shows (the
  // details pane beside or under the grid) may have made the grid shorter and hidden the row.
  const revealSelected = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (selectedIndex === null || selectedIndex !== revealSelected.current) return;
    revealSelected.current = null;
    reveal(selectedIndex);
  });
  const select = useCallback(
    (index: number, row: T) => {
      revealSelected.current = index;
      onSelect(index, row);
    },
    [onSelect],
  );

  // A key can land on a row whose page is not loaded yet (End on 100,000 rows): select it when it arrives.
  const [pending, setPending] = useState<number | null>(null);
  useEffect(() => {
    if (pending === null) return;
    const row = getRow(pending);
    if (row) {
      setPending(null);
      select(pending, row);
    }
  }, [pending, getRow, select]);

  const move = (index: number) => {
    if (rowCount === 0) return;
    const i = Math.max(0, Math.min(rowCount - 1, index));
    const row = getRow(i);
    reveal(i);
    if (row) {
      setPending(null);
      select(i, row);
    } else setPending(i);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((viewport - header) / rowHeight) - 1);
    const cur = selectedIndex ?? -1;
    const keys: Record<string, number> = {
      ArrowDown: cur + 1,
      ArrowUp: cur - 1,
      PageDown: cur + page,
      PageUp: cur - page,
      Home: 0,
      End: rowCount - 1,
    };
    if (e.key in keys) {
      e.preventDefault();
      move(keys[e.key]);
    }
  };

  // Rows are keyed by their slot in a ring as long as the window, not by campaign, and put in the
  // DOM in slot order: a row scrolled in takes over the elements of one scrolled out where they are,
  // so a fast scroll changes text in place instead of removing, creating or moving a whole screen of
  // elements every frame.
  // Rows the data just came for are filled on screen in this render, and off screen in a render of
  // their own once this one is painted: the page of a place jumped to filled all 53 rows of the
  // window in one frame, whose layout (17-27 ms in a trace of the flings at 1,000,000 rows) made
  // most of the flings' long tasks. (React's deferred value often rendered both in one task.)
  const laterGetRow = useAfterPaint(getRow);
  const ring = Math.max(1, end - start, Math.ceil(viewport / rowHeight) + AHEAD_ROWS + BEHIND_ROWS + 2);
  // Every slot holds a row (the window's, and a few after it): a slot left empty as the window
  // slides would unmount one row and mount another each time.
  const last = Math.min(rowCount, start + ring);
  const first = Math.max(0, last - ring);
  const rows: ReactNode[] = new Array<ReactNode>(ring).fill(null);
  const listOrder: string[] = [];
  const keep = urgent !== null && drawn.current.length === ring ? drawn.current : null;
  // Where the last scroll event left the screen (a ref: read in render, it may lag a frame, which
  // only delays a row's data by one render).
  const screen = screenAt(lastTop.current, viewport);
  for (let i = first; i < last; i++) {
    listOrder.push(`${rowIdPrefix}${i}`);
    // Off screen during a scroll event's render: the slot's element as it was (React skips it).
    if (keep !== null && (i < urgent!.start || i >= urgent!.end) && keep[i % ring]) {
      rows[i % ring] = keep[i % ring];
      continue;
    }
    const row = (i >= screen.start && i < screen.end ? getRow : laterGetRow)(i);
    rows[i % ring] = (
      <GridRow
        key={i % ring}
        id={`${rowIdPrefix}${i}`}
        index={i}
        row={row}
        selected={i === selectedIndex}
        top={i * rowHeight - rowsBase}
        height={rowHeight}
        template={template}
        columns={columns}
        onSelect={select}
      />
    );
  }
  // What each slot shows, for the next scroll event's render (a cache of elements, not state: a
  // render that is thrown away leaves elements that are still right for their slots).
  drawn.current = rows;

  return (
    <div
      ref={scroller}
      className="vg"
      role="grid"
      aria-label={props.label}
      aria-rowcount={rowCount + 1}
      aria-multiselectable={false}
      // The grid keeps the focus; a screen reader follows the selected row through this (set only
      // while that row is in the DOM).
      aria-activedescendant={
        selectedIndex !== null && selectedIndex >= first && selectedIndex < last ? `${rowIdPrefix}${selectedIndex}` : undefined
      }
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
      <div className="vg-space" style={{ height: spaceAt(viewport).height, minWidth }}>
        <div ref={body} className="vg-body" role="rowgroup" aria-owns={listOrder.join(' ')} style={{ height: contentHeight - rowsBase }}>
          {rows}
        </div>
      </div>
      {rowCount === 0 && props.empty ? <div className="vg-empty">{props.empty}</div> : null}
    </div>
  );
}

interface GridRowProps<T> {
  id: string;
  index: number;
  row: T | undefined;
  selected: boolean;
  top: number;
  height: number;
  template: string;
  columns: GridColumn<T>[];
  onSelect(index: number, row: T): void;
}

/** One row; memoized, so a row that stays on screen while the grid scrolls is not rendered again. */
function GridRowOf<T>({ id, index, row, selected, top, height, template, columns, onSelect }: GridRowProps<T>) {
  return (
    // eslint-disable-next-line jsx-a11y/interactive-supports-focus -- the grid holds the focus and points at its row with aria-activedescendant
    <div
      id={id}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`vg-row${selected ? ' is-selected' : ''}${row ? '' : ' is-loading'}`}
      data-testid={row ? 'grid-row' : 'grid-row-loading'}
      style={{ top, height, gridTemplateColumns: template }}
      onMouseDown={() => row && onSelect(index, row)}
    >
      {columns.map((c) => (
        <div key={c.id} role="gridcell" className={`vg-cell${c.align === 'right' ? ' is-right' : ''}`} data-col={c.id}>
          {row ? c.render(row) : ''}
        </div>
      ))}
    </div>
  );
}
const GridRow = memo(GridRowOf) as typeof GridRowOf;

/**
 * `value` as of a render after the frame that painted it: a new value is taken in a task that runs
 * after the next paint, the newest one then (values in between are skipped, never queued).
 */
function useAfterPaint<V>(value: V): V {
  const [later, setLater] = useState(() => value);
  const newest = useRef(value);
  const soon = useRef(false);
  useEffect(() => {
    newest.current = value;
    if (later === value || soon.current) return;
    soon.current = true;
    // A timer set in an animation frame's callback runs after that frame is painted.
    requestAnimationFrame(() =>
      setTimeout(() => {
        soon.current = false;
        setLater(() => newest.current);
      }),
    );
  }, [value, later]);
  return later;
}
