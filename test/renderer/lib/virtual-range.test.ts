import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pagesOf, scrollTopToReveal, visibleRange } from '../../../src/renderer/lib/virtual-range';

describe('virtual grid windowing', () => {
  it('puts only the rows in view (plus overscan) in the DOM, even for 100,000 rows', () => {
    const r = visibleRange({ scrollTop: 28 * 50_000, viewportHeight: 560, rowHeight: 28, rowCount: 100_000, overscan: 8 });
    expect(r).toEqual({ start: 49_992, end: 50_029 });
    expect(r.end - r.start).toBeLessThan(60);
  });

  it('always covers every row that is visible, never leaves [0, rowCount), and stays small', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 10, max: 60 }),
        fc.nat(5_000_000),
        (rowCount, viewport, rowHeight, scroll) => {
          const maxScroll = Math.max(0, rowCount * rowHeight - viewport);
          const scrollTop = Math.min(scroll, maxScroll);
          const { start, end } = visibleRange({ scrollTop, viewportHeight: viewport, rowHeight, rowCount });
          expect(start).toBeGreaterThanOrEqual(0);
          expect(end).toBeLessThanOrEqual(rowCount);
          if (rowCount === 0) {
            expect(end - start).toBe(0);
            return;
          }
          const firstVisible = Math.floor(scrollTop / rowHeight);
          const lastVisible = Math.min(rowCount - 1, Math.floor((scrollTop + viewport - 1) / rowHeight));
          expect(start).toBeLessThanOrEqual(firstVisible);
          expect(end).toBeGreaterThan(lastVisible);
          expect(end - start).toBeLessThanOrEqual(Math.ceil(viewport / rowHeight) + 1 + 16);
        },
      ),
    );
  });

  it('scrolls the least needed to reveal a row', () => {
    expect(scrollTopToReveal(10, 28, 0, 280)).toBe(28);
    expect(scrollTopToReveal(3, 28, 200, 280)).toBe(84);
    expect(scrollTopToReveal(5, 28, 0, 280)).toBe(0);
  });

  it('names the pages a row range touches', () => {
    expect(pagesOf(0, 200, 200)).toEqual([0]);
    expect(pagesOf(190, 230, 200)).toEqual([0, 1]);
    expect(pagesOf(5, 5, 200)).toEqual([]);
  });
});
