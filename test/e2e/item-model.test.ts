// One change, one item, in the browser against the demo sandbox (issue 14, items 1 and 2): a draft
// the service refuses stays in Drafts with the service's words; Fix takes it back to draft (it
// leaves the Outbox), the person edits and queues it again, and exactly one item is posted, with
// the id the service gave it in the Outbox history (which opens the campaign) and in the Activity
// line. A queued draft stays visible in Drafts, read-only, and can be taken back.
// Screenshots: drafts-refused.png and outbox-posted-id.png (the README's, UPDATE_SCREENSHOT=1), and
// as artifacts drafts-fix.png, drafts-queued.png, outbox-fix.png, outbox-opened-campaign.png; axe
// clean in both themes on each state shown.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAxePage, sandboxJson, unlimitedAdvertiser } from './app-session';
import { expectAxeClean } from './axe';
import { withApp } from './flows/app';
import { queueCampaignDraft } from './flows/drafts';
import { ROOT, screenshotPath } from './support';

/** Pictures the README does not show: always the run's artifacts, never docs/. */
function artifactPath(file: string): string {
  mkdirSync(join(ROOT, '.tmp', 'screenshots'), { recursive: true });
  return join(ROOT, '.tmp', 'screenshots', file);
}

const account = unlimitedAdvertiser();
const app = withApp();
let page: Page;

beforeAll(async () => {
  page = await openAxePage(app, { account: account.account_id });
});

const onService = async (name: string) =>
  (
    await sandboxJson<{ campaigns: { id: number; name: string }[] }>(
      app.sandboxUrl,
      `/_sandbox/state/campaigns?account=${account.account_id}`,
    )
  ).campaigns.filter((c) => c.name === name);

