import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../src/main/browser-mode/server';
import type { CampaignRow } from '../../src/shared/ipc/contract';
import { createManualEvents, createTransportTable, sampleProfile, sampleRow } from '../main/transport-handlers';
import { RENDERER_DIR, ensureRendererBuilt, launchChromium } from './support';

// The grid's windowing at scale, with the transport-test handler table answering campaigns.records
// from 100,000 generated rows (the real core's query speed is measured by the store's own tests
// and bench; this file is about the page keeping only what is visible in the DOM).
const N = 100_000;
const rows: CampaignRow[] = Array.from({ length: N }, (_, i) => ({ ...sampleRow(i), id: String(i), name: `Generated campaign ${String(i).padStart(6, '0')}` }));

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
    return { rows: rows.slice(a.offset, a.offset + a.limit).map((r) => ({ ...r, fields: {} })), total: N, syncedAt: Date.now() };
  };
  table.handlers['activity.list'] = async () => [];
  server = await startBrowserServer({ handlers: table.handlers, events: createManualEvents(), staticDir: RENDERER_DIR, log: () => undefined });
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
    await expect.poll(() => page.getByTestId('cell-name').last().textContent()).toBe('Generated campaign 099999');
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
});
