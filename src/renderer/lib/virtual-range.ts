// The arithmetic of a fixed-row-height window over a long list: which rows are in view (plus a
// margin so fast scrolling does not show blanks) and where to scroll to reveal a row.
export interface RangeInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  rowCount: number;
  overscan?: number;
}

/** Rows [start, end) to put in the DOM. */
export function visibleRange({ scrollTop, viewportHeight, rowHeight, rowCount, overscan = 8 }: RangeInput): { start: number; end: number } {
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const inView = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(rowCount - 1, first - overscan));
  const end = Math.min(rowCount, first + inView + overscan);
  return { start, end: Math.max(start, end) };
}

/** The scrollTop that brings row `index` fully into view with the least movement. */
export function scrollTopToReveal(index: number, rowHeight: number, scrollTop: number, viewportHeight: number): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}

/** The pages (of `pageSize` rows) a row range touches. */
export function pagesOf(start: number, end: number, pageSize: number): number[] {
  if (end <= start) return [];
  const out: number[] = [];
  for (let p = Math.floor(start / pageSize); p <= Math.floor((end - 1) / pageSize); p++) out.push(p);
  return out;
}
