// Issue 27 item 7: the Edit connection dialog names every field by its own label (not the add
// dialog's ids), reads in the dialog's own plain text (not the bold of the sidebar header it is
// opened from), puts focus back in the secret field after the service refused the secret, with the
// refusal as that field's description; and the scrolling lists of the removal dialog and of
// Activity are keyboard-reachable regions with names. axe finds nothing serious or critical on
// either dialog in either theme. Screenshots: .tmp/screenshots/edit-connection-a11y.png and
// remove-unsent-scroll.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeLeftoverDialogs, openAxePage, unlimitedAdvertiser } from './app-session';
import { expectAxeClean } from './axe';
import { withApp } from './flows/app';
import { importCampaignDrafts } from './flows/drafts';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();
const app = withApp();
let page: Page;

beforeAll(async () => {
  page = await openAxePage(app, { account: account.account_id });
});

/** What the focused element is, and what a screen reader is told about it. */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement;
    const described = (el?.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | ');
    return { testId: el?.getAttribute('data-testid') ?? el?.tagName ?? '', invalid: el?.getAttribute('aria-invalid') ?? null, described };
  });

describe('Edit connection dialog', () => {
  it('names each field by its own label, is drawn in plain text, and is clean for axe in both themes', async () => {
    await page.getByTestId('edit-connection-sandbox-demo').click();
    const dialog = page.getByTestId('edit-connection-dialog');
    await dialog.waitFor();
    // Each label names the edit dialog's own input (getByLabel follows for= to the id).
    for (const [label, testId] of [
      ['Name', 'edit-name'],
      ['API address', 'edit-baseUrl'],
      ['Sign-in address', 'edit-authUrl'],
      ['Push address', 'edit-pushUrl'],
      ['Client id', 'edit-clientId'],
      ['Client secret', 'edit-clientSecret'],
      ['Sign-in flow', 'edit-flow'],
    ] as const) {
      expect(await dialog.getByLabel(label, { exact: true }).getAttribute('data-testid'), label).toBe(testId);
    }
    // Not inside the sidebar: neither its landmark nor its header's bold.
    expect(await dialog.evaluate((el) => el.closest('nav') === null)).toBe(true);
    expect(
      await dialog
        .locator('.form-label')
        .first()
        .evaluate((el) => getComputedStyle(el).fontWeight),
    ).not.toBe('600');
    expect(
      await dialog
        .locator('p.muted')
        .first()
        .evaluate((el) => getComputedStyle(el).fontWeight),
    ).toBe('400');
    // Opened without a change: nothing in red yet.
    expect(await dialog.locator('.form-problem').count()).toBe(0);
    await expectAxeClean(page);
  });

  it('puts focus back in the secret field after the service refused it, with the refusal as its description', async () => {
    const dialog = page.getByTestId('edit-connection-dialog');
    await dialog.getByTestId('edit-clientSecret').fill('a-wrong-secret');
    await dialog.getByTestId('edit-save').click();
    await expect
      .poll(() => dialog.getByTestId('edit-error').textContent(), { timeout: 15_000 })
      .toMatch(/^The service refused this client id and secret/);
    await expect.poll(focused).toEqual({
      testId: 'edit-clientSecret',
      invalid: 'true',
      described: expect.stringMatching(/^The service refused this client id and secret.* \| Leave empty to keep the stored secret/),
    });
    await page.screenshot({ path: screenshotPath('edit-connection-a11y.png') });
    // Typing the right one goes on from the field itself.
    await page.keyboard.press('Control+a');
    await page.keyboard.type('demo-secret');
    expect(await dialog.getByTestId('edit-clientSecret').inputValue()).toBe('demo-secret');
    // A new secret is not the refused one: the field no longer says it is wrong.
    expect(await dialog.getByTestId('edit-clientSecret').getAttribute('aria-invalid')).toBeNull();
    await expectAxeClean(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});

describe('Scrolling lists', () => {
  it("lets the keyboard reach and scroll the removal dialog's long unsent list, clean for axe in both themes", async () => {
    // Fifteen drafts make the unsent list longer than its box.
    await importCampaignDrafts(
      page,
      Array.from({ length: 15 }, (_, i) => 'Scroll draft ' + (i + 1)),
    );

    await page.getByTestId(`remove-account-${account.account_id}`).click();
    const dialog = page.getByTestId('remove-account-dialog');
    const region = dialog.getByTestId('unsent-scroll');
    await region.waitFor();
    expect(await region.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await dialog.getByRole('region', { name: 'Unsent changes' }).count()).toBe(1);
    // Tab reaches it, and the arrow keys scroll it.
    await region.focus();
    await page.keyboard.press('PageDown');
    await expect.poll(() => region.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('remove-unsent-scroll.png') });
    await expectAxeClean(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('lets the keyboard reach the Activity list when it scrolls', async () => {
    await closeLeftoverDialogs(page);
    // Queuing the fifteen drafts writes an Activity entry each; a low window makes that scroll.
    await page.getByTestId('tab-drafts').click();
    await page.getByTestId('drafts-check-all').check();
    await page.getByTestId('bulk-queue').click();
    // Queued is enough: each queued change has its Activity entry whether or not it was sent yet.
    await expect.poll(() => page.getByTestId('draft-notice').textContent()).toContain('15 drafts queued to post');
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.getByTestId('tab-activity').click();
    const list = page.getByTestId('activity-list');
    await list.waitFor({ state: 'attached', timeout: 30_000 });
    await page.screenshot({ path: screenshotPath('activity-scroll.png') });
    await expect.poll(() => list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await list.getAttribute('tabindex')).toBe('0');
    expect(await list.getAttribute('aria-label')).toBe('Activity, newest first');
    await expectAxeClean(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
