// Issue 27 item 4, where things went: an account added by its id alone is shown by the name the
// service gives it as soon as a listing has told it: in the sidebar, the top bar's switcher
// button, the account switcher's list and the Activity entries, not by its id.
// Screenshots: .tmp/screenshots/account-names-switcher.png, account-names-activity.png.
import { describe, expect, it } from 'vitest';
import { fixtures } from './app-session';
import { withApp } from './flows/app';
import { addAccount, addConnection } from './flows/connections';
import { shootElement } from './support';

const added = fixtures.accounts.find((a) => a.account_id === 'oldtimerltd')!;
const app = withApp();

describe('an account added by id', () => {
  it('shows the name the service gave it in the sidebar, the switcher and Activity', async () => {
    const { page } = app;
    const group = await addConnection(page, 'By id', app.sandboxUrl);
    const item = await addAccount(page, group, added.account_id);
    await expect.poll(() => item.textContent(), { timeout: 30_000 }).toContain(added.name);
    await item.click();
    await expect.poll(() => page.getByTestId('account-switcher-button').textContent()).toContain(added.name);

    await page.getByTestId('account-switcher-button').click();
    const option = page.getByRole('option').filter({ hasText: 'By id' });
    await expect.poll(() => option.count()).toBe(1);
    expect(await option.locator('span').first().textContent()).toBe(added.name);
    await shootElement(page.getByRole('dialog'), 'account-names-switcher.png');
    await page.keyboard.press('Escape');

    await page.getByTestId('tab-activity').click();
    const list = page.getByTestId('activity-list');
    await expect.poll(() => list.locator('li').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const who = await list.locator('.activity-account').allTextContents();
    expect(who.filter((w) => w !== 'Connection' && w !== 'App')).not.toHaveLength(0);
    for (const w of who) expect([added.name, 'Connection', 'App']).toContain(w);
    // The entry of its adding names it as the service does, beside the id the person typed.
    const messages = await list.locator('.activity-message').allTextContents();
    expect(messages).toContain(`Account "${added.name}" (${added.account_id}) added (advertiser).`);
    await shootElement(list, 'account-names-activity.png');
    expect(app.pageErrors).toEqual([]);
  });
});
