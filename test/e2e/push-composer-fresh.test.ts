// Issue 27 item 5: a new push opens quiet. No problem is shown until a field is touched (left after
// editing) or Check is asked for, and then each is said in the window's words, never as the rules'
// field path (target.include.apps). Check, Save and Queue stay on screen at 1400x900 however long
// the target builder is. The composer is axe clean in both themes with every problem shown.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openAxePage, unlimitedAdvertiser } from './app-session';
import { withApp } from './flows/app';
import { expectAxeClean } from './axe';

const account = unlimitedAdvertiser();
const app = withApp();
let page: Page;

/** A field name or path of the rules shown as it is: "target.include.apps", "thumbnailUrl", "executionTime". */
const RAW_WORDS = /\b[a-z]+(?:\.[a-z_]+)+\b|\b[a-z]+[A-Z][A-Za-z]*\b|\b[a-z]+_[a-z_]+\b/;

/**
 * Whether a person sees the control without scrolling: inside the window, and the element the
 * browser finds at its centre is the control itself (not a part of the page scrolled over it).
 */
async function seenWithoutScrolling(control: Locator): Promise<boolean> {
  return control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.bottom > window.innerHeight || r.top < 0 || r.right > window.innerWidth) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

const shownProblems = async () =>
  (await page.getByTestId('push-composer').locator('.form-problem').allTextContents()).map((t) => t.trim()).filter(Boolean);

beforeAll(async () => {
  page = await openAxePage(app, { viewport: { width: 1400, height: 900 }, account: account.account_id });
});

describe('A new push in the composer', () => {
  it('opens with no problem shown, and Check, Save and Queue on screen at 1400x900', async () => {
    await page.getByTestId('tab-push').click();
    // The connection's applications are in the builder: the page is as long as it gets.
    await page.getByTestId('app-1001').waitFor();
    expect(await shownProblems()).toEqual([]);
    // Said quietly, not as errors: how many, and where to see them.
    expect(await page.getByTestId('push-problem-count').textContent()).toMatch(/^\d+ problems \(Check shows them\)$/);
    for (const id of ['push-check', 'push-save', 'push-queue']) expect(await seenWithoutScrolling(page.getByTestId(id)), id).toBe(true);
    await page.screenshot({ path: '/tmp/push-composer-fresh.png' });
  });

  it('shows a field’s problem in words once the field is left after editing', async () => {
    const title = page.getByTestId('push-title');
    await title.fill('Draft');
    await title.fill('');
    await title.blur();
    await expect.poll(() => page.getByTestId('problem-title').textContent()).toBe('Title is needed: the line the subscribers see first.');
    // Only the field that was touched: the others are still quiet.
    expect(await shownProblems()).toEqual(['Title is needed: the line the subscribers see first.']);
  });

  it('shows every problem on Check, each in the window’s words, with the actions still on screen', async () => {
    await page.getByTestId('push-check').click();
    await expect.poll(async () => (await shownProblems()).length).toBeGreaterThanOrEqual(4);
    const problems = await shownProblems();
    for (const p of problems) expect(p, 'a problem said with a field path or name of the rules').not.toMatch(RAW_WORDS);
    expect(problems).toContain('Apps: pick at least one app to send to.');
    expect(problems).toContain('URL is needed: where a click on the push leads.');
    expect(problems).toContain('Performer is needed: who sends the push (recorded by the service).');
    for (const id of ['push-check', 'push-save', 'push-queue']) expect(await seenWithoutScrolling(page.getByTestId(id)), id).toBe(true);
    await page.screenshot({ path: '/tmp/push-composer-checked.png' });
    await expectAxeClean(page);
  });

  it('says a push that targets a value both ways in words, on the attribute’s row', async () => {
    const chips = (side: string) => page.getByTestId(`chips-${side}-countries`).locator('input');
    await chips('include').fill('DE');
    await chips('include').press('Enter');
    await chips('exclude').fill('FR');
    await chips('exclude').press('Enter');
    await expect
      .poll(() => page.getByTestId('problem-target-countries').textContent())
      .toBe('Countries: either include or exclude, not both.');
    expect(app.pageErrors).toEqual([]);
  });
});
