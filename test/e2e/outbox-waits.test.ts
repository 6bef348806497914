// The Outbox in the browser: a change queued while working offline says so (no "now"), the
// status bar counts it as queued, and once online it is sent and folds into the account's sent
// history, which names how long it is kept. Screenshots: docs/outbox-waiting.png, docs/outbox-history.png.
import { describe, expect, it } from 'vitest';
import { unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { queueCampaignDraft } from './flows/drafts';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

describe('Outbox: why a change waits, and the sent history', () => {
  it('says "working offline" for a queued change, then sends it once online and folds it into the history kept 30 days', async () => {
    const { page } = app;
    const name = `E2E waits ${Date.now()}`;
    await page.getByTestId('work-offline-sandbox-demo').check();
    await queueCampaignDraft(page, name);
    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: name });
    await expect.poll(() => row.getByTestId('outbox-wait').getAttribute('data-reason'), { timeout: 15_000 }).toBe('working_offline');
    expect(await row.getByTestId('outbox-wait').textContent()).toBe('Working offline: nothing is sent until you go online');
    expect(await row.getByTestId('outbox-state').textContent()).toBe('Queued');
    expect(await page.getByTestId('queued-count').textContent()).toBe('1 queued');
    await page.screenshot({ path: screenshotPath('outbox-waiting.png') });

    await page.getByTestId('work-offline-sandbox-demo').uncheck();
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
    const history = page.getByTestId('outbox-history');
    expect(await history.locator('summary').textContent()).toMatch(/^Sent \(1\) kept for 30 days/);
    await history.locator('summary').click();
    expect(await page.getByTestId('outbox-sent-item').filter({ hasText: name }).count()).toBe(1);
    expect(await page.getByTestId('queued-count').textContent()).toBe('Nothing queued');
    await page.screenshot({ path: screenshotPath('outbox-history.png') });
    expect(app.pageErrors).toEqual([]);
  });
});
