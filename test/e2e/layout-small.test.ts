// Issue 27 item 9, the window at the widths people have: at 1024 px a selected campaign's details
// leave every default column on screen; no column can be dragged narrower than what it needs, and
// Name keeps its minimum when columns are added; long connection and account names are not cut in
// the sidebar at 1400 px (and carry the full name on hover); with two connections the views are a
// few Tab stops away, not fifteen. Screenshots: .tmp/screenshots/layout-1024-details.png,
// layout-1400-sidebar.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeLeftoverDialogs, openAccount, openAxePage, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { expectAxeClean } from './axe';
import { addConnection } from './flows/connections';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();
const LONG_CONNECTION = 'Northwind agency, Europe and the Middle East';
const app = withApp();
let page: Page;

beforeAll(async () => {
  page = await openAxePage(app);
});

/** The grid's header cells wholly inside the grid's visible frame, by title. */
const wholeColumns = () =>
  page.evaluate(() => {
    const frame = document.querySelector('.grid-frame')!.getBoundingClientRect();
    return Array.from(document.querySelectorAll('[data-testid="campaign-grid"] [role="columnheader"]'))
      .filter((h) => {
        const r = h.getBoundingClientRect();
        return r.left >= frame.left - 1 && r.right <= frame.right + 1;
      })
      .map((h) => (h.textContent ?? '').trim());
  });

const headerWidth = (title: string) =>
  page.evaluate((t) => {
    const h = Array.from(document.querySelectorAll('[data-testid="campaign-grid"] [role="columnheader"]')).find((x) =>
      (x.textContent ?? '').trim().startsWith(t),
    );
    return h ? Math.round(h.getBoundingClientRect().width) : -1;
  }, title);

describe('layout at small widths', () => {
  it("keeps every default column on screen at 1024 px while a campaign's details are open", async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await openAccount(page, account.account_id);
    const grid = page.getByTestId('campaign-grid');
    await grid.locator('[aria-rowindex="2"]').waitFor({ timeout: 30_000 });
    const before = await wholeColumns();
    await grid.locator('[aria-rowindex="2"]').click();
    await page.locator('.details').waitFor();
    await expect.poll(() => page.locator('.details .details-title').count()).toBe(1);
    expect(await wholeColumns()).toEqual(before);
    expect(before.length).toBeGreaterThanOrEqual(7);
    await page.screenshot({ path: screenshotPath('layout-1024-details.png') });
    await expectAxeClean(page);
  });

  it('never lets a column be narrower than it needs, and keeps Name readable when columns are added', async () => {
    const handle = (title: string) => page.getByRole('separator', { name: `Width of ${title}`, exact: true });
    for (const title of ['CPC', 'Name']) {
      await handle(title).focus();
      for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowLeft');
    }
    // A column's title and a value still fit: CPC shows "0.35", Name a few words.
    await expect.poll(() => headerWidth('CPC')).toBeGreaterThanOrEqual(56);
    await expect.poll(() => headerWidth('Name')).toBeGreaterThanOrEqual(140);
    await page.getByTestId('columns-button').click();
    const boxes = page.getByTestId('columns-panel').locator('input[type="checkbox"]');
    for (let i = 0; i < (await boxes.count()); i++) if (!(await boxes.nth(i).isChecked())) await boxes.nth(i).check();
    await page.keyboard.press('Escape');
    await expect.poll(() => headerWidth('Name')).toBeGreaterThanOrEqual(140);
  });

  it('shows long connection names whole in the sidebar at 1400 px, with the full name on hover', async () => {
    await closeLeftoverDialogs(page);
    await page.setViewportSize({ width: 1400, height: 900 });
    const group = await addConnection(page, LONG_CONNECTION, app.sandboxUrl);
    const name = group.locator('.tree-profile-name');
    await expect.poll(() => name.textContent()).toBe(LONG_CONNECTION);
    const cut = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.tree-profile-name, .tree-item-name'))
        .filter((e) => e.scrollWidth > e.clientWidth + 1)
        .map((e) => e.textContent),
    );
    expect(cut).toEqual([]);
    expect(await name.getAttribute('title')).toBe(LONG_CONNECTION);
    await page.getByTestId('account-tree').screenshot({ path: screenshotPath('layout-1400-sidebar.png') });
  });

  it('reaches the views in a few Tab stops with two connections, without the skip link', async () => {
    await page.reload();
    await page.getByTestId(`account-${account.account_id}`).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.tree-group').count()).toBe(2);
    let stops = 0;
    for (; stops < 30; stops++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.closest('main') !== null)) break;
    }
    expect(stops + 1).toBeLessThanOrEqual(8);
    // What left the Tab order is still reached with the arrows inside the tree.
    await page.getByTestId(`account-${account.account_id}`).focus();
    await page.keyboard.press('Home');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toMatch(/^add-account-/);
    await expectAxeClean(page);
    expect(app.pageErrors).toEqual([]);
  });
});
