// A push the service refuses, taken back to fix: the Push tab shows the service's words above the
// composer, as the Drafts tab does for a campaign. The service withdraws the client's access to the
// app (its fixtures file edited, the sandbox reset) after the composer listed it, so the post is
// refused with 403; Fix in the Outbox brings the push back to its draft, opened in the Push tab.
import { describe, expect, it } from 'vitest';
import type { Fixtures } from '../../src/sandbox/index';
import { demoClient, fixtures } from './app-session';
import { expectAxeClean } from './axe';
import { addAccount, addConnection } from './flows/connections';
import { withOwnService } from './own-service';
import { queuePush, writePush } from './flows/push';
import { screenshotPath } from './support';

const ACCOUNT = 'suntrailtravel';
const APP = '1001';

function world(granted: boolean): Fixtures {
  return {
    ...fixtures,
    clients: fixtures.clients.map((c) =>
      c.client_id === demoClient.client_id ? { ...c, apps: (c.apps ?? []).filter((a) => granted || a !== APP) } : c,
    ),
  };
}

const session = withOwnService(world(true));

describe('A refused push', () => {
  it('is fixed in the Push tab, which shows what the service said', async () => {
    const { page, service, app } = session;
    const group = await addConnection(page, 'Agency', service.url);
    await (await addAccount(page, group, ACCOUNT)).click();

    const title = `E2E refused push ${Date.now()}`;
    await writePush(page, { title, url: 'https://news.example.com/e2e', performer: 'e2e@example.com', app: APP });
    await expect.poll(() => page.getByTestId('push-problem-count').textContent()).toBe('Ready to queue');
    await service.becomes(world(false));
    await queuePush(page);

    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: title });
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    await row.getByTestId('outbox-fix').click();
    await expect.poll(() => page.getByTestId('tab-drafts').getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('draft-open-push').click();
    await expect.poll(() => page.getByTestId('tab-push').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('push-title').inputValue()).toBe(title);
    const words = page.getByTestId('push-composer').getByTestId('service-words');
    // Said once: the service's words already open with "The service refused", so no lead-in repeats it.
    await expect.poll(() => words.textContent()).toMatch(/^The service refused .*authorized/i);
    expect((await words.textContent())?.match(/The service refused/g)).toHaveLength(1);
    await page.screenshot({ path: screenshotPath('push-refused.png') });
    await expectAxeClean(page);

    // A new push starts without them.
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(() => words.count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
