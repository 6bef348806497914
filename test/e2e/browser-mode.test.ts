import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserMode } from '../../src/main/browser-mode/start';
import { demoFixtures } from '../../src/sandbox/index';
import { RENDERER_DIR, ensureRendererBuilt, launchChromium, sandboxCampaignNames, screenshotPath } from './support';

// The demo account the test opens: one the demo client reaches, an advertiser outside any network,
// created on or before 2026-10-04 so it is not rate limited (the test's own list calls then cannot
// starve the app's sync). Chosen from the sandbox's own fixtures, not written here.
const fixtures = demoFixtures(Date.now());
const client = fixtures.clients[0];
const account = fixtures.accounts.find(
  (a) =>
    client.accounts.includes(a.account_id) &&
    a.type === 'ADVERTISER' &&
    !a.network_id &&
    Date.parse(a.created_at) <= Date.parse('2026-10-04T23:59:59Z'),
);

let dataDir: string;
let mode: BrowserMode;
let browser: Browser;
let page: Page;
let expectedNames: string[] = [];
const consoleProblems: string[] = [];

const gridNames = () => page.getByTestId('campaign-grid').getByTestId('cell-name').allTextContents();

beforeAll(async () => {
  if (!account) throw new Error('the demo fixtures have no unlimited advertiser account for the demo client');
  ensureRendererBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-'));
  mode = await startBrowserMode({ dataDir, staticDir: RENDERER_DIR, version: 'e2e', log: () => undefined });
  expectedNames = await sandboxCampaignNames(mode.demoUrl!, client.client_id, client.client_secret, account.account_id);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleProblems.push(m.text());
  });
  page.on('pageerror', (e) => consoleProblems.push(String(e)));
  await page.goto(mode.server.openUrl);
});

afterAll(async () => {
  await browser?.close();
  await mode?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('browser mode in Chromium against the built-in sandbox', () => {
  it('loads the app, takes the token out of the address bar, and lists the demo connection', async () => {
    await expect.poll(() => page.getByTestId(`account-${account!.account_id}`).count(), { timeout: 30_000 }).toBe(1);
    expect(page.url()).not.toContain('token=');
    await expect.poll(() => page.getByTestId('account-tree').textContent()).toContain(account!.name);
  });

  it('shows the cached campaigns of the demo account, the same ones the sandbox lists', async () => {
    expect(expectedNames.length).toBeGreaterThan(5);
    await page.getByTestId(`account-${account!.account_id}`).click();
    await expect.poll(async () => (await gridNames()).length, { timeout: 30_000 }).toBeGreaterThan(5);
    const shown = await gridNames();
    for (const name of shown) expect(expectedNames).toContain(name);
    await expect.poll(() => page.getByTestId('campaign-count').textContent()).toContain(`${expectedNames.length} campaign`);
  });

  it('keeps only the visible rows in the DOM', async () => {
    const rows = await page.getByTestId('campaign-grid').getByTestId('grid-row').count();
    expect(rows).toBeLessThanOrEqual(Math.min(expectedNames.length, 60));
  });

  it('sorts by a column when its header is clicked, and reverses on the second click', async () => {
    const spent = async () =>
      (await page.locator('[data-testid="campaign-grid"] [data-testid="grid-row"] [data-col="spent"]').allTextContents())
        .map((t) => Number(t.replace(/[^0-9.-]/g, '')))
        .filter((n) => !Number.isNaN(n) && n !== 0);
    const before = await gridNames();
    await page.getByTestId('sort-spent').click();
    await expect.poll(async () => (await gridNames()).join('|')).not.toBe(before.join('|'));
    const asc = await spent();
    expect(asc.length).toBeGreaterThan(3);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    await page.getByTestId('sort-spent').click();
    await expect.poll(async () => (await spent())[0]).toBeGreaterThanOrEqual(asc[asc.length - 1]);
    const desc = await spent();
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
  });

  it('sorts from anywhere in a header cell, not only its title: the empty right part of the wide Name header', async () => {
    const header = page.getByRole('columnheader', { name: /^Name/ });
    const box = (await header.boundingBox())!;
    // Where the title's letters end: the click lands well to the right of them.
    const titleRight = await header.evaluate((el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      range.selectNodeContents(walker.nextNode()!);
      return range.getBoundingClientRect().right;
    });
    const x = box.width - 12;
    expect(box.x + x).toBeGreaterThan(titleRight + 40);
    await header.click({ position: { x, y: box.height / 2 } });
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    const names = await gridNames();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    await header.click({ position: { x, y: box.height / 2 } });
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
  });

  it('filters by status and by debounced text search', async () => {
    await page.getByTestId('status-filter').selectOption('APPROVED');
    await expect
      .poll(async () => {
        const statuses = await page.locator('[data-testid="campaign-grid"] [data-testid="grid-row"] [data-col="status"]').allTextContents();
        return statuses.length > 0 && statuses.every((s) => s === 'approved');
      })
      .toBe(true);
    await page.getByTestId('status-filter').selectOption('');
    const word = expectedNames[0].split(' ')[0];
    await page.getByTestId('campaign-search').fill(word);
    await expect
      .poll(async () => {
        const names = await gridNames();
        return names.length > 0 && names.every((n) => n.toLowerCase().includes(word.toLowerCase()));
      })
      .toBe(true);
    await page.getByTestId('campaign-search').fill('');
    await expect.poll(async () => (await gridNames()).length).toBeGreaterThan(5);
  });

  it('shows the details of the selected row, also after moving with the keyboard', async () => {
    const first = page.getByTestId('campaign-grid').getByTestId('grid-row').first();
    const name = await first.getByTestId('cell-name').textContent();
    await first.click();
    await expect.poll(() => page.getByTestId('details-name').textContent()).toBe(name);
    await page.getByTestId('campaign-grid').press('ArrowDown');
    const second = await page.getByTestId('campaign-grid').getByTestId('grid-row').nth(1).getByTestId('cell-name').textContent();
    await expect.poll(() => page.getByTestId('details-name').textContent()).toBe(second);
  });

  it('switches account with Ctrl+K', async () => {
    const other = fixtures.accounts.find(
      (a) => client.accounts.includes(a.account_id) && a.account_id !== account!.account_id && a.type === 'ADVERTISER',
    );
    await page.keyboard.press('Control+k');
    await page.getByTestId('account-switcher').locator('input').fill(other!.name);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('account-switcher-button').textContent()).toContain(other!.name);
    await page.getByTestId(`account-${account!.account_id}`).click();
  });

  it('reports freshness, queue and rate limits in the status bar, and logs no CSP violation or page error', async () => {
    await expect.poll(() => page.getByTestId('last-synced').textContent()).not.toContain('never');
    expect(await page.getByTestId('status-bar').textContent()).toMatch(/queued|Nothing queued/);
    expect(consoleProblems).toEqual([]);
  });

  it('shows the clicked campaign in the details pane (the README screenshot, 1280x800)', async () => {
    const row = page.getByTestId('campaign-grid').getByTestId('grid-row').nth(2);
    const name = (await row.getByTestId('cell-name').textContent()) ?? '';
    await row.click();
    await expect.poll(() => page.getByTestId('details-name').textContent()).toBe(name);
    // The README's picture is refreshed only on request, so a test run leaves the tree clean.
    await page.screenshot({ path: screenshotPath('screenshot.png') });
  });
});
