// Issue 27 item 3, a keychain loss in true words: when a connection's client secret is gone from
// the system keychain while the service is up, the header says the secret is missing (not that the
// service cannot be reached) and offers "Enter secret", which opens Edit connection on the secret
// field, calm (no red before anything was typed); entering it brings the connection back. No Sign
// in is offered: it could not help. The secret is deleted from the real keychain (run under
// scripts/with-keyring.sh) while the app runs; the app finds out when its token runs out (a manual
// clock moves an hour on). Screenshots: .tmp/screenshots/keychain-loss-header.png, keychain-loss-dialog.png.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSecretStore } from '../../src/main/secrets';
import { keychainSuite } from '../helpers/keychain';
import type { Page } from 'playwright-core';
import { advanceApp, openAccount, openApp, openAxePage, unlimitedAdvertiser, type AppSession } from './app-session';
import { expectAxeClean } from './axe';
import { screenshotPath, shootElement } from './support';

// The keychain service browser mode stores its secrets under (create-core.ts SECRET_SERVICE).
const keychain = await createSecretStore({ service: 'Campaign Desk', probeTimeoutMs: 5_000 });
const account = unlimitedAdvertiser();
const DEMO = 'sandbox-demo';
let app: AppSession;
let page: Page;

keychainSuite(keychain, 'a client secret lost from the keychain', () => {
  beforeAll(async () => {
    app = await openApp({ manualClock: true });
    page = await openAxePage(app);
    await openAccount(page, account.account_id);
  });
  afterAll(async () => app?.close());

  it('says the secret is missing, offers Enter secret (not Sign in), and the dialog opens calm on the secret field', async () => {
    await expect.poll(() => page.getByTestId('connection-state').textContent(), { timeout: 30_000 }).toContain('Online');
    expect(await keychain.get(DEMO, 'client_secret')).toBe('demo-secret');
    await keychain.delete(DEMO, 'client_secret');

    // The token in hand runs out; the next refresh needs the secret and finds none.
    await advanceApp(app, 61 * 60_000, 5 * 60_000);
    await page.getByTestId('refresh-button').click();
    const state = page.getByTestId('connection-state');
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toContain('Secret missing from the keychain');
    const header = page.locator('header.topbar');
    await expect.poll(() => page.getByTestId('sync-progress').textContent()).toMatch(/missing from the system keychain/);
    expect(await header.textContent()).not.toMatch(/cannot be reached/i);
    expect(await page.getByTestId(`sign-in-${DEMO}`).count()).toBe(0);
    expect(await page.getByTestId(`enter-secret-${DEMO}`).count()).toBe(1);
    await shootElement(header, 'keychain-loss-header.png');

    await page.getByTestId('topbar-enter-secret').click();
    const dialog = page.getByTestId('edit-connection-dialog');
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? ''))
      .toBe('edit-clientSecret');
    expect(await dialog.getByTestId('edit-secret-missing').count()).toBe(1);
    // Nothing in red before the person did anything: no field problem, no error, nothing invalid.
    expect(await dialog.locator('.form-problem, [aria-invalid="true"], [role="alert"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('keychain-loss-dialog.png') });
    await expectAxeClean(page);

    await dialog.getByTestId('edit-clientSecret').fill('demo-secret');
    await dialog.getByTestId('edit-save').click();
    await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toContain('Online');
    expect(await keychain.get(DEMO, 'client_secret')).toBe('demo-secret');
    expect(app.pageErrors).toEqual([]);
  });
});
