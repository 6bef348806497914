// The campaigns table's columns as a person handles them (issue 16): at 1024 and 1400 px the
// default columns show Start and ID whole and no label is cut; a column is resized by dragging its
// header's edge, by its handle's arrow keys, fitted by a double-click, and moved by dragging its
// header or by the column chooser's buttons; a restart (new core and browser on the same data)
// finds the table as it was left. An account added by id on a second connection shows its name.
// axe-core finds nothing serious in either theme. Screenshots: .tmp/screenshots/ (the README's
// docs/campaign-columns.png is saved-views.test.ts's).
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../src/main/browser-mode/start';
import { unlimitedAdvertiser } from './app-session';
import { axeViolations } from './axe';
import { withDataFolder } from './flows/app';
import { addAccount, addConnection } from './flows/connections';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();

const folder = withDataFolder('desk-e2e-columns-');
let mode: BrowserMode;
let page: Page;

/** Starts the app on the test's data folder (again, after folder.stop()), with axe allowed in. */
async function start(): Promise<void> {
  ({ mode, page } = await folder.start({ width: 1400, axe: true }));
}

const grid = () => page.getByTestId('campaign-grid');
const rows = () => grid().locator('[data-testid="grid-row"]');
const headers = () => grid().locator('[role="columnheader"]').allTextContents();
const headWidth = (id: string) => page.getByTestId(`head-${id}`).evaluate((el) => Math.round(el.getBoundingClientRect().width));

/** Waits until the window state written to the settings table says what `ok` looks for. */
function savedWhen(ok: (body: string) => boolean) {
  return page.waitForResponse((r) => r.url().endsWith('/api/views.save') && ok(r.request().postData() ?? ''), { timeout: 15_000 });
}

/** Every header and cell of the column that lies outside the grid's visible width, as text. */
function cutOff(col: string): Promise<string[]> {
  return grid().evaluate((el, id) => {
    const box = el.getBoundingClientRect();
    const right = box.left + el.clientWidth; // the vertical scrollbar is not visible width
    const out: string[] = [];
    for (const c of el.querySelectorAll<HTMLElement>('[data-col]')) {
      if (c.dataset.col !== id) continue;
      const r = c.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > right + 0.5)
        out.push(
          `${c.textContent ?? ''} at ${Math.round(r.left)}-${Math.round(r.right)}, grid ${Math.round(box.left)}-${Math.round(right)}`,
        );
    }
    return out;
  }, col);
}

/** Cells of the column whose text does not fit (drawn with an ellipsis). */
function clipped(col: string): Promise<string[]> {
  return grid().evaluate((el, id) => {
    const out: string[] = [];
    for (const c of el.querySelectorAll<HTMLElement>('.vg-cell'))
      if (c.dataset.col === id && c.scrollWidth > c.clientWidth) out.push(c.textContent ?? '');
    return out;
  }, col);
}

/** Drags from the middle of `from` by dx pixels, in steps, as a hand would. */
async function drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, to.y, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

async function centre(testId: string): Promise<{ x: number; y: number; left: number; width: number }> {
  const b = (await page.getByTestId(testId).boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2, left: b.x, width: b.width };
}

beforeAll(start);

