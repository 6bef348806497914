// The Outbox in the browser: the person changes which queued change goes first. Three changes are
// queued while working offline; the last is moved to the top (its Move up button, then Alt+ArrowUp
// on its row, focus staying on it), the "waiting" column counts each change's turn in the new
// order, and once online the service receives them in that order. Screenshot: outbox-order.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAxePage, sandboxJson, unlimitedAdvertiser } from './app-session';
import { axeViolations } from './axe';
import { withApp } from './flows/app';
import { queueCampaignDraft } from './flows/drafts';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();
const app = withApp();
let page: Page;

beforeAll(async () => {
  page = await openAxePage(app, { account: account.account_id });
});

describe('Outbox: the order of queued changes', () => {
  it('moves the last queued change to the top, and the service receives them in that order', async () => {
    const stamp = Date.now();
    const names = ['First', 'Second', 'Third'].map((n) => `E2E order ${n} ${stamp}`);
    await page.getByTestId('work-offline-sandbox-demo').check();
    for (const n of names) await queueCampaignDraft(page, n);
    await page.getByTestId('tab-outbox').click();

    const rows = page.getByTestId('outbox-item');
    const listed = () => rows.evaluateAll((els) => els.map((el) => el.querySelector('td')?.firstElementChild?.textContent ?? ''));
    const ahead = () =>
      rows.evaluateAll((els) => els.map((el) => el.querySelector('[data-testid="outbox-wait"]')?.getAttribute('data-ahead') ?? ''));
    const created = (n: string) => `Create campaign "${n}"`;
    await expect.poll(listed, { timeout: 15_000 }).toEqual(names.map(created));
    await expect.poll(ahead).toEqual(['0', '1', '2']);
    const first = rows.filter({ hasText: names[0] });
    expect(await first.getByTestId('outbox-move-up').getAttribute('aria-disabled')).toBe('true');

    // The button: Third goes above Second, and focus stays on the button of the moved row.
    const third = rows.filter({ hasText: names[2] });
    await third.getByTestId('outbox-move-up').click();
    await expect.poll(listed).toEqual([names[0], names[2], names[1]].map(created));
    expect(await third.getByTestId('outbox-move-up').evaluate((el) => el === document.activeElement)).toBe(true);

    // The keyboard: Shift+Tab from its first button reaches the row, and Alt+ArrowUp takes the row to
    // the top; focus stays on the row.
    await page.keyboard.press('Shift+Tab');
    expect(await third.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Alt+ArrowUp');
    const order = [names[2], names[0], names[1]];
    await expect.poll(listed).toEqual(order.map(created));
    await expect.poll(ahead).toEqual(['0', '1', '2']);
    const waiting = () => rows.evaluateAll((els) => els.map((el) => el.querySelector('[data-testid="outbox-wait"]')?.textContent ?? ''));
    await expect
      .poll(waiting)
      .toEqual([
        'Working offline: nothing is sent until you go online',
        'Working offline: nothing is sent until you go online; 1 earlier change goes first',
        'Working offline: nothing is sent until you go online; 2 earlier changes go first',
      ]);
    expect(await third.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await third.getByTestId('outbox-move-up').getAttribute('aria-disabled')).toBe('true');
    // Alt+ArrowDown and back: the row follows the keys and keeps focus.
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(listed).toEqual([names[0], names[2], names[1]].map(created));
    expect(await third.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(listed).toEqual(order.map(created));
    await page.screenshot({ path: screenshotPath('outbox-order.png') });
    expect(await axeViolations(page)).toEqual([]);

    await page.getByTestId('work-offline-sandbox-demo').uncheck();
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(0);
    // The sandbox numbers campaigns as they arrive: its order is the order they were sent in.
    const { campaigns } = await sandboxJson<{ campaigns: { id: number; name: string }[] }>(
      app.sandboxUrl,
      `/_sandbox/state/campaigns?account=${account.account_id}`,
    );
    const arrived = campaigns
      .filter((c) => names.includes(c.name))
      .sort((a, b) => a.id - b.id)
      .map((c) => c.name);
    expect(arrived).toEqual(order);
    expect(app.pageErrors).toEqual([]);
  });
});
