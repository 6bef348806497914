// Editing a connection in the browser: a wrong secret is refused by the service and nothing is
// saved (the dialog says so in the service's words); a plain http:// address to another computer
// is refused with the reason; a rename with the right secret is saved and the queued change and
// drafts are still there. Screenshot: docs/connection-edit.png.
import { describe, expect, it } from 'vitest';
import { unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { queueCampaignDraft } from './flows/drafts';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

describe('Edit connection', () => {
  it('refuses a wrong secret and a clear-text address, saves a rename with the right secret, and keeps the queued work', async () => {
    const { page } = app;
    await page.getByTestId('work-offline-sandbox-demo').check();
    const name = `E2E kept ${Date.now()}`;
    await queueCampaignDraft(page, name);

    await page.getByTestId('edit-connection-sandbox-demo').click();
    const dialog = page.getByTestId('edit-connection-dialog');
    await dialog.getByTestId('edit-clientSecret').fill('a-wrong-secret');
    await dialog.getByTestId('edit-save').click();
    await expect
      .poll(() => dialog.getByTestId('edit-error').textContent(), { timeout: 15_000 })
      .toMatch(/^The service refused this client id and secret, so nothing was changed: /);
    await page.screenshot({ path: screenshotPath('connection-edit.png') });

    await dialog.getByTestId('edit-clientSecret').fill('');
    await dialog.getByTestId('edit-pushUrl').fill('http://push.example.com');
    await dialog.getByTestId('edit-save').click();
    expect(await dialog.locator('[data-field="pushUrl"]').textContent()).toContain(
      'uses plain http://, which would send the client secret and tokens unencrypted to push.example.com',
    );

    await dialog.getByTestId('edit-pushUrl').fill(app.sandboxUrl);
    await dialog.getByTestId('edit-name').fill('Sandbox (edited)');
    await dialog.getByTestId('edit-clientSecret').fill('demo-secret');
    await dialog.getByTestId('edit-save').click();
    await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('connection-sandbox-demo').textContent()).toContain('Sandbox (edited)');
    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: name });
    expect(await row.getAttribute('data-state')).toBe('queued');
    await page.getByTestId('work-offline-sandbox-demo').uncheck();
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
