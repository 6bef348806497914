// Which rows the virtual grid keeps in the DOM while it scrolls, and which it asks data for. Pure
// arithmetic on row indexes, so the grid's scroll handler stays a few lines and this is unit-tested.
//
// The rows in the DOM reach a little beyond the screen, more in the direction of scrolling. While
// the rows on screen are inside them with a margin to spare, a scroll changes nothing: no render.
// When the margin runs low the window moves, rendered in React's next task (the rows needed are
// still there meanwhile); only when rows on screen are outside it (a jump or a fast fling) must it
// be rendered before the frame is painted, or the person would see empty space.

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
