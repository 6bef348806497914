// The Tasks tab of issue 17: filters, every field in the details, the refresh saying what it did,
// and the service worker path's rules in place.
import { describe, expect, it } from 'vitest';
import { unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

describe('Tasks tab', () => {
  it('filters by type and status, refreshes with a word on what happened, and shows every field', async () => {
    const { page } = app;
    await page.getByTestId('tab-tasks').click();
    await page.getByTestId('task-app').selectOption('1001');
    const rows = page.getByTestId('task-grid').getByTestId('grid-row');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.getByTestId('tasks-refresh').click();
    await expect
      .poll(() => page.getByTestId('tasks-notice').textContent(), { timeout: 30_000 })
      .toMatch(/^Refreshed: \d+ tasks of application 1001\.$/);
    await page.getByTestId('task-status-filter').selectOption('completed');
    await expect
      .poll(async () => (await rows.getByTestId('cell-task-status').allTextContents()).every((s) => s === 'completed'))
      .toBe(true);
    expect(await page.getByTestId('task-count').textContent()).toMatch(/of \d+ tasks/);
    await page.getByTestId('task-status-filter').selectOption('');
    await page.getByTestId('task-type-filter').selectOption('scheduled');
    await page.getByTestId('task-sort').selectOption('update');
    await rows.first().click();
    for (const f of ['taskUpdateTime', 'method', 'videoId', 'forcedItemPolicy', 'userTimeZone', 'tagId']) {
      expect(await page.getByTestId(`task-field-${f}`).count()).toBe(1);
    }
    expect(await page.getByTestId('task-field-taskType').textContent()).toBe('scheduled');
  });

  it('explains the service worker path and its 400 and 404 answers where it is changed', async () => {
    const { page } = app;
    await page.getByTestId('sw-path-change').click();
    const help = await page.getByTestId('sw-path-help').textContent();
    expect(help).toContain('starting with "/"');
    expect(help).toContain('400');
    expect(help).toContain('404 when the application id');
    expect(app.pageErrors).toEqual([]);
  });
});