describe('Drafts and Outbox: one change, one item', () => {
  it('a refused draft is fixed and queued again: one item, posted, with the service id shown and linked', async () => {
    const name = `E2E refused then fixed ${Date.now()}`;
    // Valid by the shared rules; this account is not enabled for display campaigns, so the service refuses it.
    await queueCampaignDraft(page, name, { kind: 'display-max-conversions' });

    // It stays in Drafts, refused, with the service's words, Fix and Retry.
    const entry = page.getByTestId('drafts-list').locator('li').filter({ hasText: name });
    await expect.poll(() => entry.getByTestId('draft-status').getAttribute('data-status'), { timeout: 30_000 }).toBe('failed');
    await entry.getByTestId('draft-item').click();
    const state = page.getByTestId('change-state');
    await expect
      .poll(() => state.getByTestId('service-words').textContent())
      .toContain('This account is not enabled for display campaigns');
    expect(await page.getByTestId('input-name').isDisabled()).toBe(true);
    expect(await state.getByTestId('draft-retry').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('drafts-refused.png') });
    await expectAxeClean(page);

    // Fix: back to draft, editable, out of the Outbox; the service's words stay while editing.
    await state.getByTestId('draft-fix').click();
    await expect.poll(() => page.getByTestId('input-name').isDisabled()).toBe(false);
    expect(await page.getByTestId('draft-retry').count()).toBe(0);
    expect(await page.getByTestId('service-words').textContent()).toContain('This account is not enabled for display campaigns');
    await page.getByTestId('input-campaign_item_type').selectOption('HAS_NO_ITEMS');
    await page.getByTestId('input-branding_text').fill('Acme');
    await page.getByTestId('input-bid_strategy').selectOption('FIXED');
    await page.getByTestId('input-cpc').fill('0.35');
    await expect.poll(() => page.getByTestId('problem-count').textContent()).toBe('Ready to queue');
    await page.screenshot({ path: artifactPath('drafts-fix.png') });
    await page.getByTestId('draft-queue').click();

    // Exactly one item for the change, posted, with the id the service gave it.
    await expect.poll(async () => (await onService(name)).length, { timeout: 30_000 }).toBe(1);
    const [created] = await onService(name);
    await expect.poll(() => entry.count(), { timeout: 30_000 }).toBe(0);
    await page.getByTestId('tab-outbox').click();
    expect(await page.getByTestId('outbox-item').filter({ hasText: name }).count()).toBe(0);
    const history = page.getByTestId('outbox-history');
    await history.locator('summary').click();
    const sent = page.getByTestId('outbox-sent-item').filter({ hasText: name });
    await expect.poll(() => sent.count()).toBe(1);
    expect(await sent.getByTestId('outbox-posted-id').textContent()).toBe(`campaign ${created.id}`);
    await page.screenshot({ path: screenshotPath('outbox-posted-id.png') });
    await expectAxeClean(page);

    await page.getByTestId('tab-activity').click();
    await expect
      .poll(() => page.getByTestId('activity-list').textContent())
      .toContain(`Create campaign "${name}" was sent: campaign ${created.id}.`);
    expect(await page.getByTestId('activity-list').textContent()).toContain(`Create campaign "${name}" taken back to draft.`);
    await page.screenshot({ path: screenshotPath('activity.png') });

    // The id opens the campaign in the Campaigns tab.
    await page.getByTestId('tab-outbox').click();
    await page.getByTestId('outbox-history').locator('summary').click();
    await page.getByTestId('outbox-sent-item').filter({ hasText: name }).getByTestId('outbox-open-campaign').click();
    await expect.poll(() => page.getByTestId('campaign-search').inputValue()).toBe(String(created.id));
    await expect
      .poll(() => page.getByTestId('campaign-grid').getByTestId('cell-name').allTextContents(), { timeout: 30_000 })
      .toEqual([name]);
    // Selected, its details open beside the grid.
    await expect.poll(() => page.getByTestId('details-name').textContent()).toBe(name);
    await page.screenshot({ path: artifactPath('outbox-opened-campaign.png') });
    await page.getByTestId('campaign-search').fill('');
    expect(app.pageErrors).toEqual([]);
  });

  it('Fix in the Outbox takes a refused change back to its draft and opens it in Drafts; Retry is gone with it', async () => {
    const name = `E2E outbox fix ${Date.now()}`;
    // The account refused display once already (the first test): warned, still offered.
    await queueCampaignDraft(page, name, { kind: 'display-max-conversions', ready: /^Ready to queue/ });
    await page.getByTestId('tab-outbox').click();
    const row = page.getByTestId('outbox-item').filter({ hasText: name });
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    expect(await row.getByTestId('outbox-retry').count()).toBe(1);
    await page.screenshot({ path: artifactPath('outbox-fix.png') });
    await row.getByTestId('outbox-fix').click();
    await expect.poll(() => page.getByTestId('tab-drafts').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('input-name').inputValue()).toBe(name);
    expect(await page.getByTestId('input-name').isDisabled()).toBe(false);
    expect(await page.getByTestId('service-words').textContent()).toContain('This account is not enabled for display campaigns');
    await page.getByTestId('tab-outbox').click();
    await expect.poll(() => page.getByTestId('outbox-item').filter({ hasText: name }).count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });

  it('a queued draft stays in Drafts, read-only with its state, and can be taken back to draft', async () => {
    const name = `E2E queued ${Date.now()}`;
    await page.getByTestId('work-offline-sandbox-demo').check();
    await queueCampaignDraft(page, name);

    const entry = page.getByTestId('drafts-list').locator('li').filter({ hasText: name });
    await expect.poll(() => entry.getByTestId('draft-status').getAttribute('data-status')).toBe('queued');
    await entry.getByTestId('draft-item').click();
    expect(await page.getByTestId('input-name').isDisabled()).toBe(true);
    expect(await page.getByTestId('change-state').textContent()).toContain('Waiting in the Outbox to be posted');
    await page.screenshot({ path: artifactPath('drafts-queued.png') });
    await expectAxeClean(page);

    await page.getByTestId('draft-take-back').click();
    await expect.poll(() => page.getByTestId('input-name').isDisabled()).toBe(false);
    expect(await entry.getByTestId('draft-status').count()).toBe(0);
    await page.getByTestId('tab-outbox').click();
    await expect.poll(() => page.getByTestId('outbox-item').filter({ hasText: name }).count()).toBe(0);
    // Online again: nothing of it is posted, it is a draft.
    await page.getByTestId('work-offline-sandbox-demo').uncheck();
    await page.getByTestId('tab-drafts').click();
    expect(await page.getByTestId('drafts-list').locator('li').filter({ hasText: name }).count()).toBe(1);
    expect(await onService(name)).toEqual([]);
    expect(app.pageErrors).toEqual([]);
  });
});
