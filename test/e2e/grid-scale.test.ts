import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../src/main/browser-mode/server';
import type { CampaignRow } from '../../src/shared/ipc/contract';
import { createManualEvents, createTransportTable, sampleProfile, sampleRow } from '../helpers/transport-handlers';
import { RENDERER_DIR, ensureRendererBuilt, launchChromium, screenshotPath } from './support';

// The grid's windowing at scale, with the transport-test handler table answering campaigns.records
// from 100,000 generated rows (the real core's query speed is measured by the store's own tests
// and bench; this file is about the page keeping only what is visible in the DOM, and about what a
// person sees while flinging the wheel; bench/grid-scroll.ts measures the same against the real app).
const N = 100_000;
const rows: CampaignRow[] = Array.from({ length: N }, (_, i) => ({
  ...sampleRow(i),
  id: String(i),
  name: `Generated campaign ${String(i).padStart(6, '0')}`,
}));

let server: BrowserServer;
let browser: Browser;
let page: Page;
let queries = 0;

beforeAll(async () => {
  ensureRendererBuilt();
  const table = createTransportTable();
  table.profiles.push(sampleProfile('p1'));
  table.handlers['campaigns.query'] = async (a) => {
    queries += 1;
    return { rows: rows.slice(a.offset, a.offset + a.limit), total: N, syncedAt: Date.now() };
  };
  // The grid reads campaigns.records (each row with every field the service sent).
  table.handlers['campaigns.records'] = async (a) => {
    queries += 1;
    return {
      rows: rows.slice(a.offset, a.offset + a.limit).map((r) => ({ ...r, fields: {} })),
      total: a.withTotal === false ? null : N,
      syncedAt: Date.now(),
    };
  };
  // ... and its total apart (issue #29).
  table.handlers['campaigns.count'] = async () => ({ total: N });
  table.handlers['activity.list'] = async () => [];
  server = await startBrowserServer({
    handlers: table.handlers,
    events: createManualEvents(),
    staticDir: RENDERER_DIR,
    log: () => undefined,
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(server.openUrl);
  await page.getByTestId('cell-name').first().waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const domRows = () => page.locator('[data-testid="campaign-grid"] [role="row"][aria-rowindex]:not(.vg-header)').count();

describe('campaigns grid with 100,000 rows (transport-test handler table)', () => {
  it('shows the total and keeps only the visible rows in the DOM', async () => {
    await expect.poll(() => page.getByTestId('campaign-count').textContent()).toContain('100,000');
    expect(await domRows()).toBeLessThan(60);
    expect(await page.evaluate(() => document.querySelector('[data-testid="campaign-grid"]')!.scrollHeight)).toBeGreaterThan(28 * N);
  });

  it('jumps to the end, fetching only the pages in view, and shows the last row', async () => {
    const before = queries;
    await page.getByTestId('campaign-grid').focus();
    await page.keyboard.press('End');
    await expect.poll(() => page.getByTestId('details-name').textContent()).toBe('Generated campaign 099999');
    // The row drawn lowest (row elements are reused in place, so the DOM's order is not the list's).
    const lowest = () =>
      page.getByTestId('campaign-grid').evaluate((el) => {
        const rows = [...el.querySelectorAll<HTMLElement>('.vg-body > [role="row"]')];
        rows.sort((a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom);
        return rows[0]?.querySelector('[data-testid="cell-name"]')?.textContent ?? null;
      });
    await expect.poll(lowest).toBe('Generated campaign 099999');
    expect(await domRows()).toBeLessThan(60);
    expect(queries - before).toBeLessThanOrEqual(3);
  });

  it('scrolls through the middle in large steps with frames to spare', async () => {
    const ms = await page.evaluate(async () => {
      const el = document.querySelector('[data-testid="campaign-grid"]')!;
      el.scrollTop = 0;
      const t0 = performance.now();
      for (let i = 0; i < 50; i++) {
        el.scrollTop += 28 * 1500;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
      }
      return performance.now() - t0;
    });
    // 50 frames; a headless software-rendered Chromium on a shared 2-core box, so a loose bound.
    expect(ms / 50).toBeLessThan(100);
    expect(await domRows()).toBeLessThan(60);
  });

  it('never shows empty space where rows belong during fast wheel flings, and fills the rows in view once they stop', async () => {
    const grid = page.getByTestId('campaign-grid');
    await grid.evaluate((el) => (el.scrollTop = 0));
    await page.getByTestId('cell-name').first().waitFor();
    const box = (await grid.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Every frame: is each row position in view covered by a row element? (A row still waiting for
    // its data is a placeholder row, checked after the flings.)
    await grid.evaluate((el) => {
      const probe = { frames: 0, gaps: 0, on: true };
      (window as unknown as { gridProbe: typeof probe }).gridProbe = probe;
      const frame = () => {
        if (!probe.on) return;
        const header = el.querySelector<HTMLElement>('.vg-header')!.offsetHeight;
        const rows = [...el.querySelectorAll<HTMLElement>('.vg-body > [role="row"]')];
        const shown = new Set(rows.map((r) => Number(r.getAttribute('aria-rowindex')) - 2));
        const height = rows[0]?.offsetHeight ?? 28;
        const last = Math.ceil((el.scrollTop + el.clientHeight - header) / height);
        for (let i = Math.floor(el.scrollTop / height); i < last; i++) {
          if (!shown.has(i)) {
            probe.gaps += 1;
            break;
          }
        }
        probe.frames += 1;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    // Three flings of 25 quick wheel steps, as a fast hand or a touchpad sends them.
    for (let fling = 0; fling < 3; fling++) for (let i = 0; i < 25; i++) await page.mouse.wheel(0, 600);
    // Until the grid has stopped: its position unchanged for 10 frames.
    await grid.evaluate(
      (el) =>
        new Promise<void>((resolve) => {
          let top = el.scrollTop;
          let still = 0;
          const tick = () => {
            if (el.scrollTop !== top) [top, still] = [el.scrollTop, 0];
            else if (++still >= 10) return resolve();
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
    );
    const probe = await page.evaluate(() => {
      const p = (window as unknown as { gridProbe: { frames: number; gaps: number; on: boolean } }).gridProbe;
      p.on = false;
      return { frames: p.frames, gaps: p.gaps };
    });
    expect(await grid.evaluate((el) => el.scrollTop)).toBeGreaterThan(28 * 1000);
    expect(probe.frames).toBeGreaterThan(10);
    expect(probe.gaps).toBe(0);
    await expect.poll(() => grid.locator('[data-testid="grid-row-loading"]').count()).toBe(0);
    const first = await grid.evaluate((el) => Math.floor(el.scrollTop / 28));
    await expect.poll(() => page.getByTestId('cell-name').first().textContent()).toMatch(/^Generated campaign \d{6}$/);
    const names = await page.getByTestId('cell-name').allTextContents();
    expect(names).toContain(`Generated campaign ${String(first + 1).padStart(6, '0')}`);
    await page.screenshot({ path: screenshotPath('grid-after-fling.png') });
  });
});
