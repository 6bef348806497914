// Issue 27 item 4, in part: after "Start fresh" on a damaged data file, the Activity tab says where
// the old file was kept (the entry is the app's own, of no connection, and was filtered out).
// Screenshot: .tmp/screenshots/activity-moved-aside.png.
import { describe, expect, it } from 'vitest';
import { chooseStartFresh, withDamagedData } from './flows/startup';
import { screenshotPath } from './support';

const damaged = withDamagedData('desk-e2e-fresh-note-');

describe('after Start fresh', () => {
  it('tells the person in Activity where the old data file was kept', async () => {
    const page = await damaged.open({ width: 1280, height: 800 });
    const kept = await chooseStartFresh(page, damaged.dataDir);

    await page.locator('[data-tree-item]').first().click();
    await page.getByTestId('tab-activity').click();
    const entry = page.getByTestId('activity-list').locator('li').filter({ hasText: kept });
    await expect.poll(() => entry.count(), { timeout: 15_000 }).toBe(1);
    expect(await entry.locator('.activity-account').textContent()).toBe('App');
    await page.screenshot({ path: screenshotPath('activity-moved-aside.png') });
  });
});
