// Issue 17 in a browser whose zone is New York: a push scheduled at 09:00 UTC says so (and what
// that is in New York) before it is queued, and is found on the service at 09:00 UTC; a past time
// is fixed with one click; hints, bad codes, the default performer and templates as a user sees them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAccount, openApp, sandboxJson, unlimitedAdvertiser, type AppSession } from './app-session';
import { queuePush } from './flows/push';

const account = unlimitedAdvertiser();
let app: AppSession;
let page: Page;

const pad = (n: number) => String(n).padStart(2, '0');
/** Tomorrow (UTC) at 09:00 UTC, as the picker's text and as ms. */
const tomorrow = new Date(Date.now() + 24 * 3600_000);
const AT_MS = Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 9, 0);
const AT_TEXT = `${tomorrow.getUTCFullYear()}-${pad(tomorrow.getUTCMonth() + 1)}-${pad(tomorrow.getUTCDate())}T09:00`;

beforeAll(async () => {
  app = await openApp();
  const ctx = await app.browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: 'America/New_York' });
  page = await ctx.newPage();
  page.on('pageerror', (e) => app.pageErrors.push(String(e)));
  await page.goto(app.mode.server.openUrl);
  await openAccount(page, account.account_id);
  await page.getByTestId('tab-push').click();
});
afterAll(async () => app?.close());

describe('Push composer, from a New York browser', () => {
  it('prefills the default performer once it is set for the connection', async () => {
    await page.getByTestId('push-performer').fill('desk@example.com');
    await page.getByTestId('performer-make-default').click();
    await expect.poll(() => page.getByTestId('performer-hint').textContent()).toContain('The default of this connection');
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(() => page.getByTestId('push-performer').inputValue()).toBe('desk@example.com');
    // Still editable.
    await page.getByTestId('push-performer').fill('other@example.com');
    expect(await page.getByTestId('push-performer').inputValue()).toBe('other@example.com');
    await page.getByTestId('push-performer').fill('desk@example.com');
  });

  it('shows the time zone choice only for a scheduled push, and the conversion before queueing', async () => {
    expect(await page.getByTestId('push-userTimeZone').count()).toBe(0);
    await page.getByTestId('push-scheduled').check();
    await page.getByTestId('push-userTimeZone').selectOption('0');
    await page.getByTestId('push-executionTime').fill(AT_TEXT);
    const summary = await page.getByTestId('push-schedule-summary').textContent();
    expect(summary).toMatch(/09:00 UTC \((04|05):00 your time, America\/New_York\)/);
    await page.getByTestId('push-userTimeZone').selectOption('1');
    expect(await page.getByTestId('push-schedule-summary').textContent()).toContain(
      "09:00 in each subscriber's time zone: the first receive it at",
    );
    await page.getByTestId('push-userTimeZone').selectOption('0');
  });

  it('queues it and the task is found at 09:00 UTC on the service', async () => {
    const title = `Nine UTC ${Date.now()}`;
    await page.getByTestId('push-title').fill(title);
    await page.getByTestId('push-url').fill('https://news.example.com/nine');
    await page.getByTestId('app-1001').check();
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    // The README's composer picture: UPDATE_SCREENSHOT=1 npx vitest run -c vitest.e2e.config.mts test/e2e/push-schedule.test.ts
    if (process.env.UPDATE_SCREENSHOT) await page.screenshot({ path: 'docs/push-composer.png' });
    await queuePush(page);
    await expect
      .poll(
        async () =>
          (
            await sandboxJson<{ tasks: { title: string; executionTime: number }[] }>(app.sandboxUrl, '/_sandbox/state/tasks?app=1001')
          ).tasks.find((t) => t.title === title)?.executionTime,
        { timeout: 30_000 },
      )
      .toBe(AT_MS);
  });

  it('fixes a past time with one click', async () => {
    await page.getByTestId('push-scheduled').check();
    await page.getByTestId('push-executionTime').fill('2020-01-07T09:00');
    await expect.poll(() => page.getByTestId('push-schedule-summary').textContent()).toContain('This time has passed');
    await page.getByTestId('push-fix-tomorrow').click();
    const fixed = await page.getByTestId('push-executionTime').inputValue();
    expect(fixed.endsWith('T09:00')).toBe(true);
    expect(Date.parse(`${fixed}:00Z`)).toBeGreaterThan(Date.now());
    expect(await page.getByTestId('push-schedule-summary').textContent()).toMatch(/^Goes out/);
    await page.getByTestId('push-executionTime').fill('2020-01-07T09:00');
    await page.getByTestId('push-fix-now').click();
    expect(await page.getByTestId('push-immediate').isChecked()).toBe(true);
  });

  it('shows a hint for each content recommendation', async () => {
    await page.getByTestId('push-title').fill('Short');
    expect(await page.getByTestId('title-counter').textContent()).toContain('50-80');
    await page.getByTestId('push-itemDescription').fill('Too short');
    expect(await page.getByTestId('description-hint').textContent()).toContain('100-150');
    await page.getByTestId('push-icon').fill('http://127.0.0.1:9/icon.gif');
    await expect.poll(() => page.getByTestId('icon-hints').textContent()).toContain('Use an HTTPS address');
    // Nothing is fetched by the window itself.
    expect(await page.getByTestId('preview-icon').count()).toBe(0);
  });

  it('refuses a bad country code and names good ones', async () => {
    const input = page.getByTestId('chips-include-countries').locator('input');
    await input.fill('usa');
    await input.press('Enter');
    expect(await page.getByTestId('chips-include-countries').textContent()).toContain('not an ISO 3166 country code');
    await input.fill('de');
    await input.press('Enter');
    await expect.poll(() => page.getByTestId('names-countries').textContent()).toBe('DE = Germany');
    await page.getByTestId('user-data-key').fill('tier');
    await page.getByTestId('user-data-values').fill('gold, ,silver');
    await page.getByTestId('user-data-add').click();
    expect(await page.getByTestId('user-data-problem').textContent()).toContain('cannot be empty');
  });

  it('saves the push as a template and starts a new push from it', async () => {
    await page.getByTestId('push-title').fill('Template title for the weekly digest');
    await page.getByTestId('template-save').click();
    await page.getByTestId('template-name').fill('Weekly digest');
    await page.getByTestId('template-save-confirm').click();
    await expect.poll(() => page.getByTestId('push-notice').textContent()).toContain('Saved as template');
    await page.getByRole('button', { name: 'New', exact: true }).click();
    expect(await page.getByTestId('push-title').inputValue()).toBe('');
    await page.getByTestId('template-pick').selectOption({ label: 'Weekly digest' });
    await page.getByTestId('template-use').click();
    expect(await page.getByTestId('push-title').inputValue()).toBe('Template title for the weekly digest');
    expect(await page.getByTestId('names-countries').textContent()).toBe('DE = Germany');
    expect(app.pageErrors).toEqual([]);
  });
});
