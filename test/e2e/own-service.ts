// A service of the UI test's own, beside the app's built-in sandbox: started on a fixtures file
// the test can rewrite, then reset to, so the service changes its grants the way a real one may
// (an account or an app withdrawn from the client). And the clicks that connect the app to it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startSandbox, type Fixtures } from '../../src/sandbox/index';
import { demoClient, openApp, openAxePage, type AppSession } from './app-session';

export interface OwnService {
  url: string;
  /** Makes the service hold `fx` from now on (its fixtures file rewritten, the service reset). */
  becomes(fx: Fixtures): Promise<void>;
  close(): Promise<void>;
}

export async function startOwnService(fx: Fixtures): Promise<OwnService> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-e2e-service-'));
  const file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(fx));
  const service = await startSandbox({ port: 0, fixturesPath: file });
  return {
    url: service.url,
    async becomes(next) {
      writeFileSync(file, JSON.stringify(next));
      const secret = (service as { controlSecret?: string }).controlSecret;
      const res = await fetch(`${service.url}/_sandbox/reset`, { method: 'POST', headers: secret ? { 'x-sandbox-control': secret } : {} });
      if (!res.ok) throw new Error(`sandbox reset answered ${res.status}`);
    },
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnServiceSession {
  service: OwnService;
  app: AppSession;
  /** The app's page, ready for axe checks. */
  page: Page;
}

/** For a test file: its own service on `fx` and the app, opened before its tests and closed after them. */
export function withOwnService(fx: Fixtures): OwnServiceSession {
  const session = {} as OwnServiceSession;
  beforeAll(async () => {
    session.service = await startOwnService(fx);
    session.app = await openApp();
    session.page = await openAxePage(session.app);
  });
  afterAll(async () => {
    await session.app?.close();
    await session.service?.close();
  });
  return session;
}

/** Fills the Add connection dialog for `url` with the demo client and asks to add it, as a person does. */
export async function submitConnection(page: Page, name: string, url: string): Promise<void> {
  await page.getByTestId('add-connection').click();
  await page.getByTestId('conn-name').fill(name);
  for (const f of ['baseUrl', 'authUrl', 'pushUrl']) await page.getByTestId(`conn-${f}`).fill(url);
  await page.getByTestId('conn-clientId').fill(demoClient.client_id);
  await page.getByTestId('conn-clientSecret').fill(demoClient.client_secret);
  await page.getByTestId('conn-create').click();
}

/** Adds a connection to `url` with the demo client; returns its group in the tree. */
export async function addConnection(page: Page, name: string, url: string): Promise<Locator> {
  await submitConnection(page, name, url);
  await expect.poll(() => page.getByTestId('add-connection-dialog').count(), { timeout: 15_000 }).toBe(0);
  return page.locator('[data-testid^="connection-"]').filter({ hasText: name });
}

/** Adds an account by id to the connection `group`; returns its row in the tree. */
export async function addAccount(page: Page, group: Locator, accountId: string): Promise<Locator> {
  await group.locator('[data-testid^="add-account-"]').click();
  await page.getByTestId('acct-id').fill(accountId);
  await page.getByTestId('acct-add').click();
  await expect.poll(() => page.getByTestId('add-account-dialog').count(), { timeout: 15_000 }).toBe(0);
  return group.getByTestId(`account-${accountId}`);
}
