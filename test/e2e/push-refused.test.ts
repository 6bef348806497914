// A push the service refuses, taken back to fix: the Push tab shows the service's words above the
// composer, as the Drafts tab does for a campaign. The service withdraws the client's access to the
// app (its fixtures file edited, the sandbox reset) after the composer listed it, so the post is
// refused with 403; Fix in the Outbox brings the push back to its draft, opened in the Push tab.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Fixtures, type RunningSandbox } from '../../src/sandbox/index';
import { demoClient, fixtures, openApp, openAxePage, type AppSession } from './app-session';
import { expectAxeClean } from './axe';
import { screenshotPath } from './support';

const ACCOUNT = 'suntrailtravel';
const APP = '1001';
let app: AppSession;
let page: Page;
let service: RunningSandbox;
let dir: string;
let file: string;

function world(granted: boolean): Fixtures {
  return { ...fixtures, clients: fixtures.clients.map((c) => (c.client_id === demoClient.client_id ? { ...c, apps: (c.apps ?? []).filter((a) => granted || a !== APP) } : c)) };
}

/** Edits the service's grants and resets it. */
async function grant(granted: boolean): Promise<void> {
  writeFileSync(file, JSON.stringify(world(granted)));
  const secret = (service as { controlSecret?: string }).controlSecret;
  const res = await fetch(`${service.url}/_sandbox/reset`, { method: 'POST', headers: secret ? { 'x-sandbox-control': secret } : {} });
  if (!res.ok) throw new Error(`sandbox reset answered ${res.status}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-e2e-push-refused-'));
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

describe('A refused push', () => {
  it('is fixed in the Push tab, which shows what the service said', async () => {
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
    await group.getByTestId(`account-${ACCOUNT}`).click();

    const title = `E2E refused push ${Date.now()}`;
    await page.getByTestId('tab-push').click();
    await page.getByTestId('push-title').fill(title);
    await page.getByTestId('push-url').fill('https://news.example.com/e2e');
    await page.getByTestId('push-performer').fill('e2e@example.com');
    await page.getByTestId(`app-${APP}`).check();
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    await grant(false);
    await page.getByTestId('push-queue').click();
    await expect.poll(() => page.getByTestId('push-notice').textContent()).toContain('Queued');

    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: title });
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    await row.getByTestId('outbox-fix').click();
    await expect.poll(() => page.getByTestId('tab-drafts').getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('draft-open-push').click();
    await expect.poll(() => page.getByTestId('tab-push').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('push-title').inputValue()).toBe(title);
    const words = page.getByTestId('push-composer').getByTestId('service-words');
    await expect.poll(() => words.textContent()).toMatch(/^The service refused the last version: .*authorized/i);
    await page.screenshot({ path: screenshotPath('push-refused.png') });
    await expectAxeClean(page);

    // A new push starts without them.
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(() => words.count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
