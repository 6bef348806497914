// Issue 17: a future scheduled task is edited in the composer (preview, time zones), an edit can be
// discarded, a queued edit reaches the service as the whole record, and the task is then cancelled.
// The Push and Tasks screens (composer, list, details, task editor) have no serious or critical axe
// violation in the light or the dark theme.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAccount, openApp, sandboxJson, unlimitedAdvertiser, type AppSession } from './app-session';
import { expectAxeClean } from './axe';
import { queuePush, writePush } from './flows/push';

const account = unlimitedAdvertiser();
let app: AppSession;
let page: Page;

const pad = (n: number) => String(n).padStart(2, '0');
/** The picker's text and the instant of `days` days from now (UTC) at hh:00 UTC. */
function utcAt(days: number, hour: number): { text: string; ms: number } {
  const d = new Date(Date.now() + days * 24 * 3600_000);
  const ms = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour, 0);
  return { text: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(hour)}:00`, ms };
}

interface ServiceTask {
  taskId: number;
  title: string;
  taskStatus: string;
  executionTime: number;
  userTimeZone: number;
  performer: string;
  itemDescription?: string;
}
const serviceTask = async (title: string) =>
  (await sandboxJson<{ tasks: ServiceTask[] }>(app.sandboxUrl, '/_sandbox/state/tasks?app=1001')).tasks.find((t) => t.title === title);

/** axe over the page as it is, in the light and then the dark theme (the app follows the system's). */
const title = `Edit me ${Date.now()}`;
const first = utcAt(1, 9);
const moved = utcAt(2, 10);

beforeAll(async () => {
  app = await openApp();
  // bypassCSP: only so that the test can inject axe's source; the app's own scripts need no exception.
  const ctx = await app.browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: 'America/New_York', bypassCSP: true });
  page = await ctx.newPage();
  page.on('pageerror', (e) => app.pageErrors.push(String(e)));
  await page.goto(app.mode.server.openUrl);
  await openAccount(page, account.account_id);
});
afterAll(async () => app?.close());

describe('A scheduled task edited in the composer', () => {
  it('the composer, scheduled and with a problem shown, is axe clean in both themes', async () => {
    await writePush(page, { title, url: 'https://news.example.com/edit' });
    await page.getByTestId('push-scheduled').check();
    await page.getByTestId('push-executionTime').fill('2020-01-07T09:00');
    await expect.poll(() => page.getByTestId('push-schedule-summary').textContent()).toContain('This time has passed');
    await page.getByTestId('app-1001').waitFor();
    await expectAxeClean(page);
  });

  it('queues the push for tomorrow 09:00 UTC and finds it pending in Tasks, axe clean', async () => {
    await page.getByTestId('push-executionTime').fill(first.text);
    await page.getByTestId('app-1001').check();
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    await queuePush(page);
    await expect.poll(async () => (await serviceTask(title))?.executionTime, { timeout: 30_000 }).toBe(first.ms);

    await page.getByTestId('tab-tasks').click();
    await page.getByTestId('task-app').selectOption('1001');
    const row = page.getByTestId('task-grid').getByTestId('grid-row').filter({ hasText: title });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    await row.click();
    await page.getByTestId('task-edit').waitFor();
    await expectAxeClean(page);
  });

  it('opens the task in the composer with its preview and time zone, and discards an edit', async () => {
    await page.getByTestId('task-edit').click();
    const editor = page.getByTestId('task-editor');
    await editor.waitFor();
    expect(await page.getByTestId('task-title').inputValue()).toBe(title);
    expect(await page.getByTestId('task-executionTime').inputValue()).toBe(first.text);
    expect(await editor.getByTestId('preview-title').first().textContent()).toBe(title);
    expect(await page.getByTestId('task-schedule-summary').textContent()).toMatch(/09:00 UTC \((04|05):00 your time, America\/New_York\)/);
    // A task's time can move but it cannot become "send now".
    expect(await page.getByTestId('task-immediate').count()).toBe(0);

    await page.getByTestId('task-title').fill('Discarded title');
    await page.getByTestId('task-itemDescription').fill('A body that only the preview sees');
    await expect.poll(() => editor.getByTestId('preview-title').first().textContent()).toBe('Discarded title');
    expect(await editor.getByTestId('push-preview').textContent()).toContain('A body that only the preview sees');
    await page.getByTestId('task-userTimeZone').selectOption('1');
    expect(await page.getByTestId('task-schedule-summary').textContent()).toContain(
      "09:00 in each subscriber's time zone: the first receive it at",
    );
    expect(await page.getByTestId('task-edit-state').textContent()).toBe('3 changes ready to queue');
    // A picture of the editor: UPDATE_SCREENSHOT=1 npx vitest run -c vitest.e2e.config.mts test/e2e/push-task-edit.test.ts
    if (process.env.UPDATE_SCREENSHOT) await page.screenshot({ path: 'docs/task-editor.png' });
    // A past time is refused with the one-click fixes, as in the composer.
    await page.getByTestId('task-executionTime').fill('2020-01-07T09:00');
    await expect.poll(() => page.getByTestId('task-schedule-summary').textContent()).toContain('This time has passed');
    expect(await page.getByTestId('task-save').isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('task-fix-tomorrow').count()).toBe(1);
    await expectAxeClean(page);

    await page.getByTestId('task-edit-discard').click();
    await page.getByTestId('task-grid').waitFor();
    expect(await page.getByTestId('task-editor').count()).toBe(0);
    const onService = await serviceTask(title);
    expect(onService).toMatchObject({ executionTime: first.ms, userTimeZone: 0, taskStatus: 'pending' });
  });

  it('queues an edit that reaches the service whole, then cancels the task', async () => {
    const newTitle = `${title} (moved)`;
    await page.getByTestId('task-edit').click();
    // Opened again, it starts from the task, not from the discarded edit.
    expect(await page.getByTestId('task-title').inputValue()).toBe(title);
    await page.getByTestId('task-title').fill(newTitle);
    await page.getByTestId('task-executionTime').fill(moved.text);
    expect(await page.getByTestId('task-schedule-summary').textContent()).toMatch(/^Goes out .*10:00 UTC/);
    await expect.poll(() => page.getByTestId('task-editor').getByTestId('preview-title').first().textContent()).toBe(newTitle);
    await page.getByTestId('task-save').click();
    await expect.poll(() => page.getByTestId('tasks-notice').textContent()).toContain('Queued');
    expect(await page.getByTestId('task-editor').count()).toBe(0);
    // Sent as the whole record: the fields not touched (performer, time zone) are as they were.
    await expect.poll(async () => (await serviceTask(newTitle))?.executionTime, { timeout: 30_000 }).toBe(moved.ms);
    expect(await serviceTask(newTitle)).toMatchObject({ performer: 'desk@example.com', userTimeZone: 0, taskStatus: 'pending' });

    const row = page.getByTestId('task-grid').getByTestId('grid-row').filter({ hasText: newTitle });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    await row.click();
    await page.getByTestId('task-cancel').click();
    await page.getByTestId('confirm-yes').click();
    await expect.poll(async () => (await serviceTask(newTitle))?.taskStatus, { timeout: 30_000 }).toBe('cancelled');
    await expect.poll(() => page.getByTestId('task-readonly').textContent(), { timeout: 30_000 }).toContain("can't be edited or cancelled");
    expect(await page.getByTestId('task-edit').count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
