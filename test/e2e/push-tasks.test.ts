import { describe, expect, it } from 'vitest';
import { sandboxJson, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { queuePush, writePush } from './flows/push';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value `ms` from now, in this machine's time zone (as the picker shows it). */
function localIn(ms: number): string {
  const d = new Date(Date.now() + ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

describe('Push composer and Tasks tab', () => {
  it('refuses an attribute in both include and exclude, live, and shows the preview', async () => {
    const { page } = app;
    await page.getByTestId('tab-push').click();
    await page.getByTestId('push-title').fill('Short');
    await expect.poll(() => page.getByTestId('title-counter').textContent()).toContain('5/140');
    expect(await page.getByTestId('title-counter').textContent()).toContain('50-80');
    expect(await page.getByTestId('preview-title').first().textContent()).toBe('Short');
    // An http image is not shown in the preview, and the preview says why (https ones are: unit-tested,
    // since no https image host is reachable from this machine).
    await page.getByTestId('push-icon').fill('http://cdn.example.com/i.png');
    expect(await page.getByTestId('preview-icon').count()).toBe(0);
    expect(await page.getByTestId('push-preview').textContent()).toContain('Images are shown only for https addresses');
    await page.getByTestId('push-icon').fill('');

    await page.getByTestId('chips-include-countries').locator('input').fill('DE');
    await page.getByTestId('chips-include-countries').locator('input').press('Enter');
    await page.getByTestId('chips-exclude-countries').locator('input').fill('FR');
    await page.getByTestId('chips-exclude-countries').locator('input').press('Enter');
    await expect
      .poll(() => page.getByTestId('problem-target-countries').textContent())
      .toBe('Countries: either include or exclude, not both.');
    await page.getByRole('button', { name: 'Remove FR from exclude Countries' }).click();
    await expect.poll(() => page.getByTestId('problem-target-countries').count()).toBe(0);
  });

  it('queues a scheduled push to app 1001 that appears in Tasks as pending, and cancels it', async () => {
    const { page } = app;
    const title = `E2E scheduled ${Date.now()}`;
    await writePush(page, { title, url: 'https://news.example.com/e2e', performer: 'e2e@example.com', app: '1001' });
    await page.getByTestId('push-scheduled').check();
    await page.getByTestId('push-executionTime').fill(localIn(3 * 3600_000));
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    await queuePush(page);

    await page.getByTestId('tab-tasks').click();
    await page.getByTestId('task-app').selectOption('1001');
    const row = page.getByTestId('task-grid').getByTestId('grid-row').filter({ hasText: title });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    expect(await row.getByTestId('cell-task-status').textContent()).toBe('pending');

    await row.click();
    await page.getByTestId('task-cancel').click();
    await page.getByTestId('confirm-yes').click();
    await expect.poll(() => row.getByTestId('cell-task-status').textContent(), { timeout: 30_000 }).toBe('cancelled');
    const onService = await sandboxJson<{ tasks: { title: string; taskStatus: string }[] }>(
      app.sandboxUrl,
      '/_sandbox/state/tasks?app=1001',
    );
    expect(onService.tasks.find((t) => t.title === title)?.taskStatus).toBe('cancelled');
    // Now read-only, with the reason.
    await expect.poll(() => page.getByTestId('task-readonly').textContent()).toContain("can't be edited or cancelled");
  });

  it('says why a sent task cannot be changed', async () => {
    const { page } = app;
    const sent = page.getByTestId('task-grid').getByTestId('grid-row').filter({ hasText: 'completed' }).first();
    await sent.click();
    expect(await page.getByTestId('task-readonly').textContent()).toBe("Already sent: it can't be edited or cancelled");
    expect(await page.getByTestId('task-cancel').count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
