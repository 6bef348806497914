import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AHEAD_ROWS,
  BASE_BLOCK_PX,
  BEHIND_ROWS,
  EDGE_ROWS,
  layoutBase,
  MAX_SCROLL_PX,
  rowsOnScreen,
  scrollSpace,
  scrollTopFor,
  windowChange,
  windowFor,
  type Rows,
} from '../../../src/renderer/components/grid-window';

const ROW = 28;
const BODY = 560; // 20 rows on screen
const N = 100_000;

describe('the virtual grid window', () => {
  it('reaches further ahead than behind in the direction of scrolling', () => {
    const screen = rowsOnScreen(ROW * 50_000, BODY, ROW, N);
    expect(screen).toEqual({ start: 50_000, end: 50_020 });
    expect(windowFor(screen, N, true, 1)).toMatchObject({ start: 50_000 - BEHIND_ROWS, end: 50_020 + AHEAD_ROWS, before: 0 });
    expect(windowFor(screen, N, false, 1)).toMatchObject({ start: 50_000 - AHEAD_ROWS, end: 50_020 + BEHIND_ROWS, after: 0 });
  });

  it('renders nothing while the screen stays inside with a margin, moves on when it runs low, and at once when rows on screen are missing', () => {
    const shown: Rows = { start: 1000, end: 1050 };
    expect(windowChange(shown, { start: 1010, end: 1030 }, N)).toBe('keep');
    expect(windowChange(shown, { start: 1028, end: 1048 }, N)).toBe('move');
    expect(windowChange(shown, { start: 1040, end: 1060 }, N)).toBe('now');
    expect(windowChange(shown, { start: 90_000, end: 90_020 }, N)).toBe('now');
  });

  it('needs no margin past the first or the last row', () => {
    expect(windowChange({ start: 0, end: 40 }, { start: 0, end: 20 }, N)).toBe('keep');
    expect(windowChange({ start: N - 40, end: N }, { start: N - 20, end: N }, N)).toBe('keep');
  });

  it('asks for data further ahead the faster it moves, and only for its own rows while flying past', () => {
    const screen = { start: 5000, end: 5020 };
    expect(windowFor(screen, N, true, 2).after).toBe(100);
    expect(windowFor(screen, N, true, 60).after).toBe(240);
    expect(windowFor(screen, N, true, 120).after).toBe(400);
    expect(windowFor(screen, N, true, 500)).toMatchObject({ before: 0, after: 0 });
  });

  it('after any scroll, every row on screen is in the DOM and the DOM stays small, for any list and jump', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.array(fc.nat(6_000_000), { minLength: 1, maxLength: 30 }), (rowCount, tops) => {
        const max = Math.max(0, rowCount * ROW - BODY);
        let shown: Rows = windowFor(rowsOnScreen(0, BODY, ROW, rowCount), rowCount, true, 0);
        let last = 0;
        for (const t of tops) {
          const top = Math.min(t, max);
          const screen = rowsOnScreen(top, BODY, ROW, rowCount);
          const change = windowChange(shown, screen, rowCount);
          if (change !== 'keep') shown = windowFor(screen, rowCount, top >= last, Math.abs(top - last) / ROW);
          last = top;
          expect(shown.start).toBeGreaterThanOrEqual(0);
          expect(shown.end).toBeLessThanOrEqual(rowCount);
          expect(shown.end - shown.start).toBeLessThanOrEqual(BODY / ROW + 1 + AHEAD_ROWS + BEHIND_ROWS);
          if (rowCount > 0) {
            expect(screen.start).toBeGreaterThanOrEqual(shown.start);
            expect(screen.end).toBeLessThanOrEqual(shown.end);
          }
          if (change !== 'keep' && rowCount > 0) expect(windowChange(shown, screen, rowCount)).toBe('keep');
        }
      }),
    );
  });

  it(`keeps at least ${EDGE_ROWS} rows of margin after moving on, unless at an end of the list`, () => {
    const w = windowFor({ start: 5000, end: 5020 }, N, true, 1);
    expect(w.start).toBeLessThanOrEqual(5000 - EDGE_ROWS);
    expect(w.end).toBeGreaterThanOrEqual(5020 + EDGE_ROWS);
  });
});

describe('the scroll space of a list taller than the browser lays out', () => {
  it('is the rows themselves up to MAX_SCROLL_PX, and no taller beyond', () => {
    expect(scrollSpace(ROW * N, BODY)).toEqual({ height: ROW * N, ratio: 1 });
    const big = scrollSpace(ROW * 1_000_000, BODY);
    expect(big.height).toBe(MAX_SCROLL_PX);
    expect(big.height).toBeLessThan(2 ** 25);
  });

  it('shows the first row at the top of the space and the last row wholly at its bottom, whatever the length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 600_000, max: 50_000_000 }), fc.integer({ min: 100, max: 3000 }), (rows, view) => {
        const space = scrollSpace(ROW * rows, view);
        const maxTop = space.height - view;
        // The offset into the rows at the bottom of the space is where the last row ends at the view's bottom.
        expect(maxTop * space.ratio).toBeCloseTo(ROW * rows - view, 3);
        expect(rowsOnScreen(maxTop * space.ratio, view, ROW, rows).end).toBe(rows);
      }),
    );
  });

  it('rounds a scroll position so that the row revealed is wholly in view', () => {
    const space = scrollSpace(ROW * 1_000_000, BODY);
    // Revealing downward: the offset reached is at least the one asked (the row's bottom in view).
    const down = scrollTopFor(12_345_678.5, space, 0);
    expect(down * space.ratio).toBeGreaterThanOrEqual(12_345_678.5);
    // Upward: at most the one asked (the row's top in view).
    const up = scrollTopFor(1_000.5, space, 5_000_000);
    expect(up * space.ratio).toBeLessThanOrEqual(1_000.5);
  });

  it('lays the rows of any list out within what Chromium can lay out, with a base that changes rarely', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000_000 }), fc.integer({ min: 1, max: 200 }), (start, span) => {
        const base = layoutBase(start, ROW);
        // Every row of the window sits at a small offset from the base: far under 2^25 px.
        expect(start * ROW - base).toBeGreaterThanOrEqual(0);
        expect((start + span) * ROW - base).toBeLessThan(BASE_BLOCK_PX + 200 * ROW);
        expect(base % BASE_BLOCK_PX).toBe(0);
      }),
    );
    // Scrolling a screen further keeps the base (the rows are not rendered again for it) but at a block's edge.
    expect(layoutBase(1000, ROW)).toBe(layoutBase(1030, ROW));
  });
});
