// Issue 27 item 4, in part: a default performer is the connection's own. Made the default on one
// connection's push, it must not be prefilled on another connection's new push.
// Screenshot: .tmp/screenshots/performer-other-connection.png.
import { describe, expect, it } from 'vitest';
import { unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { addAccount, addConnection } from './flows/connections';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();
const app = withApp();

describe('default performer', () => {
  it("is prefilled on its own connection's new push only", async () => {
    const { page } = app;
    const other = await addConnection(page, 'Second agency', app.sandboxUrl);
    const otherAccount = await addAccount(page, other, account.account_id);

    await page.getByTestId('connection-sandbox-demo').getByTestId(`account-${account.account_id}`).click();
    await page.getByTestId('tab-push').click();
    await page.getByTestId('push-performer').fill('first-agency@example.com');
    await page.getByTestId('performer-make-default').click();
    await expect
      .poll(() => page.getByTestId('push-notice').textContent())
      .toContain('Default performer of this connection: first-agency@example.com');

    await otherAccount.click();
    await page.getByTestId('tab-push').click();
    await expect.poll(() => page.getByTestId('push-performer').inputValue()).toBe('');
    // Still empty once the other connection's own defaults (none) have been read.
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('push-performer').inputValue()).toBe('');
    await page.screenshot({ path: screenshotPath('performer-other-connection.png') });

    // Back on the first connection, its default is offered again.
    await page.getByTestId('connection-sandbox-demo').getByTestId(`account-${account.account_id}`).click();
    await page.getByTestId('tab-push').click();
    await expect.poll(() => page.getByTestId('push-performer').inputValue()).toBe('first-agency@example.com');
    expect(app.pageErrors).toEqual([]);
  });
});
