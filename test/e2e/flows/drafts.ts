// Campaign drafts as a person writes them in the Drafts tab: one helper per flow the UI tests
// repeat, so that a change to the editor is made here once instead of in every test that queues.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The drafts the tests write, each valid by the shared rules:
 * - `standard`: branding, a monthly spending limit and a fixed CPC; every account's service takes it;
 * - `display`: the interface's display example (no branding, budget not sent);
 * - `display-max-conversions`: a display campaign bid for conversions, with a spending limit.
 * Both display ones are refused by an account not enabled for display campaigns.
 */
export type CampaignDraftKind = 'standard' | 'display' | 'display-max-conversions';

export interface CampaignDraftOptions {
  kind?: CampaignDraftKind;
  /**
   * What the problem count must say before the draft counts as filled in: exactly "Ready to queue"
   * unless a test expects a warning may be counted too (a RegExp such as /^Ready to queue/); null
   * where the test itself looks at what the editor says next.
   */
  ready?: string | RegExp | null;
}

/** Opens a new campaign draft of the open account in the Drafts tab (its editor, empty). */
export async function startCampaignDraft(page: Page): Promise<void> {
  await page.getByTestId('tab-drafts').click();
  await page.getByTestId('new-campaign-draft').click();
}

/** Writes a new campaign draft named `name` of the kind asked for, and waits until the editor offers to queue it. */
export async function fillCampaignDraft(
  page: Page,
  name: string,
  { kind = 'standard', ready = 'Ready to queue' }: CampaignDraftOptions = {},
): Promise<void> {
  await startCampaignDraft(page);
  await page.getByTestId('input-name').fill(name);
  if (kind === 'standard') {
    await page.getByTestId('input-branding_text').fill('Acme');
    await page.getByTestId('input-spending_limit').fill('500');
    await page.getByTestId('input-cpc').fill('0.35');
  } else if (kind === 'display') {
    await page.getByTestId('input-campaign_item_type').selectOption('HAS_NO_ITEMS_DISPLAY');
    await page.getByTestId('input-cpc').fill('0.4');
    await page.getByTestId('input-budget').selectOption({ label: 'Not sent (as in display campaigns)' });
  } else {
    await page.getByTestId('input-campaign_item_type').selectOption('HAS_NO_ITEMS_DISPLAY');
    await page.getByTestId('input-bid_strategy').selectOption('MAX_CONVERSIONS');
    await page.getByTestId('input-spending_limit').fill('100');
  }
  if (ready === null) return;
  const count = () => page.getByTestId('problem-count').textContent();
  if (typeof ready === 'string') await expect.poll(count).toBe(ready);
  else await expect.poll(count).toMatch(ready);
}

/** Writes a new campaign draft (as fillCampaignDraft) and presses Queue. */
export async function queueCampaignDraft(page: Page, name: string, options: CampaignDraftOptions = {}): Promise<void> {
  await fillCampaignDraft(page, name, options);
  await page.getByTestId('draft-queue').click();
}

/**
 * Imports ready campaign drafts by name through Drafts > Import (a pasted sheet, Import all) and
 * waits until the Drafts list holds that many drafts (the account is expected to have none before).
 */
export async function importCampaignDrafts(page: Page, names: string[]): Promise<void> {
  await page.getByTestId('tab-drafts').click();
  await page.getByTestId('drafts-import').click();
  const rows = names.map((n) => [n, 'Acme', 'FIXED', '0.30', 'MONTHLY', '900']);
  await page
    .getByTestId('import-text')
    .fill([['Name', 'Branding text', 'Bidding', 'cpc', 'Limit model', 'Spending limit'], ...rows].map((r) => r.join('\t')).join('\n'));
  await expect.poll(() => page.getByTestId('import-summary').textContent()).toContain(`${names.length} rows: ${names.length} ready`);
  await page.getByTestId('import-all').click();
  await expect.poll(() => page.getByTestId('draft-item').count()).toBe(names.length);
}
