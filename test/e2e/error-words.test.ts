// Issue 27 item 3, words true when shown: a 500 is an answer, so Activity says the service failed,
// in its words, not that the answer was lost; a refused create's words are not led in by a second
// "The service refused"; a push blocked because its time passed is not said to be refused when
// it is taken back with Fix; the Outbox row of a create the service answered with a 500 keeps the
// service's words while the app looks for it, and after it is parked (minutes of a manual clock).
// Screenshots: .tmp/screenshots/error-words-refused.png, error-words-blocked.png, error-words-parked.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advanceApp,
  closeLeftoverDialogs,
  openAccount,
  openApp,
  openAxePage,
  sandboxJson,
  unlimitedAdvertiser,
  type AppSession,
} from './app-session';
import { expectAxeClean } from './axe';
import { withApp } from './flows/app';
import { queueCampaignDraft } from './flows/drafts';
import { blockPush, HOUR, setServiceClockOffset } from './flows/push';
import { shootElement } from './support';

const account = unlimitedAdvertiser();
const app = withApp();
let page: Page;

beforeAll(async () => {
  page = await openAxePage(app);
});
afterAll(async () => {
  // Before withApp closes the app.
  await setServiceClockOffset(app.sandboxUrl, 0).catch(() => undefined);
});

describe('errors in true words', () => {
  it('says in Activity that the service failed, with its words, after a 500', async () => {
    await openAccount(page, account.account_id);
    await sandboxJson(app.sandboxUrl, '/_sandbox/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path_prefix: `/core/api/1.0/${account.account_id}/campaigns`, mode: 'status_500', count: 1 }),
    });
    try {
      const name = `Failed once ${Date.now()}`;
      await queueCampaignDraft(page, name, { ready: /^Ready to queue/ });
      await page.getByTestId('tab-activity').click();
      const entry = page.getByTestId('activity-list').locator('li').filter({ hasText: name }).first();
      await expect
        .poll(() => entry.textContent(), { timeout: 30_000 })
        .toContain('the service failed (500: Internal server error) and may have made it all the same');
      expect(await page.getByTestId('activity-list').textContent()).not.toContain('the answer was lost');
    } finally {
      await sandboxJson(app.sandboxUrl, '/_sandbox/faults', { method: 'DELETE' });
    }
  });

  it('says a refusal once: no "The service refused ...: The service refused ..."', async () => {
    await closeLeftoverDialogs(page);
    await openAccount(page, 'freshcrumbbakery');
    const name = `Refused banners ${Date.now()}`;
    // Fresh Crumb Bakery is not enabled for display: the service refuses it.
    await queueCampaignDraft(page, name, { kind: 'display', ready: /^Ready to queue/ });
    const item = page.getByTestId('draft-item').filter({ hasText: name });
    await expect.poll(() => item.count(), { timeout: 30_000 }).toBe(1);
    await item.click();
    await expect.poll(() => page.getByTestId('change-state').getAttribute('data-status'), { timeout: 30_000 }).toBe('failed');
    const failed = (await page.getByTestId('service-words').textContent()) ?? '';
    expect(failed).toMatch(/^The service refused to create a campaign/);
    await page.getByTestId('draft-fix').click();
    await expect
      .poll(() => page.getByTestId('service-words').textContent())
      .toMatch(/^The service refused to create a campaign .*not enabled for display campaigns/);
    expect((await page.getByTestId('service-words').textContent())?.match(/The service refused/g)).toHaveLength(1);
    await shootElement(page.getByTestId('change-state'), 'error-words-refused.png');
  });

  it('says a push blocked because its time passed was not sent, not refused, when Fix takes it back', async () => {
    await openAccount(page, account.account_id);
    const title = `Blocked words ${Date.now()}`;
    await blockPush(page, app.sandboxUrl, title, { clockOffsetMs: 2 * HOUR });

    await page.getByTestId('tab-drafts').click();
    const item = page.getByTestId('draft-item').filter({ hasText: title });
    await expect.poll(() => item.count(), { timeout: 30_000 }).toBe(1);
    await item.click();
    await expect.poll(() => page.getByTestId('change-state').getAttribute('data-status'), { timeout: 30_000 }).toBe('blocked');
    await page.getByTestId('draft-fix').click();
    const words = page.getByTestId('service-words');
    await expect.poll(() => words.textContent()).toMatch(/^(The last version was not sent|Not sent): .*time has passed/);
    expect(await words.textContent()).not.toMatch(/refused/i);
    expect((await words.textContent())?.match(/not sent/gi)).toHaveLength(1);
    await shootElement(page.getByTestId('change-state'), 'error-words-blocked.png');
    await expectAxeClean(page);
    await page.getByTestId('draft-open-push').click();
    await expect.poll(() => page.getByTestId('service-words').textContent()).toMatch(/^Not sent: .*time has passed/);
    expect(app.pageErrors).toEqual([]);
  });
});

describe("the service's words stay on the Outbox row after a 500 (manual clock)", () => {
  let timed: AppSession;
  beforeAll(async () => {
    timed = await openApp({ manualClock: true });
  });
  afterAll(async () => {
    await sandboxJson(timed.sandboxUrl, '/_sandbox/faults', { method: 'DELETE' }).catch(() => undefined);
    await timed?.close();
  });

  const fault = (spec: Record<string, unknown>) =>
    sandboxJson(timed.sandboxUrl, '/_sandbox/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(spec),
    });

  it('shows what the service answered beside the look-up note, and still after the change is parked 5 min on', async () => {
    const p = timed.page;
    const campaigns = `/core/api/1.0/${account.account_id}/campaigns`;
    await openAccount(p, account.account_id);
    await fault({ method: 'POST', path_prefix: campaigns, mode: 'status_500', count: 1 });
    const name = `Kept words ${Date.now()}`;
    await queueCampaignDraft(p, name, { ready: /^Ready to queue/ });
    await p.getByTestId('tab-outbox').click();
    const row = p.getByTestId('outbox-item').filter({ hasText: name });
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('uncertain');
    const said = row.getByTestId('outbox-said');
    await expect.poll(() => said.textContent()).toBe('The service answered: 500: Internal server error');

    // The grace period passes: the look-up finds nothing yet and says it looks once more. That
    // note is the app's; the service's words stay on their own line.
    await advanceApp(timed, 31_000);
    await expect
      .poll(() => row.getByTestId('outbox-detail').textContent(), { timeout: 30_000 })
      .toMatch(/^Not found on the service yet; looking once more/);
    expect(await said.textContent()).toBe('The service answered: 500: Internal server error');

    // The look-ups fail from now on: 5 minutes after the send the change is parked for the person.
    await fault({ method: 'GET', path_prefix: campaigns, mode: 'status_500', count: 1000 });
    for (let i = 0; i < 40 && (await row.getByTestId('outbox-state').textContent()) !== 'Needs your answer'; i++)
      await advanceApp(timed, 10_000);
    await expect.poll(() => row.getByTestId('outbox-state').textContent()).toBe('Needs your answer');
    expect(await said.textContent()).toBe('The service answered: 500: Internal server error');
    const detail = (await row.getByTestId('outbox-detail').textContent()) ?? '';
    expect(detail).toMatch(
      /^The service answered with an error \(500: Internal server error\), and after 5 min the service has not shown whether it arrived/,
    );
    expect(detail).not.toMatch(/answer was lost/i);
    await shootElement(row, 'error-words-parked.png');
    expect(timed.pageErrors).toEqual([]);
  });
});
