// Issue 27 item 4, in part: after "Start fresh" on a damaged data file, the Activity tab says where
// the old file was kept (the entry is the app's own, of no connection, and was filtered out).
// Screenshot: .tmp/screenshots/activity-moved-aside.png.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../src/main/app/create-core';
import { startBrowserModeOrExplain, type BrowserStart } from '../../src/main/browser-mode/start';
import { openStore } from '../../src/main/store';
import { ensureRendererBuilt, launchChromium, RENDERER_DIR, screenshotPath } from './support';
import { damageTablePage } from '../helpers/damage';

const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-fresh-note-'));
let start: BrowserStart | undefined;
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  if (start?.kind === 'data_problem') await start.close();
  else await start?.mode.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A data file of ours whose table of connections has one page overwritten. */
async function damageDataFile(file: string): Promise<void> {
  const store = openStore({ file });
  store.profiles.create({ name: 'Agency', baseUrl: 'https://api.example.test', authUrl: 'https://auth.example.test', pushUrl: 'https://push.example.test', clientId: 'c1', flow: 'client_credentials' });
  await store.close();
  damageTablePage(file, 'profiles');
}

describe('after Start fresh', () => {
  it('tells the person in Activity where the old data file was kept', async () => {
    ensureRendererBuilt();
    await damageDataFile(join(dataDir, DATABASE_FILE));
    start = await startBrowserModeOrExplain({ dataDir, staticDir: RENDERER_DIR, version: 'e2e', log: () => undefined, openExternal: async () => undefined });
    expect(start.kind).toBe('data_problem');
    if (start.kind !== 'data_problem') return;
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(start.page.openUrl);
    await page.getByRole('button', { name: 'Start fresh' }).click();
    await page.getByTestId('connection-sandbox-demo').waitFor({ timeout: 30_000 });
    const kept = readdirSync(dataDir).filter((f) => /^campaign-desk\.sqlite\.damaged-\d{8}-\d{6}$/.test(f));
    expect(kept).toHaveLength(1);

    await page.locator('[data-tree-item]').first().click();
    await page.getByTestId('tab-activity').click();
    const entry = page.getByTestId('activity-list').locator('li').filter({ hasText: kept[0] });
    await expect.poll(() => entry.count(), { timeout: 15_000 }).toBe(1);
    expect(await entry.locator('.activity-account').textContent()).toBe('App');
    await page.screenshot({ path: screenshotPath('activity-moved-aside.png') });
  });
});
