// "No access" in the browser: the service withdraws the client's access to an account (its
// fixtures file edited, the sandbox reset); the next refresh marks the account in the sidebar and in
// the header with the service's words, and granting it again clears both. Axe clean in both themes.
// Screenshot: account-no-access.png.
import { describe, expect, it } from 'vitest';
import type { Fixtures } from '../../src/sandbox/index';
import { demoClient, fixtures } from './app-session';
import { axeViolations } from './axe';
import { addAccount, addConnection } from './flows/connections';
import { withOwnService } from './own-service';
import { screenshotPath } from './support';

const ACCOUNT = 'suntrailtravel';

function world(granted: boolean): Fixtures {
  return {
    ...fixtures,
    clients: fixtures.clients.map((c) =>
      c.client_id === demoClient.client_id ? { ...c, accounts: c.accounts.filter((a) => granted || a !== ACCOUNT) } : c,
    ),
  };
}

const session = withOwnService(world(true));
const grant = (granted: boolean) => session.service.becomes(world(granted));

describe('Account access', () => {
  it('marks an account "No access" with the service\'s words in the sidebar and the header, and clears it once access is back', async () => {
    const { page, service, app } = session;
    const group = await addConnection(page, 'Agency', service.url);
    const row = await addAccount(page, group, ACCOUNT);
    await row.click();
    expect(await row.getByTestId('no-access-tag').count()).toBe(0);

    await grant(false);
    await page.getByTestId('refresh-button').click();
    await expect.poll(() => row.getByTestId('no-access-tag').count(), { timeout: 15_000 }).toBe(1);
    expect(await row.getByTestId('no-access-tag').getAttribute('title')).toMatch(
      new RegExp(`^Refused on .+: Not authorized for account ${ACCOUNT}$`),
    );
    const note = page.getByTestId('account-no-access');
    expect(await note.textContent()).toMatch(
      new RegExp(`No access to .+\\. Refused on .+: Not authorized for account ${ACCOUNT}\\. Ask the service`),
    );
    // The connection itself is fine: only the account is refused.
    expect(await page.getByTestId('connection-state').textContent()).toContain('Online');
    await page.screenshot({ path: screenshotPath('account-no-access.png') });
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    await grant(true);
    await page.getByTestId('refresh-button').click();
    await expect.poll(() => row.getByTestId('no-access-tag').count(), { timeout: 15_000 }).toBe(0);
    expect(await note.count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
