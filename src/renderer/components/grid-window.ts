// Which rows the virtual grid keeps in the DOM while it scrolls, and which it asks data for. Pure
// arithmetic on row indexes, so the grid's scroll handler stays a few lines and this is unit-tested.
//
// The rows in the DOM reach a little beyond the screen, more in the direction of scrolling. While
// the rows on screen are inside them with a margin to spare, a scroll changes nothing: no render.
// When the margin runs low the window moves, rendered in React's next task (the rows needed are
// still there meanwhile); only when rows on screen are outside it (a jump or a fast fling) must it
// be rendered before the frame is painted, or the person would see empty space.

/**
 * The most scroll space the grid makes, in CSS px. Chromium lays out at most 2^25 px (33,554,432) in
 * one element: a list taller than that could not be scrolled to its last rows. Half of it keeps a
 * margin; a list taller (over 599,000 rows of 28 px) scrolls a scaled space.
 */
export const MAX_SCROLL_PX = 2 ** 24;

/**
 * Rows are laid out at their offset less a base, a multiple of this many px, so that no row of a
 * list longer than Chromium's 2^25 px of layout is placed beyond it; the layer of rows is moved by
 * the base (and the scaled space's lag) with a transform.
 */
export const BASE_BLOCK_PX = 2 ** 22;

/** The base (px) under which the rows from `start` are laid out: changes once every BASE_BLOCK_PX of rows. */
export function layoutBase(start: number, rowHeight: number): number {
  return Math.floor((start * rowHeight) / BASE_BLOCK_PX) * BASE_BLOCK_PX;
}

/** The scroll space of a list: its height, and how many px of rows one px of scrolling moves (1 but on the longest lists). */
export interface ScrollSpace {
  height: number;
  ratio: number;
}

/** The scroll space for rows `contentHeight` px tall seen through `viewHeight` px: the top of the space shows the first row, its bottom the last. */
export function scrollSpace(contentHeight: number, viewHeight: number): ScrollSpace {
  if (contentHeight <= MAX_SCROLL_PX || viewHeight >= MAX_SCROLL_PX) return { height: contentHeight, ratio: 1 };
  return { height: MAX_SCROLL_PX, ratio: (contentHeight - viewHeight) / (MAX_SCROLL_PX - viewHeight) };
}

/**
 * The scroll position that shows the rows from `offset` px (an offset into the rows), rounded
 * towards `from`'s side so that a row revealed at the bottom (or top) is wholly in view.
 */
export function scrollTopFor(offset: number, space: ScrollSpace, from: number): number {
  const exact = offset / space.ratio;
  return offset > from * space.ratio ? Math.ceil(exact) : Math.floor(exact);
}

/** Rows [start, end). */
export interface Rows {
  start: number;
  end: number;
}

export interface GridWindow extends Rows {
  /** Rows asked for beyond the window, before and after it (ahead in the direction of scrolling). */
  before: number;
  after: number;
}

/** Rows kept in the DOM beyond the screen: ahead in the direction of scrolling, and behind. */
export const AHEAD_ROWS = 16;
export const BEHIND_ROWS = 6;
/** Rows of margin below which the window is moved on. */
export const EDGE_ROWS = 3;
/** Rows asked for beyond the window in the direction of scrolling, at least and at most. */
export const PREFETCH_ROWS = 100;
export const MAX_PREFETCH_ROWS = 400;
/**
 * Rows moved in one frame above which the grid is flying past: rows ahead would be passed before
 * their data came, so only the window's own rows are asked for (their page often still covers the
 * next frame's, and asking more only adds work to every frame).
 */
export const FLYING_ROWS = 150;

/** The rows on screen (at least partly) at this scroll position. */
export function rowsOnScreen(scrollTop: number, bodyHeight: number, rowHeight: number, rowCount: number): Rows {
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const start = Math.min(rowCount - 1, Math.max(0, Math.floor(scrollTop / rowHeight)));
  const end = Math.min(rowCount, Math.max(start + 1, Math.ceil((scrollTop + Math.max(0, bodyHeight)) / rowHeight)));
  return { start, end };
}

/** The window around the rows on screen when scrolling down (or up), having moved `moved` rows since the last frame. */
export function windowFor(screen: Rows, rowCount: number, down: boolean, moved: number): GridWindow {
  const start = Math.max(0, screen.start - (down ? BEHIND_ROWS : AHEAD_ROWS));
  const end = Math.min(rowCount, screen.end + (down ? AHEAD_ROWS : BEHIND_ROWS));
  if (moved > FLYING_ROWS) return { start, end, before: 0, after: 0 };
  const reach = Math.min(MAX_PREFETCH_ROWS, Math.max(PREFETCH_ROWS, Math.ceil(4 * moved)));
  return { start, end, before: down ? 0 : reach, after: down ? reach : 0 };
}

/**
 * What a scroll to `screen` does to the window `shown` (the one in the DOM now):
 * 'keep' (enough margin), 'move' (render soon) or 'now' (rows on screen are missing: render before paint).
 */
export function windowChange(shown: Rows, screen: Rows, rowCount: number): 'keep' | 'move' | 'now' {
  if (screen.start < shown.start || screen.end > shown.end) return 'now';
  // At the first or last row there is nothing more to show on that side: no margin needed there.
  const above = shown.start === 0 ? Infinity : screen.start - shown.start;
  const below = shown.end >= rowCount ? Infinity : shown.end - screen.end;
  return Math.min(above, below) < EDGE_ROWS ? 'move' : 'keep';
}
