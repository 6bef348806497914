// Saved views (issue 16): the columns a person chooses, the status filter, the details pane, the
// open account and tab are found again after the app is closed and started on the same data; one
// account's status filter does not carry over to another. The restart is real: the browser and
// the core are closed and started again on the same data directory. Screenshot: docs/campaign-columns.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { unlimitedAdvertiser } from './app-session';
import { withDataFolder } from './flows/app';

const first = unlimitedAdvertiser();
const second = unlimitedAdvertiser([first.account_id]);

const folder = withDataFolder('desk-e2e-views-');
let page: Page;
/** Starts the app on the test's data folder (again, after folder.stop()). */
async function start(): Promise<void> {
  ({ page } = await folder.start());
}

const headers = () => page.locator('[data-testid="campaign-grid"] [role="columnheader"]').allTextContents();
const rows = () => page.locator('[data-testid="campaign-grid"] [data-testid="grid-row"]');

/** Waits until the window state written to the settings table says what `ok` looks for. */
function savedWhen(ok: (body: string) => boolean) {
  return page.waitForResponse((r) => r.url().endsWith('/api/views.save') && ok(r.request().postData() ?? ''), { timeout: 15_000 });
}

beforeAll(start);

describe('saved views', () => {
  it('offers every campaign field as a column and shows the chosen ones in order', async () => {
    await page.getByTestId(`account-${first.account_id}`).click({ timeout: 30_000 });
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBeGreaterThan(3);
    await page.getByTestId('columns-button').click();
    for (const field of ['spending_limit_model', 'marketing_objective', 'campaign_item_type', 'tracking_code', 'daily_ad_delivery_model']) {
      await page.getByTestId(`column-${field}`).check();
    }
    await page.getByTestId('column-cpc').uncheck();
    const saved = savedWhen((b) => b.includes('"detailsOpen":true') && b.includes('"id":"tracking_code","width":240'));
    await page.getByTestId('column-width-tracking_code').fill('240');
    await saved;
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('columns-panel').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('columns-button');

    const shown = await headers();
    expect(shown).toContain('Tracking code');
    expect(shown).toContain('Delivery model');
    expect(shown).toContain('Creative surface');
    expect(shown).not.toContain('CPC');
    expect(shown.slice(-5)).toEqual(['Limit model', 'Objective', 'Creative surface', 'Tracking code', 'Delivery model']);
    // Enum values read as words; the service's value is on hover.
    const surface = page.locator('[data-testid="campaign-grid"] [data-testid="grid-row"] [data-col="campaign_item_type"] span').first();
    const raw = await surface.getAttribute('title');
    expect(raw).toMatch(/^HAS_/);
    expect(await surface.textContent()).not.toBe(raw);
  });

  it('keeps a status filter with its account: the next account opens unfiltered', async () => {
    await page.getByTestId('status-filter').selectOption('APPROVED');
    await expect.poll(() => page.getByTestId('campaign-count').textContent()).toContain('match');
    await page.getByTestId(`account-${second.account_id}`).click();
    await expect.poll(() => page.getByTestId('status-filter').inputValue()).toBe('');
    await expect.poll(() => page.getByTestId('campaign-count').textContent(), { timeout: 30_000 }).not.toContain('match');
    // The second account has its own (default) columns.
    expect(await headers()).toContain('CPC');
    await page.getByTestId(`account-${first.account_id}`).click();
    await expect.poll(() => page.getByTestId('status-filter').inputValue()).toBe('APPROVED');
    expect(await headers()).toContain('Tracking code');
  });

  it('finds the account, tab, columns, filter and folded details pane again after a restart', async () => {
    const saved = savedWhen((b) => b.includes('"detailsOpen":false'));
    await page.getByTestId('details-toggle').click();
    await saved;
    await expect.poll(() => page.getByTestId('details-pane').count()).toBe(0);
    const tabSaved = savedWhen((b) => b.includes('"tab":"drafts"'));
    await page.getByTestId('tab-drafts').click();
    await tabSaved;

    await folder.stop();
    await start();

    await expect.poll(() => page.getByTestId('tab-drafts').getAttribute('aria-selected'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('tab-campaigns').click();
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId(`account-${first.account_id}`).getAttribute('aria-current')).toBeTruthy();
    expect(await page.getByTestId('status-filter').inputValue()).toBe('APPROVED');
    const shown = await headers();
    expect(shown).toContain('Tracking code');
    expect(shown).not.toContain('CPC');
    expect(await page.getByTestId('details-pane').count()).toBe(0);
    const width = await page
      .locator('[data-testid="campaign-grid"] [role="columnheader"]', { hasText: 'Tracking code' })
      .evaluate((el) => el.getBoundingClientRect().width);
    expect(Math.round(width)).toBe(240);
    if (process.env.UPDATE_SCREENSHOT) {
      await page.getByTestId('columns-button').click();
      await page.screenshot({ path: 'docs/campaign-columns.png' });
      await page.keyboard.press('Escape');
    }
  });
});
