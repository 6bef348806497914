import { describe, expect, it } from 'vitest';
import { KEPT_PAGES, keepPages, PAGE_SIZE } from '../../../src/renderer/stores/campaigns-store';
import type { CampaignRecord } from '../../../src/shared/ipc/contract';

// The campaigns store keeps a bounded set of pages: a long scroll through a million rows must not
// keep every page it passed (each page is 200 records with every field the service sent).
const page: CampaignRecord[] = [];

describe('the pages the campaigns store keeps', () => {
  it('keeps the first page and at most KEPT_PAGES others, dropping the farthest from the rows in view and never those in view', () => {
    let pages: Record<number, CampaignRecord[]> = {};
    // Scrolled from the top to page 3000, one page at a time.
    for (let p = 0; p <= 3000; p++) pages = keepPages(pages, p, page, { start: p * PAGE_SIZE, end: (p + 1) * PAGE_SIZE });
    const held = Object.keys(pages).map(Number);
    expect(held).toHaveLength(KEPT_PAGES + 1);
    // The first page stays for the switch back to the account (and Home); the rest are the nearest.
    expect(pages[0]).toBeDefined();
    expect(Math.min(...held.filter((p) => p > 0))).toBe(3001 - KEPT_PAGES);
    // A page far away arriving late (an answer to an older range) is kept; the farthest of the rest goes.
    pages = keepPages(pages, 10, page, { start: 2999 * PAGE_SIZE, end: 3001 * PAGE_SIZE });
    expect(pages[10]).toBeDefined();
    expect(pages[3000]).toBeDefined();
    expect(pages[2999]).toBeDefined();
    expect(pages[0]).toBeDefined();
    expect(Object.keys(pages)).toHaveLength(KEPT_PAGES + 1);
  });

  it('keeps every page while there are few', () => {
    const pages = keepPages({ 0: page, 7: page }, 3, page, { start: 0, end: 200 });
    expect(
      Object.keys(pages)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([0, 3, 7]);
  });
});