describe('campaign columns', () => {
  it('shows Start and ID whole at 1024 and 1400 px with nothing selected, and no status or bidding label cut', async () => {
    await page.getByTestId(`account-${account.account_id}`).click({ timeout: 30_000 });
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBeGreaterThan(3);
    for (const width of [1024, 1400]) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => page.getByTestId('details-pane').count()).toBe(0);
      expect(await cutOff('start_date'), `Start at ${width} px`).toEqual([]);
      expect(await cutOff('id'), `ID at ${width} px`).toEqual([]);
      expect(await clipped('status')).toEqual([]);
      expect(await clipped('start_date')).toEqual([]);
      expect(await clipped('id')).toEqual([]);
      await page.screenshot({ path: screenshotPath(`campaign-columns-${width}.png`) });
    }
    // A selected campaign opens the details pane beside the table.
    await rows().first().click();
    await expect.poll(() => page.getByTestId('details-pane').count()).toBe(1);

    await page.getByTestId('columns-button').click();
    const saved = savedWhen((b) => b.includes('"id":"bid_strategy"'));
    await page.getByTestId('column-bid_strategy').check();
    await saved;
    await page.keyboard.press('Escape');
    const bidding = await grid().locator('[data-col="bid_strategy"]').allTextContents();
    expect(bidding).toContain('Maximise conversions');
    expect(await clipped('bid_strategy')).toEqual([]);
  });

  it('resizes a column by dragging its edge, by its handle and arrow keys, and fits it to its content on a double-click', async () => {
    const before = await headWidth('spent');
    const handle = await centre('resize-spent');
    // The width follows the pointer; Escape drops the drag and the column keeps its width.
    await page.mouse.move(handle.x, handle.y);
    await page.mouse.down();
    await page.mouse.move(handle.x + 40, handle.y, { steps: 4 });
    await expect.poll(() => headWidth('spent')).toBe(before + 40);
    await page.keyboard.press('Escape');
    await page.mouse.up();
    await expect.poll(() => headWidth('spent')).toBe(before);

    const resized = savedWhen((b) => b.includes(`"id":"spent","width":${before + 60}`));
    await drag(handle, { x: handle.x + 60, y: handle.y });
    await resized;
    expect(await headWidth('spent')).toBe(before + 60);
    // A drag on the edge does not sort.
    expect(await page.getByTestId('head-spent').getAttribute('aria-sort')).toBe('none');

    const cpc = page.getByTestId('resize-cpc');
    const from = Number(await cpc.getAttribute('aria-valuenow'));
    await cpc.focus();
    const keyed = savedWhen((b) => b.includes(`"id":"cpc","width":${from + 20}`));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await keyed;
    expect(await cpc.getAttribute('aria-valuetext')).toBe(`${from + 20} pixels`);
    expect(await headWidth('cpc')).toBe(from + 20);
    // The arrows moved the handle, not the grid's selection.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('resize-cpc');

    // Make Name too narrow for its longest name, then fit it.
    const name = await centre('resize-name');
    const narrowed = savedWhen((b) => /"id":"name","width":\d+/.test(b));
    await drag(name, { x: name.x - 60, y: name.y });
    await narrowed;
    expect((await clipped('name')).length).toBeGreaterThan(0);
    const fitted = savedWhen((b) => /"id":"name","width":\d+/.test(b));
    await page.getByTestId('resize-name').dblclick();
    await fitted;
    await expect.poll(() => clipped('name')).toEqual([]);
  });

  it('moves a column by dragging its header, and by the column chooser from the keyboard', async () => {
    // Wide enough that ID, at the far right, is on screen beside the details pane.
    await page.setViewportSize({ width: 1700, height: 800 });
    expect(await cutOff('id')).toEqual([]);
    const id = await centre('head-id');
    const name = await centre('head-name');
    const moved = savedWhen((b) => /"columns":\[\{"id":"id"/.test(b));
    await drag(id, { x: name.left + 8, y: name.y });
    await moved;
    expect((await headers()).slice(0, 3)).toEqual(['Pick', 'ID', 'Name']);
    // Dropping the header did not sort by it.
    expect(await page.getByTestId('head-id').getAttribute('aria-sort')).toBe('none');

    await page.getByTestId('columns-button').click();
    const left = page.getByRole('button', { name: 'Move Name left' });
    await left.focus();
    const keyed = savedWhen((b) => /"columns":\[\{"id":"name"/.test(b));
    await page.keyboard.press('Enter');
    await keyed;
    // Name is first now, its left button disabled: the focus is on its right button, so Escape still closes.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('column-right-name');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('columns-panel').count()).toBe(0);
    expect((await headers()).slice(0, 3)).toEqual(['Pick', 'Name', 'ID']);
    await page.screenshot({ path: screenshotPath('campaign-columns-moved.png') });
  });

  it('finds the order and widths as they were left after a restart', async () => {
    const order = await headers();
    const widths = { spent: await headWidth('spent'), cpc: await headWidth('cpc'), name: await headWidth('name') };
    await folder.stop();
    await start();
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBeGreaterThan(3);
    expect(await headers()).toEqual(order);
    expect({ spent: await headWidth('spent'), cpc: await headWidth('cpc'), name: await headWidth('name') }).toEqual(widths);
  });

  it('finds nothing serious or critical with axe in either theme, handles and details pane included', async () => {
    await rows().first().click();
    await expect.poll(() => page.getByTestId('details-pane').count()).toBe(1);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      expect(await axeViolations(page), theme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the name of an account added by id on a second connection, as the service names it', async () => {
    const group = await addConnection(page, 'Second sandbox', mode.demoUrl!);
    await expect.poll(() => group.count()).toBe(1);

    // A network member: its network's listing on the demo connection names it.
    const added = await addAccount(page, group, 'northbikes');
    await expect.poll(() => added.textContent()).toContain('North Bikes');
    await page.screenshot({ path: screenshotPath('account-added-by-id.png') });
  });
});
