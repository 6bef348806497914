// Connections and accounts as a person adds them in the sidebar: the Add connection dialog filled
// in, a connection added, an account added to it. Written once for every UI test that connects.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { demoClient } from '../app-session';

export interface ConnectionFields {
  name: string;
  /** The service's address, typed as its API, sign-in and push address alike. */
  url: string;
  /** The demo client's unless given. */
  clientId?: string;
  clientSecret?: string;
  /** A browser sign-in (authorization code) with this redirect URI; client credentials when absent. */
  redirectUri?: string;
}

/** Opens the Add connection dialog and types `fields` into it, without submitting it. */
export async function fillConnection(page: Page, fields: ConnectionFields): Promise<void> {
  await page.getByTestId('add-connection').click();
  await page.getByTestId('conn-name').fill(fields.name);
  for (const f of ['baseUrl', 'authUrl', 'pushUrl']) await page.getByTestId(`conn-${f}`).fill(fields.url);
  if (fields.redirectUri !== undefined) await page.getByTestId('conn-flow').selectOption('authorization_code');
  await page.getByTestId('conn-clientId').fill(fields.clientId ?? demoClient.client_id);
  await page.getByTestId('conn-clientSecret').fill(fields.clientSecret ?? demoClient.client_secret);
  if (fields.redirectUri !== undefined) await page.getByTestId('conn-redirectUri').fill(fields.redirectUri);
}

/** Fills the Add connection dialog for `url` with the demo client and asks to add it, as a person does. */
export async function submitConnection(page: Page, name: string, url: string): Promise<void> {
  await fillConnection(page, { name, url });
  await page.getByTestId('conn-create').click();
}

/** The connection named `name` in the sidebar's tree. */
export const connectionGroup = (page: Page, name: string): Locator =>
  page.locator('[data-testid^="connection-"]').filter({ hasText: name });

/** Adds a connection to `url` with the demo client; returns its group in the tree. */
export async function addConnection(page: Page, name: string, url: string): Promise<Locator> {
  await submitConnection(page, name, url);
  await expect.poll(() => page.getByTestId('add-connection-dialog').count(), { timeout: 15_000 }).toBe(0);
  return connectionGroup(page, name);
}

/** Adds an account by id to the connection `group`; returns its row in the tree. */
export async function addAccount(page: Page, group: Locator, accountId: string): Promise<Locator> {
  await group.locator('[data-testid^="add-account-"]').click();
  await page.getByTestId('acct-id').fill(accountId);
  await page.getByTestId('acct-add').click();
  await expect.poll(() => page.getByTestId('add-account-dialog').count(), { timeout: 15_000 }).toBe(0);
  return group.getByTestId(`account-${accountId}`);
}
