// Issue 27, "axe: zero serious or critical on every screen and dialog in both themes": every
// dialog the window has, opened the way a person opens it, checked by axe-core in the light and
// the dark theme (the tabs themselves: keyboard-a11y.test.ts). A dialog added later without a line
// here is caught by the last test, which compares this list with the dialogs the code defines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeLeftoverDialogs, openAccount, openApp, openAxePage, unlimitedAdvertiser, type AppSession } from './app-session';
import { axeViolations } from './axe';
import { ROOT } from './support';

const account = unlimitedAdvertiser();
let app: AppSession;
let page: Page;

beforeAll(async () => {
  app = await openApp();
  page = await openAxePage(app);
  await openAccount(page, account.account_id);
});
afterAll(async () => app?.close());

/** Each dialog's test id, and how a person opens it from the open account. */
const DIALOGS: { testId: string; open: (p: Page) => Promise<void> }[] = [
  { testId: 'add-connection-dialog', open: (p) => p.getByTestId('add-connection').click() },
  { testId: 'add-account-dialog', open: (p) => p.getByTestId('add-account-sandbox-demo').click() },
  { testId: 'edit-connection-dialog', open: (p) => p.getByTestId('edit-connection-sandbox-demo').click() },
  { testId: 'remove-connection-dialog', open: (p) => p.getByTestId('remove-connection-sandbox-demo').click({ force: true }) },
  { testId: 'remove-account-dialog', open: (p) => p.getByTestId(`remove-account-${account.account_id}`).click({ force: true }) },
  { testId: 'account-capabilities-dialog', open: (p) => p.getByTestId(`account-settings-${account.account_id}`).click({ force: true }) },
  {
    testId: 'import-dialog',
    open: async (p) => {
      await p.getByTestId('tab-drafts').click();
      await p.getByTestId('drafts-import').click();
    },
  },
  {
    testId: 'retention-dialog',
    open: async (p) => {
      await p.getByTestId('tab-outbox').click();
      await p.getByTestId('retention-change').click();
    },
  },
  { testId: 'account-switcher', open: (p) => p.getByTestId('account-switcher-button').click() },
  {
    // The one confirmation dialog (delete a draft, bulk delete, cancel a task, discard a change).
    testId: 'confirm-dialog',
    open: async (p) => {
      await p.getByTestId('tab-drafts').click();
      if ((await p.getByRole('button', { name: /^Delete draft / }).count()) === 0) await p.getByTestId('new-campaign-draft').click();
      await p
        .getByRole('button', { name: /^Delete draft / })
        .first()
        .click();
    },
  },
];

describe('axe-core on every dialog', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`finds nothing serious or critical on any dialog in the ${theme} theme`, async () => {
      await page.emulateMedia({ colorScheme: theme });
      const found: string[] = [];
      for (const d of DIALOGS) {
        await closeLeftoverDialogs(page);
        await d.open(page);
        await page.getByTestId(d.testId).waitFor({ timeout: 15_000 });
        found.push(...(await axeViolations(page)).map((v) => `${d.testId}: ${v}`));
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByTestId(d.testId).count(), { message: `${d.testId} closes on Escape` }).toBe(0);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      expect(found).toEqual([]);
    });
  }

  it('covers every dialog the window defines', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) =>
        statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.tsx') ? [join(dir, f)] : [],
      );
    const defined = new Set<string>();
    for (const f of files(join(ROOT, 'src/renderer'))) {
      for (const m of readFileSync(f, 'utf8').matchAll(/<Dialog\b[^>]*?testId="([^"]+)"/gs)) defined.add(m[1]);
    }
    expect(defined.size).toBeGreaterThan(5);
    expect([...defined].sort()).toEqual([...new Set(DIALOGS.map((d) => d.testId))].sort());
  });
});
