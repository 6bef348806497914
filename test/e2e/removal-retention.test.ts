// Issue 14 items 5 and 6 in the window: removing an account lists every unsent change by group
// (a draft and a change the service refused), the CSV export downloads a file that Drafts > Import
// reads back to the draft, Remove cannot be pressed until the person ticks "Discard", and then
// the account goes. The Sent history says how long history is kept, and "Change…" sets it with
// the rule's words for an out-of-range number; the new period is what the Outbox then says, also
// after a reload. Screenshots: remove-unsent.png, retention-dialog.png, outbox-retention.png.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readImport } from '../../src/renderer/features/drafts/draft-transfer';
import { openAccount, openAxePage } from './app-session';
import { expectAxeClean } from './axe';
import { withApp } from './flows/app';
import { fillCampaignDraft, queueCampaignDraft } from './flows/drafts';
import { screenshotPath } from './support';

const app = withApp();
let page: Page;

beforeAll(async () => {
  page = await openAxePage(app);
});

describe('Removal with unsent work', () => {
  it('lists a refused change and a draft, exports them as CSV that imports back, and removes only after "Discard" is ticked', async () => {
    await openAccount(page, 'freshcrumbbakery');
    const refused = 'Holiday banners';
    const kept = 'Sourdough spring';
    // Fresh Crumb Bakery is not enabled for display: the service refuses the first one.
    await queueCampaignDraft(page, refused, { kind: 'display', ready: /^Ready to queue/ });
    await page.getByTestId('tab-outbox').click();
    const failedRow = page.getByTestId('outbox-item').filter({ hasText: refused });
    await expect.poll(() => failedRow.getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    await fillCampaignDraft(page, kept, { kind: 'display', ready: /^Ready to queue/ });
    await expect.poll(() => page.getByTestId('save-state').textContent()).toBe('All changes saved');

    await page.getByTestId('remove-account-freshcrumbbakery').click();
    const dialog = page.getByTestId('remove-account-dialog');
    await dialog.getByTestId('unsent-list').waitFor();
    expect(await dialog.getByTestId('unsent-summary').textContent()).toBe(
      '1 draft and 1 failed change are not sent. Removing the account deletes them from this computer: export them first to keep a copy.',
    );
    expect(await dialog.getByTestId('unsent-group-draft').textContent()).toBe(`Drafts (1)Campaign draft "${kept}"`);
    expect(await dialog.getByTestId('unsent-group-failed').textContent()).toMatch(
      new RegExp(`^Failed \\(1\\)Create campaign "${refused}" · .*not enabled for display campaigns$`),
    );
    // Without the choice, Remove cannot be pressed.
    const confirm = dialog.getByTestId('remove-account-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    expect(await confirm.getAttribute('title')).toBe('Export what you want to keep, then tick “Discard” to remove');
    await dialog.screenshot({ path: screenshotPath('remove-unsent.png') });
    await expectAxeClean(page);

    // The CSV is the drafts' own format: Import reads both campaigns back, ready to queue.
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('unsent-export-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^Fresh-Crumb-Bakery-unsent-\d{4}-\d{2}-\d{2}\.csv$/);
    const report = readImport(readFileSync((await download.path())!, 'utf8'), 'ADVERTISER');
    expect(report.fileProblems).toEqual([]);
    const back = report.rows.find((r) => r.name === kept);
    expect(back?.problems).toEqual([]);
    expect(back?.payload).toMatchObject({ name: kept, cpc: 0.4, campaign_item_type: 'HAS_NO_ITEMS_DISPLAY' });
    expect(report.rows.map((r) => r.name).sort()).toEqual([kept, refused].sort());
    // The JSON holds every change with its payload and nothing of the connection's credentials.
    const [json] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('unsent-export-json').click()]);
    const text = readFileSync((await json.path())!, 'utf8');
    const body = JSON.parse(text.replace(/^\uFEFF/, '')) as { changes: { state: string; summary: string; payload: { name?: string } }[] };
    expect(body.changes.map((c) => [c.state, c.payload.name]).sort()).toEqual([
      ['draft', kept],
      ['failed', refused],
    ]);
    expect(text).not.toMatch(/secret|token/i);

    await dialog.getByTestId('unsent-discard').check();
    expect(await dialog.getByTestId('unsent-discard').evaluate((el) => el.parentElement?.textContent)).toBe(
      'Discard these 2 unsent changes',
    );
    expect(await confirm.getAttribute('title')).toBeNull();
    await confirm.click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByTestId('account-freshcrumbbakery').count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });

  it('keeps the dialog a plain confirmation when nothing is unsent', async () => {
    await page.getByTestId('connection-sandbox-demo').getByTestId('remove-account-oldtimerltd').click();
    const dialog = page.getByTestId('remove-account-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.getByTestId('remove-account-confirm').isEnabled()).toBe(true);
    expect(await dialog.getByTestId('unsent-list').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});

describe('Retention the person sets', () => {
  it('changes how long sent history and the activity log are kept, with the bounds said under the field', async () => {
    await openAccount(page, 'acmeshoes');
    await page.getByTestId('tab-outbox').click();
    const note = page.getByTestId('retention-note');
    await expect.poll(() => note.textContent()).toBe('kept for 30 days, then removed; the activity log likewise');
    const history = page.getByTestId('outbox-history');
    const wasOpen = await history.evaluate((el) => (el as HTMLDetailsElement).open);

    await page.getByTestId('retention-change').click();
    const dialog = page.getByTestId('retention-dialog');
    await dialog.waitFor();
    // The click opened the dialog and did not fold or unfold the history behind it.
    expect(await history.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(wasOpen);
    await dialog.getByTestId('retention-sentDays').fill('0');
    await expect.poll(() => dialog.getByTestId('problem-sentDays').textContent()).toBe('Sent history: keep it at least 1 day.');
    expect(await dialog.getByTestId('retention-save').isDisabled()).toBe(true);
    await dialog.getByTestId('retention-sentDays').fill('400');
    await expect.poll(() => dialog.getByTestId('problem-sentDays').textContent()).toBe('Sent history: keep it at most 365 days (a year).');
    await dialog.getByTestId('retention-sentDays').fill('7');
    await dialog.getByTestId('retention-activityDays').fill('90');
    await expect.poll(() => dialog.getByTestId('problem-sentDays').count()).toBe(0);
    // Everything here is from today: nothing would be removed, so nothing is announced.
    expect(await dialog.getByTestId('retention-effect').count()).toBe(0);
    await dialog.screenshot({ path: screenshotPath('retention-dialog.png') });
    await expectAxeClean(page);
    await dialog.getByTestId('retention-save').click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => note.textContent()).toBe('kept for 7 days, then removed; the activity log for 90 days');
    await page.screenshot({ path: screenshotPath('outbox-retention.png') });

    // Stored by the core, not only in the window.
    await page.reload();
    await openAccount(page, 'acmeshoes');
    await page.getByTestId('tab-outbox').click();
    await expect
      .poll(() => page.getByTestId('retention-note').textContent())
      .toBe('kept for 7 days, then removed; the activity log for 90 days');
    expect(app.pageErrors).toEqual([]);
  });
});
