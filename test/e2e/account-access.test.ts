// "No access" in the browser: the service withdraws the client's access to an account (its
// fixtures file edited, the sandbox reset); the next refresh marks the account in the sidebar and in
// the header with the service's words, and granting it again clears both. Axe clean in both themes.
// Screenshot: account-no-access.png.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Fixtures, type RunningSandbox } from '../../src/sandbox/index';
import { demoClient, fixtures, openApp, openAxePage, type AppSession } from './app-session';
import { axeViolations } from './axe';
import { screenshotPath } from './support';

const ACCOUNT = 'suntrailtravel';
let app: AppSession;
let page: Page;
let service: RunningSandbox;
let dir: string;
let file: string;

function world(granted: boolean): Fixtures {
  return { ...fixtures, clients: fixtures.clients.map((c) => (c.client_id === demoClient.client_id ? { ...c, accounts: c.accounts.filter((a) => granted || a !== ACCOUNT) } : c)) };
}

/** Edits the service's grants and resets it (the control API is the test's, as the sandbox's starter). */
async function grant(granted: boolean): Promise<void> {
  writeFileSync(file, JSON.stringify(world(granted)));
  const secret = (service as { controlSecret?: string }).controlSecret;
  const res = await fetch(`${service.url}/_sandbox/reset`, { method: 'POST', headers: secret ? { 'x-sandbox-control': secret } : {} });
  if (!res.ok) throw new Error(`sandbox reset answered ${res.status}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-e2e-access-'));
  file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(world(true)));
  service = await startSandbox({ port: 0, fixturesPath: file });
  app = await openApp();
  page = await openAxePage(app);
});
afterAll(async () => {
  await app?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Account access', () => {
  it('marks an account "No access" with the service\'s words in the sidebar and the header, and clears it once access is back', async () => {
    await page.getByTestId('add-connection').click();
    await page.getByTestId('conn-name').fill('Agency');
    for (const f of ['baseUrl', 'authUrl', 'pushUrl']) await page.getByTestId(`conn-${f}`).fill(service.url);
    await page.getByTestId('conn-clientId').fill(demoClient.client_id);
    await page.getByTestId('conn-clientSecret').fill(demoClient.client_secret);
    await page.getByTestId('conn-create').click();
    await expect.poll(() => page.getByTestId('add-connection-dialog').count(), { timeout: 15_000 }).toBe(0);
    const group = page.locator('[data-testid^="connection-"]').filter({ hasText: 'Agency' });
    await group.locator('[data-testid^="add-account-"]').click();
    await page.getByTestId('acct-id').fill(ACCOUNT);
    await page.getByTestId('acct-add').click();
    await expect.poll(() => page.getByTestId('add-account-dialog').count(), { timeout: 15_000 }).toBe(0);
    const row = group.getByTestId(`account-${ACCOUNT}`);
    await row.click();
    expect(await row.getByTestId('no-access-tag').count()).toBe(0);

    await grant(false);
    await page.getByTestId('refresh-button').click();
    await expect.poll(() => row.getByTestId('no-access-tag').count(), { timeout: 15_000 }).toBe(1);
    expect(await row.getByTestId('no-access-tag').getAttribute('title')).toMatch(new RegExp(`^Refused on .+: Not authorized for account ${ACCOUNT}$`));
    const note = page.getByTestId('account-no-access');
    expect(await note.textContent()).toMatch(new RegExp(`No access to .+\\. Refused on .+: Not authorized for account ${ACCOUNT}\\. Ask the service`));
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
