// Issue 14, learned account capabilities in the window: the interface's display example (no
// branding, no spending limit) can be entered and is ready to queue; on an account not enabled for
// display the service refuses it, and the next display draft of that account says so before it is
// queued (in the service's words, with the date) while Queue stays offered. The account's settings
// (Shift+F10 on the account, or the warning's link) show what is known and let the person say
// otherwise, which takes the warning away. On an account enabled for display the example posts.
// Screenshots: docs/capability-warning.png, docs/account-capabilities.png; axe clean in both themes.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoClient, fixtures, openAccount, openAxePage } from './app-session';
import { expectAxeClean } from './axe';
import { withApp } from './flows/app';
import { fillCampaignDraft } from './flows/drafts';
import { sandboxCampaignNames, screenshotPath } from './support';

const app = withApp();
let page: Page;

const notEnabled = fixtures.accounts.find((a) => a.account_id === 'freshcrumbbakery' && (a.features ?? []).length === 0);
const enabled = fixtures.accounts.find((a) => a.account_id === 'acmeshoes' && (a.features ?? []).includes('DISPLAY'));

beforeAll(async () => {
  if (!notEnabled || !enabled)
    throw new Error('the demo fixtures changed: Fresh Crumb Bakery without features and Acme Shoes with display are needed');
  page = await openAxePage(app);
});

describe('Account capabilities', () => {
  it('a refused display campaign is remembered and shown before the next one is queued; the person can say otherwise', async () => {
    await openAccount(page, 'freshcrumbbakery');
    const first = `Holiday banners ${Date.now()}`;
    // Nothing is known yet: the example is ready to queue, with no warning.
    await fillCampaignDraft(page, first, { kind: 'display' });
    expect(await page.getByTestId('capability-warning').count()).toBe(0);
    await page.getByTestId('draft-queue').click();

    // The service refuses it; the next display draft of the account is warned about, not blocked.
    await fillCampaignDraft(page, `Cookie banners ${Date.now()}`, { kind: 'display', ready: null });
    const warning = page.getByTestId('capability-warning');
    await expect.poll(() => warning.count(), { timeout: 30_000 }).toBe(1);
    expect(await warning.textContent()).toMatch(
      /Fresh Crumb Bakery refused display campaigns on [A-Z][a-z]{2} \d{1,2}: This account is not enabled for display campaigns\. Queue anyway, or change the campaign type\./,
    );
    expect(await page.getByTestId('problem-count').textContent()).toBe('Ready to queue (1 warning)');
    expect(await page.getByTestId('draft-queue').isEnabled()).toBe(true);
    // The choice itself says what is known, and stays offered.
    expect(await page.locator('#f-campaign_item_type option[value="HAS_NO_ITEMS_DISPLAY"]').textContent()).toMatch(
      /^Display \(no items yet\) \(refused by the service on /,
    );
    await expectAxeClean(page);
    await page.screenshot({ path: screenshotPath('capability-warning.png') });

    // The account's settings from the keyboard, on the account in the sidebar.
    await page.getByTestId('account-freshcrumbbakery').focus();
    await page.keyboard.press('Shift+F10');
    const dialog = page.getByTestId('account-capabilities-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('capability-display-known').textContent()).toMatch(
      /^Refused by the service on .+: This account is not enabled for display campaigns$/,
    );
    expect(await dialog.getByTestId('capability-display-refused').isChecked()).toBe(true);
    expect(await dialog.getByTestId('capability-performance_video-unknown').isChecked()).toBe(true);
    expect(await dialog.getByTestId('capability-no_spending_limit-known').textContent()).toBe('Not known yet');
    await expectAxeClean(page);
    await dialog.screenshot({ path: screenshotPath('account-capabilities.png') });

    // The person knows the account was enabled since: the warning goes, and the choice says so.
    await dialog.getByTestId('capability-display-enabled').check();
    await dialog.getByTestId('capabilities-save').click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByTestId('capability-warning').count()).toBe(0);
    expect(await page.locator('#f-campaign_item_type option[value="HAS_NO_ITEMS_DISPLAY"]').textContent()).toMatch(
      /\(enabled \(you said so on /,
    );

    // Opened again (right-click), it shows the person's word.
    await page.getByTestId('account-freshcrumbbakery').click({ button: 'right' });
    await dialog.waitFor();
    expect(await dialog.getByTestId('capability-display-known').textContent()).toMatch(/^Enabled \(you said so on /);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });

  it('the display example posts on an account enabled for display', async () => {
    await openAccount(page, 'acmeshoes');
    const name = `Winter boots banners ${Date.now()}`;
    await fillCampaignDraft(page, name, { kind: 'display' });
    await page.getByTestId('draft-queue').click();
    await expect
      .poll(() => sandboxCampaignNames(app.sandboxUrl, demoClient.client_id, demoClient.client_secret, 'acmeshoes'), { timeout: 30_000 })
      .toContain(name);
    expect(app.pageErrors).toEqual([]);
  });
});
