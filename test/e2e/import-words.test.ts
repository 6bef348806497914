// Issue 27 item 8 in the window: values the app does not know ("WEEKLY", "CHEAPEST") import as
// ready but are said, with the nearest known value offered in the editor before queueing; a CPC of
// 1e9 is refused with a message; messages use the form's labels (Budget, not "Limit model" nor
// spending_limit_model), in the editor and in the removal dialog and its JSON export alike.
// Screenshots: .tmp/screenshots/import-unknown.png, import-unknown-editor.png, removal-words.png.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeLeftoverDialogs, openAccount, openAxePage, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { expectAxeClean } from './axe';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();
const app = withApp();
let page: Page;

beforeAll(async () => {
  page = await openAxePage(app);
});

const API_WORDS = /\b[a-z]+_[a-z_]+\b|Limit model/;

describe("import and checks in the window's words", () => {
  it('imports unknown values as ready with a word and the nearest known value, and refuses a CPC of 1e9', async () => {
    await openAccount(page, account.account_id);
    await page.getByTestId('tab-drafts').click();
    await page.getByTestId('drafts-import').click();
    const sheet = [
      ['Name', 'Branding text', 'Bidding', 'CPC', 'Budget', 'Spending limit'],
      ['Weekly boots', 'Acme', 'FIXED', '0.30', 'WEEKLY', '900'],
      ['Cheap boots', 'Acme', 'CHEAPEST', '0.30', 'MONTHLY', '900'],
      ['Dear boots', 'Acme', 'FIXED', '1e9', 'MONTHLY', '900'],
    ]
      .map((r) => r.join('\t'))
      .join('\n');
    await page.getByTestId('import-text').fill(sheet);
    await expect
      .poll(() => page.getByTestId('import-summary').textContent())
      .toBe('3 rows: 2 ready (2 with values this app does not know), 1 with problems.');
    const rows = page.getByTestId('import-row');
    expect(await rows.nth(0).getByTestId('import-notes').textContent()).toBe(
      'Budget: "WEEKLY" is not a value this app knows. It is kept, since the service may use it; did you mean Monthly?',
    );
    expect(await rows.nth(1).getByTestId('import-notes').textContent()).toBe(
      'Bidding: "CHEAPEST" is not a value this app knows. It is kept, since the service may use it; did you mean Fixed CPC?',
    );
    expect(await rows.nth(2).textContent()).toContain('CPC 1,000,000,000 is more than 1,000 a click: check for a slipped digit.');
    await page.getByTestId('import-dialog').screenshot({ path: screenshotPath('import-unknown.png') });
    await expectAxeClean(page);

    await page.getByTestId('import-good').click();
    await expect.poll(() => page.getByTestId('import-dialog').count()).toBe(0);
    await page.getByTestId('draft-item').filter({ hasText: 'Weekly boots' }).click();
    const notice = page.getByTestId('unknown-values');
    await expect.poll(() => notice.textContent()).toContain('Budget: "WEEKLY" is not a value this app knows.');
    // Kept: it may be queued as it is, with the warning counted.
    expect(await page.getByTestId('input-budget').inputValue()).toBe('WEEKLY');
    expect(await page.getByTestId('problem-count').textContent()).toBe('Ready to queue (1 warning)');
    await page.getByTestId('campaign-editor').screenshot({ path: screenshotPath('import-unknown-editor.png') });
    await expectAxeClean(page);
    await notice.getByTestId('use-nearest').click();
    await expect.poll(() => page.getByTestId('input-budget').inputValue()).toBe('MONTHLY');
    await expect.poll(() => notice.count()).toBe(0);
  });

  it('names the Budget field as the form does, in the editor and in the removal dialog and its JSON export', async () => {
    await closeLeftoverDialogs(page);
    await page.getByTestId('new-campaign-draft').click();
    await page.getByTestId('input-name').fill('Budgetless boots');
    await page.getByTestId('input-branding_text').fill('Acme');
    await page.getByTestId('input-cpc').fill('0.4');
    await page.getByTestId('input-spending_limit').fill('5');
    await page.getByTestId('input-spending_limit').fill('');
    await expect
      .poll(() => page.getByTestId('problem-spending_limit').textContent())
      .toBe('Spending limit is needed when Budget is Monthly.');
    await expect.poll(() => page.getByTestId('save-state').textContent()).toBe('All changes saved');

    await page.getByTestId(`remove-account-${account.account_id}`).click();
    const dialog = page.getByTestId('remove-account-dialog');
    await dialog.getByTestId('unsent-list').waitFor();
    const item = dialog.getByTestId('unsent-item').filter({ hasText: 'Budgetless boots' });
    expect(await item.textContent()).toContain('Spending limit is needed when Budget is Monthly.');
    const listed = await dialog.getByTestId('unsent-list').textContent();
    expect(listed).not.toMatch(API_WORDS);
    await dialog.screenshot({ path: screenshotPath('removal-words.png') });
    const [json] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('unsent-export-json').click()]);
    const body = JSON.parse(readFileSync((await json.path())!, 'utf8').replace(/^\uFEFF/, '')) as {
      changes: { summary: string; words: string | null }[];
    };
    const change = body.changes.find((c) => c.summary.includes('Budgetless boots'));
    expect(change?.words).toBe('Spending limit is needed when Budget is Monthly.');
    for (const c of body.changes) expect(c.words ?? '').not.toMatch(API_WORDS);
    await page.keyboard.press('Escape');
    expect(app.pageErrors).toEqual([]);
  });
});
