// Issue 27 item 10, small trust breakers: "Delete 3" asks first, naming how many, as the single
// delete does; the drafts' undo history survives a reload of the window; an offline connection
// says so in a banner over the account, with what still works and "Retry now"; and the built-in
// demo service keeps what was posted across a restart of the app, its ids going on from the last.
// Screenshots: .tmp/screenshots/bulk-delete-confirm.png, offline-banner.png.
import { describe, expect, it } from 'vitest';
import type { BrowserMode } from '../../src/main/browser-mode/start';
import { CONTROL_SECRET_HEADER } from '../../src/sandbox/index';
import { closeLeftoverDialogs, openAccount, sandboxJson, unlimitedAdvertiser } from './app-session';
import { withApp, withDataFolder, type AppRun } from './flows/app';
import { importCampaignDrafts, queueCampaignDraft } from './flows/drafts';
import { screenshotPath } from './support';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

describe('bulk delete and the undo history', () => {
  it('asks before deleting three ticked drafts, and Undo brings them back after a reload', async () => {
    const { page } = app;
    const names = ['Kept boots', 'Kept bikes', 'Kept boats'];
    await importCampaignDrafts(page, names);
    await expect.poll(() => page.getByTestId('bulk-delete').textContent()).toBe('Delete 3');

    // "Keep it" keeps them.
    await page.getByTestId('bulk-delete').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await confirm.locator('p').textContent()).toBe(
      'Delete the 3 drafts you ticked? They were never posted, so they will be gone. Undo brings them back.',
    );
    await page.screenshot({ path: screenshotPath('bulk-delete-confirm.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await page.getByTestId('draft-item').count()).toBe(3);

    // The history is kept by the core: the reload waits for the write that holds the delete.
    const kept = page.waitForResponse(
      (r) => r.url().includes('drafts.saveHistory') && (r.request().postData() ?? '').includes('delete 3 drafts'),
    );
    await page.getByTestId('bulk-delete').click();
    await expect.poll(() => confirm.getByTestId('confirm-yes').textContent()).toBe('Delete 3 drafts');
    await confirm.getByTestId('confirm-yes').click();
    await expect.poll(() => page.getByTestId('draft-item').count()).toBe(0);
    expect((await kept).ok()).toBe(true);

    await page.reload();
    await page.getByTestId(`account-${account.account_id}`).waitFor({ timeout: 30_000 });
    await page.getByTestId('tab-drafts').click();
    const undo = page.getByTestId('drafts-undo');
    await expect.poll(() => undo.isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await undo.getAttribute('title')).toMatch(/^Undo delete 3 drafts/);
    await undo.click();
    await expect
      .poll(async () =>
        (await page.getByTestId('draft-item').locator('.pick-title').allTextContents()).map((t) => t.replace(/^\+\s*/, '')).sort(),
      )
      .toEqual([...names].sort());
    expect(app.pageErrors).toEqual([]);
  });
});

describe('offline banner', () => {
  it('says what still works while offline or working offline, and Retry now asks the service again', async () => {
    const { page } = app;
    await closeLeftoverDialogs(page);
    await page.getByTestId('tab-campaigns').click();
    const banner = page.getByTestId('offline-banner');
    expect(await banner.count()).toBe(0);

    await page.getByTestId('work-offline-sandbox-demo').check();
    await expect.poll(() => banner.getAttribute('data-state')).toBe('working_offline');
    expect(await banner.getAttribute('role')).toBe('status');
    expect(await banner.textContent()).toContain(
      'You can still write and edit drafts and queue changes: they are kept on this computer and sent when you go online.',
    );
    await page.getByTestId('work-offline-sandbox-demo').uncheck();
    await expect.poll(() => banner.count()).toBe(0);

    // The service stops answering: the next read finds it out.
    await sandboxJson(app.sandboxUrl, '/_sandbox/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'close_before', count: 1000 }),
    });
    try {
      await page.getByTestId('refresh-button').click();
      await expect.poll(() => banner.getAttribute('data-state'), { timeout: 30_000 }).toBe('offline');
      expect(await banner.textContent()).toMatch(
        /^Offline: Sandbox demo cannot be reached\. You can still write and edit drafts and queue changes: they are kept on this computer and sent when the service answers again\./,
      );
      await page.screenshot({ path: screenshotPath('offline-banner.png') });
      // Asked while it still does not answer: the banner says the question was put.
      await page.getByTestId('offline-retry').click();
      await expect
        .poll(() => page.getByTestId('offline-outcome').textContent(), { timeout: 30_000 })
        .toMatch(/^ Still no answer at .+; it is asked again on its own\.$/);
    } finally {
      await sandboxJson(app.sandboxUrl, '/_sandbox/faults', { method: 'DELETE' });
    }
    await page.getByTestId('offline-retry').click();
    await expect.poll(() => banner.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('connection-state').textContent()).toContain('Online');
  });
});

describe('the demo service across restarts', () => {
  const folder = withDataFolder('desk-e2e-restart-');

  /** The app on this data folder, as a person would start it again, on the account. */
  async function start(): Promise<AppRun> {
    const run = await folder.start();
    await openAccount(run.page, account.account_id);
    return run;
  }

  const serviceCampaigns = async (mode: BrowserMode) => {
    const res = await fetch(`${mode.demoUrl}/_sandbox/state/campaigns?account=${account.account_id}`, {
      headers: { [CONTROL_SECRET_HEADER]: mode.demoControlSecret! },
    });
    const body = (await res.json()) as { campaigns: { id: number; name: string }[] };
    return body.campaigns;
  };

  async function post(run: AppRun, name: string): Promise<number> {
    const { page } = run;
    await queueCampaignDraft(page, name);
    await expect.poll(async () => (await serviceCampaigns(run.mode)).find((c) => c.name === name)?.id, { timeout: 30_000 }).toBeDefined();
    return (await serviceCampaigns(run.mode)).find((c) => c.name === name)!.id;
  }

  it('still lists a campaign posted before the restart, and the next one gets a higher id', async () => {
    const first = await start();
    let firstId: number;
    try {
      firstId = await post(first, 'Posted before restart');
    } finally {
      await folder.stop();
    }
    const second = await start();
    try {
      const after = await serviceCampaigns(second.mode);
      expect(after.find((c) => c.name === 'Posted before restart')?.id).toBe(firstId);
      const nextId = await post(second, 'Posted after restart');
      expect(nextId).toBeGreaterThan(firstId);
      // The window shows both once it has read the service again.
      await second.page.getByTestId('tab-campaigns').click();
      await second.page.getByTestId('refresh-button').click();
      const names = second.page.getByTestId('campaign-grid').getByTestId('cell-name');
      await expect
        .poll(async () => (await names.allTextContents()).filter((n) => n.startsWith('Posted ')).sort(), { timeout: 30_000 })
        .toEqual(['Posted after restart', 'Posted before restart']);
    } finally {
      await folder.stop();
    }
  });
});
