// The Limits tab in the browser, against a service with a small write limit (2 creates per 6 s
// window, 1 per second): a queue of five changes drains while the view shows the window filling,
// marks it as the one holding work back, and its estimate of when the queue is drained moves to
// nothing queued. Also: a connection is "Not checked yet" until its service answers, then online,
// and a service that limits push shows the connection's push budget in a card of its own.
// Screenshot: ratelimit-view.png (docs/ with UPDATE_SCREENSHOT=1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index';
import { demoClient, fixtures, openApp, openAxePage, type AppSession } from './app-session';
import { axeViolations } from './axe';
import { addAccount, addConnection } from './flows/connections';
import { sandboxCampaignNames, screenshotPath } from './support';

/** An advertiser of the demo client created after rate limits began (spec 8.1): it is limited. */
const LIMITED = 'acmeshoes';
let app: AppSession;
let page: Page;
let service: RunningSandbox;

beforeAll(async () => {
  service = await startSandbox({
    port: 0,
    fixtures: {
      ...fixtures,
      rate_limits: {
        windows: { second: 1, minute: 6, hour: 3600 },
        tiers: { 9: { read: [20, 120, 1500], write: [1, 2, 100] } },
        endpoint_tiers: { campaigns: 9 },
      },
    },
    // A service that limits push too (the interface leaves it open): Tier 4, per client.
    variants: { push_tier: 4 },
  });
  app = await openApp();
  page = await openAxePage(app);
});
afterAll(async () => {
  await app?.close();
  await service?.close();
});

describe('Limits: the rate-limit view while a queue drains', () => {
  it('a new connection is "Not checked yet" or online, never offline, and online once its service has answered', async () => {
    const group = await addConnection(page, 'Small limits', service.url);
    const dot = group.locator('.tree-profile [role="img"]');
    await expect.poll(() => dot.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Online');
    await (await addAccount(page, group, LIMITED)).click();
    expect(await page.getByTestId('connection-state').textContent()).toContain('Online');
  });

  it('shows each window used of quota, marks the one holding work back, and the drain estimate moves to nothing while five changes go out', async () => {
    await page.getByTestId('tab-drafts').click();
    await page.getByTestId('drafts-import').click();
    const names = [1, 2, 3, 4, 5].map((i) => `Limits drain ${i} ${Date.now()}`);
    const sheet = [
      ['Name', 'Branding text', 'Bidding', 'cpc', 'Limit model', 'Spending limit'],
      ...names.map((n) => [n, 'Acme', 'Fixed CPC', '0.30', 'MONTHLY', '900']),
    ]
      .map((r) => r.join('\t'))
      .join('\n');
    await page.getByTestId('import-text').fill(sheet);
    await expect.poll(() => page.getByTestId('import-summary').textContent()).toContain('5 rows: 5 ready');
    await page.getByTestId('import-all').click();
    await expect.poll(() => page.getByTestId('draft-item').count(), { timeout: 15_000 }).toBe(5);

    // Alt+7 opens the Limits tab from anywhere outside a dialog.
    await page.locator('body').press('Alt+7');
    await expect.poll(() => page.getByTestId('tab-limits').getAttribute('aria-selected')).toBe('true');
    const card = page.getByTestId(`limits-account-${LIMITED}`);
    await card.waitFor();

    await page.getByTestId('tab-drafts').click();
    await page.getByTestId('drafts-check-all').check();
    await page.getByTestId('bulk-queue').click();
    await expect.poll(() => page.getByTestId('draft-notice').textContent()).toContain('5 drafts queued');
    await page.getByTestId('tab-limits').click();

    // The 6 s window of creates fills (2 of 2) and holds the rest back; the estimate is a time.
    const createWindow = card.locator('[data-testid="limits-window"][data-group="campaigns"][data-budget="write"][data-window="minute"]');
    await expect.poll(() => createWindow.getByTestId('limits-used').textContent(), { timeout: 20_000 }).toBe('2 of 2 used');
    await expect.poll(() => createWindow.getAttribute('data-holding'), { timeout: 10_000 }).toBe('true');
    const queued = await card.getByTestId('limits-queued').textContent();
    expect(queued).toMatch(/^[1-4] queued$/);
    // The first waiting change's wait, in the same words and from the same source as the status bar.
    const drain = (await card.getByTestId('limits-drain').textContent()) ?? '';
    expect(drain).toMatch(/^(waiting for the minute limit, sends in \d+ s|sending now|sending next)$/);
    expect(await createWindow.getByTestId('limits-refill').textContent()).toMatch(/^Refills in \d+ s$/);
    // The status bar says it too, next to the count.
    expect(await page.getByTestId('drain-estimate').textContent()).toMatch(
      /^\((waiting for the minute limit, sends in \d+ s|sending now|sending next)\)$/,
    );
    await page.screenshot({ path: screenshotPath('ratelimit-view.png') });
    expect(await axeViolations(page)).toEqual([]);

    // It keeps moving: fewer queued, until the queue is drained.
    const first = Number(/^(\d+)/.exec(queued ?? '')?.[1]);
    await expect
      .poll(async () => Number(/^(\d+)/.exec((await card.getByTestId('limits-queued').textContent()) ?? '')?.[1] ?? 0), { timeout: 30_000 })
      .toBeLessThan(first);
    await expect.poll(() => card.getByTestId('limits-queued').textContent(), { timeout: 40_000 }).toBe('Nothing queued');
    expect(await card.getByTestId('limits-drain').count()).toBe(0);
    const onService = await sandboxCampaignNames(service.url, demoClient.client_id, demoClient.client_secret, LIMITED);
    for (const n of names) expect(onService.filter((c) => c === n)).toHaveLength(1);
    expect(app.pageErrors).toEqual([]);
  });

  it("shows the connection's push budget apart from its accounts, learned from the push answers of the apps and tasks it fetched", async () => {
    const push = page.getByTestId('limits-push');
    await push.waitFor();
    expect(await push.getByRole('heading').textContent()).toBe('Push notifications');
    const minute = push.locator('[data-testid="limits-window"][data-group="push"][data-budget="read"][data-window="minute"]');
    // Tier 4 reads (2 a second, 15 a "minute", here 6 s long, 150 an hour), as the answers to the
    // connection's reads of its apps and their tasks said; the hour still counts those reads.
    await expect.poll(() => minute.getByTestId('limits-used').textContent()).toMatch(/^\d+ of 15 used$/);
    const hour = push.locator('[data-testid="limits-window"][data-group="push"][data-budget="read"][data-window="hour"]');
    expect(await hour.getByTestId('limits-used').textContent()).toMatch(/^([1-9]\d*) of 150 used$/);
    expect(await push.getByText('Push (reads)').count()).toBe(1);
    expect(await push.getByText('Not learned yet', { exact: false }).count()).toBe(0);
    expect(await page.getByTestId(`limits-account-${LIMITED}`).locator('[data-group="push"]').count()).toBe(0);
  });

  it('keeps every figure in its own column at 1024 px: "used of quota" never runs into "Refills"', async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const rows = page.locator('[data-testid="limits-window"][data-window]');
    await expect.poll(() => rows.count()).toBeGreaterThan(3);
    for (let i = 0; i < (await rows.count()); i++) {
      const used = await rows.nth(i).getByTestId('limits-used').boundingBox();
      const refill = await rows.nth(i).getByTestId('limits-refill').boundingBox();
      expect(used && refill && used.x + used.width <= refill.x).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('is axe clean in the dark theme too, and reachable from the keyboard through the tabs', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('tab-activity').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tab-limits');
    await page.getByTestId('limits-view').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
