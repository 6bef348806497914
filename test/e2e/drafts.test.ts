import { describe, expect, it } from 'vitest';
import { openAccount, sandboxJson, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { queueCampaignDraft, startCampaignDraft } from './flows/drafts';

const account = unlimitedAdvertiser();
const app = withApp({ account: account.account_id });

describe('Drafts tab: campaign draft editor', () => {
  it('shows a rule problem next to its field while typing, and queues the fixed draft until it is live in the grid and on the service', async () => {
    const { page } = app;
    const name = `E2E boots ${Date.now()}`;
    await startCampaignDraft(page);
    await page.getByTestId('input-name').fill(name);
    await page.getByTestId('input-branding_text').fill('Acme');
    await page.getByTestId('input-spending_limit').fill('500');
    // FIXED bidding without a CPC: the shared rule's message appears beside the CPC field.
    const cpcProblem = page.locator('[data-field="cpc"] [data-testid="problem-cpc"]');
    await page.getByTestId('draft-check').click(); // problems of untouched fields show on Check
    await expect.poll(() => cpcProblem.textContent()).toBe('CPC is needed when Bidding is Fixed CPC.');
    expect(await page.getByTestId('draft-queue').isDisabled()).toBe(true);
    await page.getByTestId('input-cpc').fill('-1');
    await expect.poll(() => cpcProblem.textContent()).toBe('CPC must be greater than 0.');
    await page.getByTestId('input-cpc').fill('0.35');
    await expect.poll(() => cpcProblem.count()).toBe(0);
    await expect.poll(() => page.getByTestId('problem-count').textContent()).toBe('Ready to queue');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('draft-notice').textContent()).toContain('Queued to post');

    await page.getByTestId('tab-outbox').click();
    // Once sent, it leaves the waiting list for the account's folded history of sent changes.
    const sent = page.getByTestId('outbox-sent-item').filter({ hasText: name });
    await expect.poll(() => sent.count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('outbox-item').filter({ hasText: name }).count()).toBe(0);

    const onService = await sandboxJson<{ campaigns: { name: string; cpc: number; spending_limit: number }[] }>(
      app.sandboxUrl,
      `/_sandbox/state/campaigns?account=${account.account_id}`,
    );
    const created = onService.campaigns.find((c) => c.name === name);
    expect(created).toMatchObject({ cpc: 0.35, spending_limit: 500 });

    await page.getByTestId('tab-campaigns').click();
    await page.getByTestId('campaign-search').fill(name);
    await expect
      .poll(() => page.getByTestId('campaign-grid').getByTestId('cell-name').allTextContents(), { timeout: 30_000 })
      .toEqual([name]);
    await page.getByTestId('campaign-search').fill('');
  });

  it('keeps what was typed in a draft across a reload of the window (autosave)', async () => {
    const { page } = app;
    await startCampaignDraft(page);
    const name = `Typed then reloaded ${Date.now()}`;
    await page.getByTestId('input-name').fill(name);
    // No pause for the autosave: the reload comes right after the last keystroke.
    await page.reload();
    await openAccount(page, account.account_id);
    await page.getByTestId('tab-drafts').click();
    const item = page.getByTestId('draft-item').filter({ hasText: name });
    await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
    await item.click();
    expect(await page.getByTestId('input-name').inputValue()).toBe(name);
    expect(app.pageErrors).toEqual([]);
  });

  it('shows the server message on an outbox item the service refused, and discards it after confirmation', async () => {
    const { page } = app;
    // Valid offline (the desk does not know the account's features); the service refuses display campaigns here.
    const name = `E2E display ${Date.now()}`;
    await queueCampaignDraft(page, name, { kind: 'display-max-conversions' });
    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: name });
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    expect(await row.getByTestId('outbox-detail').textContent()).toContain('This account is not enabled for display campaigns');
    expect(await page.getByTestId('tab-outbox').textContent()).toMatch(/Outbox\d+/);
    expect(await row.getByTestId('outbox-retry').count()).toBe(1);
    await row.getByTestId('outbox-discard').click();
    await page.keyboard.press('Escape'); // Escape keeps it
    expect(await row.count()).toBe(1);
    await row.getByTestId('outbox-discard').click();
    await page.getByTestId('confirm-yes').click();
    await expect.poll(() => row.count()).toBe(0);
  });
});
