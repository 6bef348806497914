// Issue 27 item 4, where things went: an app whose access the service withdrew leaves the push
// composer's picker without a restart, once the apps are read again (Refresh) or a push to it is
// refused for access; a push still targeting it says so at once and cannot be queued until it is
// unticked. The demo service withdraws the apps through its control API
// (PUT /_sandbox/clients/{client}/apps). Screenshot: .tmp/screenshots/apps-withdrawn.png.
import { describe, expect, it } from 'vitest';
import { demoClient, sandboxJson, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { queuePush, writePush } from './flows/push';
import { shootElement } from './support';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

const grant = (apps: string[]) =>
  sandboxJson(app.sandboxUrl, `/_sandbox/clients/${demoClient.client_id}/apps`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apps }),
  });

async function compose(title: string, appId: string): Promise<void> {
  await writePush(app.page, { title, url: 'https://news.example.com/withdrawn', app: appId, fresh: true });
}

describe('apps whose access was withdrawn', () => {
  it('leave the picker after a refresh, and a push still aimed at one says so and is not queued', async () => {
    const { page } = app;
    await compose(`Aimed at 1002 ${Date.now()}`, '1002');
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    await grant(['1001', '1004']);
    await page.getByTestId('refresh-button').click();

    const gone = page.getByTestId('app-gone-1002');
    await expect.poll(() => gone.count(), { timeout: 30_000 }).toBe(1);
    expect(await gone.textContent()).toContain('no longer available to this connection');
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toMatch(/^1 problem/);
    expect(await page.getByTestId('push-queue').isDisabled()).toBe(true);
    await shootElement(page.getByTestId('target-builder'), 'apps-withdrawn.png');

    // Unticked, it is gone from the picker, and the push can be queued to what is left.
    await page.getByTestId('app-1002').click();
    await page.getByTestId('app-1001').check();
    await expect.poll(() => page.getByTestId('app-1002').count()).toBe(0);
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
  });

  it('leave the picker after a push to one is refused for access, without a refresh', async () => {
    const { page } = app;
    const title = `Aimed at 1004 ${Date.now()}`;
    await compose(title, '1004');
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    await grant(['1001']);
    await queuePush(page);

    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: title });
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    await page.getByTestId('tab-push').click();
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(() => page.getByTestId('app-1001').count()).toBe(1);
    await expect.poll(() => page.getByTestId('app-1004').count(), { timeout: 15_000 }).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
