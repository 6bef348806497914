// The campaign grid's column model: the defaults fit a 1024 px window, a dragged header lands
// where it was dropped, widths stay within what a saved view accepts, and the name column takes
// the spare width only until a person sets its width.
import { describe, expect, it } from 'vitest';
import { campaignColumns, chosenColumns, moveColumn, resizeColumn } from '../../../../src/renderer/features/campaigns/campaign-columns';
import { FIELD_BY_ID } from '../../../../src/renderer/features/campaigns/campaign-fields';

const cols = (...ids: string[]) => ids.map((id) => ({ id, width: FIELD_BY_ID.get(id)!.width }));
const ids = (c: { id: string }[]) => c.map((x) => x.id);

describe('campaign columns', () => {
  it('defaults to columns that, with the pick column, fit the grid of a 1024 px window with a scrollbar', () => {
    // 1024 - 232 (sidebar) - 15 (scrollbar) = 777 px; the pick column is 44.
    for (const network of [false, true]) {
      const total = 44 + chosenColumns([], network).reduce((sum, c) => sum + c.width, 0);
      expect(total).toBeLessThanOrEqual(777);
      expect(ids(chosenColumns([], network)).slice(-2)).toEqual(['start_date', 'id']);
    }
    expect(ids(chosenColumns([], true))).toContain('advertiser_name');
    // A saved choice wins; fields this version does not know are dropped.
    expect(
      ids(
        chosenColumns(
          [
            { id: 'gone', width: 90 },
            { id: 'cpc', width: 70 },
          ],
          false,
        ),
      ),
    ).toEqual(['cpc']);
  });

  it('moves a column before or after the one it was dropped on', () => {
    const c = cols('name', 'status', 'spent', 'id');
    expect(ids(moveColumn(c, 'id', 'name', 'before'))).toEqual(['id', 'name', 'status', 'spent']);
    expect(ids(moveColumn(c, 'name', 'spent', 'after'))).toEqual(['status', 'spent', 'name', 'id']);
    expect(ids(moveColumn(c, 'name', 'status', 'before'))).toEqual(['name', 'status', 'spent', 'id']);
    // Onto itself or an unknown column: nothing moves, widths kept.
    expect(moveColumn(c, 'spent', 'spent', 'after')).toBe(c);
    expect(moveColumn(c, 'spent', 'nowhere', 'after')).toBe(c);
  });

  it("keeps a width between the column's own minimum and 1200 whole pixels, ignoring what is not a number", () => {
    const c = cols('name', 'spent');
    expect(resizeColumn(c, 'spent', 10)[1].width).toBe(64);
    expect(resizeColumn(c, 'name', 40)[0].width).toBe(150);
    expect(resizeColumn(c, 'spent', 5000)[1].width).toBe(1200);
    expect(resizeColumn(c, 'spent', 151.6)[1].width).toBe(152);
    expect(resizeColumn(c, 'spent', Number.NaN)).toBe(c);
    expect(resizeColumn(c, 'spent', 150)[0]).toEqual(c[0]);
  });

  it('lets the name column grow only while it has its default width; every column can be resized and moved', () => {
    const grid = campaignColumns(cols('name', 'status'));
    expect(grid[0].grow).toBe(true);
    expect(grid.every((g) => g.resizable && g.movable)).toBe(true);
    expect(campaignColumns(resizeColumn(cols('name'), 'name', 300))[0].grow).toBe(false);
  });

  it('opens a view saved with a column below its minimum at the minimum', () => {
    const grid = campaignColumns([
      { id: 'name', width: 40 },
      { id: 'cpc', width: 40 },
    ]);
    expect(grid.map((g) => [g.width, g.minWidth])).toEqual([
      [150, 150],
      [64, 64],
    ]);
  });
});
