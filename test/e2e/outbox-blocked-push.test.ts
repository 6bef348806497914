// Issue 27 item 6: a scheduled push blocked because its time passed while it waited is fixed in one
// click from the Outbox too (in 1 hour, tomorrow at the same time, send now), as from the Push tab,
// and neither the Outbox nor its draft offers Retry for it: sent again as it is, it could only be
// blocked again. The Outbox with such a row is axe clean in both themes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAxePage, sandboxJson, unlimitedAdvertiser } from './app-session';
import { expectAxeClean } from './axe';
import { withApp } from './flows/app';
import { blockPush, HOUR, serviceNow, setServiceClockOffset } from './flows/push';

const account = unlimitedAdvertiser();
const app = withApp();
let page: Page;

const pad = (n: number) => String(n).padStart(2, '0');

interface ServiceTask {
  title: string;
  taskStatus: string;
  taskType: string;
  executionTime: number | null;
}
const serviceTasks = async () => (await sandboxJson<{ tasks: ServiceTask[] }>(app.sandboxUrl, '/_sandbox/state/tasks?app=1001')).tasks;
const now = () => serviceNow(app.sandboxUrl);
/** A blocked push of the open account (see blockPush): its due time. */
const blockedPush = (title: string, clockOffsetMs: number) =>
  blockPush(page, app.sandboxUrl, title, { clockOffsetMs, url: 'https://news.example.com/outbox-fix' });

beforeAll(async () => {
  page = await openAxePage(app, { viewport: { width: 1400, height: 900 }, account: account.account_id });
});
afterAll(async () => {
  // Before withApp closes the app.
  await setServiceClockOffset(app.sandboxUrl, 0).catch(() => undefined);
});

describe('A blocked scheduled push in the Outbox', () => {
  it('offers the one-click times and no Retry, and "Tomorrow at" sends it at that time', async () => {
    const title = `Fixed from the Outbox ${Date.now()}`;
    const due = await blockedPush(title, 2 * HOUR);

    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: title });
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('blocked');
    // The fixes arrive with the blocked list; Retry would only block it again.
    await row.getByTestId('blocked-fix-tomorrow').waitFor({ timeout: 10_000 });
    expect(await row.getByTestId('outbox-retry').count()).toBe(0);
    expect(await row.getByTestId('blocked-fix-hour').textContent()).toBe('In 1 hour');
    expect(await row.getByTestId('blocked-fix-now').textContent()).toBe('Send now');
    const at = `${pad(new Date(due).getUTCHours())}:${pad(new Date(due).getUTCMinutes())}`;
    expect(await row.getByTestId('blocked-fix-tomorrow').textContent()).toBe(`Tomorrow at ${at}`);
    await page.screenshot({ path: '/tmp/outbox-blocked-push.png' });
    await expectAxeClean(page);

    const before = await now();
    await row.getByTestId('blocked-fix-tomorrow').click();
    await expect.poll(async () => (await serviceTasks()).find((t) => t.title === title)?.taskStatus, { timeout: 30_000 }).toBe('pending');
    const task = (await serviceTasks()).find((t) => t.title === title)!;
    // The same wall time (UTC, the push's clock), on the service's tomorrow.
    const tomorrow = new Date(before + 24 * HOUR);
    expect(task.executionTime).toBe(
      Date.UTC(
        tomorrow.getUTCFullYear(),
        tomorrow.getUTCMonth(),
        tomorrow.getUTCDate(),
        new Date(due).getUTCHours(),
        new Date(due).getUTCMinutes(),
      ),
    );
    // Sent: it has left the waiting list, and the Push tab no longer lists it as blocked either.
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
    await page.getByTestId('tab-push').click();
    await expect.poll(() => page.getByTestId('blocked-push').filter({ hasText: title }).count()).toBe(0);
  });

  it('"Send now" sends a blocked push at once', async () => {
    const title = `Sent now from the Outbox ${Date.now()}`;
    await blockedPush(title, 4 * HOUR);
    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: title });
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('blocked');
    // Its draft in the Drafts tab offers Fix, but no Retry either.
    await page.getByTestId('tab-drafts').click();
    await page.getByTestId('draft-item').filter({ hasText: title }).click();
    await expect.poll(() => page.getByTestId('change-state').getAttribute('data-status')).toBe('blocked');
    expect(await page.getByTestId('draft-fix').count()).toBe(1);
    expect(await page.getByTestId('draft-retry').count()).toBe(0);
    await page.getByTestId('tab-outbox').click();
    expect(await row.getByTestId('outbox-retry').count()).toBe(0);
    await row.getByTestId('blocked-fix-now').click();
    await expect.poll(async () => (await serviceTasks()).find((t) => t.title === title)?.taskType, { timeout: 30_000 }).toBe('immediate');
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
