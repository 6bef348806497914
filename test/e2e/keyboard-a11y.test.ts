// Keyboard-first and accessible (issue 16): Ctrl+3 opens the third account, the skip link jumps
// past the top bar and the tree, the accounts are one tab stop with arrow keys, the sidebar
// filter narrows the tree, and axe-core finds nothing serious or critical on any screen in either
// theme (the tabs, the column chooser, the import dialog).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openAccount, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { fillCampaignDraft } from './flows/drafts';

const account = unlimitedAdvertiser();
const AXE = createRequire(__filename).resolve('axe-core/axe.min.js');
const app = withApp({ account: account.account_id });

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on what the page shows now. */
async function seriousProblems(page: Page, screen: string): Promise<string[]> {
  // Evaluated through the debugger protocol: the app's Content-Security-Policy rightly refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const out = await axe.run(document, { resultTypes: ['violations'] });
    return out.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${screen}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

const focusedTestId = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.id ?? '');

describe('keyboard', () => {
  it('opens the third account of the tree with Ctrl+3', async () => {
    const { page } = app;
    const third = page.locator('[data-tree-item]').nth(2);
    const id = await third.getAttribute('data-testid');
    await page.locator('body').click({ position: { x: 600, y: 780 } });
    await page.keyboard.press('Control+3');
    await expect.poll(() => page.getByTestId(id!).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('Control+1');
    await expect.poll(() => page.locator('[data-tree-item]').first().getAttribute('aria-current')).toBe('true');
  });

  it('skips to the views with the first Tab, keeps the accounts one tab stop moved by arrows, and filters the tree', async () => {
    const { page } = app;
    await openAccount(page, account.account_id);
    await page.reload(); // a fresh window: the first Tab starts from the top
    await page.getByTestId(`account-${account.account_id}`).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('skip-link');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('main');

    const current = page.getByTestId(`account-${account.account_id}`);
    await current.focus();
    await page.keyboard.press('ArrowDown');
    const moved = await focusedTestId(page);
    expect(moved).toMatch(/^account-/);
    expect(moved).not.toBe(`account-${account.account_id}`);
    await page.keyboard.press('ArrowUp');
    expect(await focusedTestId(page)).toBe(`account-${account.account_id}`);
    const stops = await page.locator('[data-tree-item][tabindex="0"]').count();
    expect(stops).toBe(1);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-tree-item'))).toBe(false);

    await page.getByTestId('tree-filter').fill(account.name.split(' ')[0]);
    await expect.poll(() => page.locator('[data-tree-item]').count()).toBeLessThan(4);
    expect(await page.locator('[data-tree-item]').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining(account.name)]),
    );
    await page.getByTestId('tree-filter').fill('');
  });
});

describe('focus after actions', () => {
  it('gives focus back after Ctrl+K and Escape, and keeps it in the drafts after Ctrl+Enter queues the open draft', async () => {
    const { page } = app;
    await openAccount(page, account.account_id);
    await page.getByTestId('tab-campaigns').click();
    await page.getByTestId('campaign-grid').locator('[aria-rowindex="2"]').click();
    expect(await focusedTestId(page)).toBe('campaign-grid');
    // The grid keeps the focus and tells a screen reader which row is selected.
    await page.keyboard.press('ArrowDown');
    const activeRow = () =>
      page.evaluate(() => {
        const id = document.querySelector('[data-testid="campaign-grid"]')?.getAttribute('aria-activedescendant');
        const row = id ? document.getElementById(id) : null;
        return row ? `${row.getAttribute('aria-rowindex')} ${row.getAttribute('aria-selected')}` : null;
      });
    await expect.poll(activeRow).toBe('3 true');
    await page.keyboard.press('Control+k');
    await expect.poll(() => page.getByTestId('account-switcher').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedTestId(page)).toBe('campaign-grid');

    await fillCampaignDraft(page, `Focus kept ${Date.now()}`);
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('draft-notice').textContent()).toContain('Queued to post');
    await expect.poll(() => focusedTestId(page)).toBe('new-campaign-draft');
  });
});

describe('Escape', () => {
  it('closes a dialog after its error, even when the button clicked was disabled under the focus', async () => {
    const { page } = app;
    await page.getByTestId('add-account-sandbox-demo').click();
    await page.getByTestId('acct-id').fill('nosuchaccount');
    await page.getByTestId('acct-add').click();
    await expect.poll(() => page.getByTestId('acct-error').count(), { timeout: 15_000 }).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('add-account-dialog').count()).toBe(0);
  });
});

describe('axe-core on every screen', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`finds nothing serious or critical in the ${theme} theme`, async () => {
      const { page } = app;
      await page.emulateMedia({ colorScheme: theme });
      await openAccount(page, account.account_id);
      const found: string[] = [];
      for (const tab of ['campaigns', 'drafts', 'push', 'tasks', 'outbox', 'activity', 'limits']) {
        await page.getByTestId(`tab-${tab}`).click();
        await expect.poll(() => page.getByTestId(`tab-${tab}`).getAttribute('aria-selected')).toBe('true');
        found.push(...(await seriousProblems(page, tab)));
      }
      await page.getByTestId('tab-campaigns').click();
      await page.getByTestId('campaign-grid').locator('[aria-rowindex="2"]').click();
      found.push(...(await seriousProblems(page, 'campaigns with details')));
      await page.getByTestId('columns-button').click();
      found.push(...(await seriousProblems(page, 'column chooser')));
      await page.keyboard.press('Escape');
      await page.getByTestId('tab-drafts').click();
      await page.getByTestId('drafts-import').click();
      await page.getByTestId('import-text').fill('Name\tcpc\nBoots\tabc');
      found.push(...(await seriousProblems(page, 'import dialog')));
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('import-dialog').count()).toBe(0);
      await page.getByTestId('account-switcher-button').click();
      found.push(...(await seriousProblems(page, 'account switcher')));
      await page.keyboard.press('Escape');
      expect(found).toEqual([]);
    });
  }
});
