// Restart with a damaged data file, in the browser: the page says what happened and what to do,
// "Start fresh" moves the file aside (its bytes kept beside it) and opens the app on an empty one.
// Screenshot: docs/startup-damaged.png.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../src/main/app/create-core';
import { startBrowserModeOrExplain, type BrowserStart } from '../../src/main/browser-mode/start';
import { openStore } from '../../src/main/store';
import { ensureRendererBuilt, launchChromium, RENDERER_DIR, screenshotPath } from './support';
import { damageTablePage } from '../helpers/damage';

const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-damaged-'));
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

describe('restart with a damaged data file', () => {
  it('tells the person, and Start fresh keeps the file aside and opens the app', async () => {
    ensureRendererBuilt();
    const file = join(dataDir, DATABASE_FILE);
    await damageDataFile(file);
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');

    start = await startBrowserModeOrExplain({ dataDir, staticDir: RENDERER_DIR, version: 'e2e', log: () => undefined, openExternal: async () => undefined });
    expect(start.kind).toBe('data_problem');
    if (start.kind !== 'data_problem') return;
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    await page.goto(start.page.openUrl);
    const alert = page.getByRole('alert');
    expect(await alert.textContent()).toMatch(/^Campaign Desk's data file is damaged \(.+\): .*campaign-desk\.sqlite\. Choose "Start fresh" to move it aside/);
    await page.screenshot({ path: screenshotPath('startup-damaged.png') });
    // Nothing has been moved until the person chooses.
    expect(readdirSync(dataDir).filter((f) => f.includes('.damaged-'))).toEqual([]);

    await page.getByRole('button', { name: 'Start fresh' }).click();
    await page.getByTestId('connection-sandbox-demo').waitFor({ timeout: 30_000 });
    const kept = readdirSync(dataDir).filter((f) => /^campaign-desk\.sqlite\.damaged-\d{8}-\d{6}$/.test(f));
    expect(kept).toHaveLength(1);
    expect(createHash('sha256').update(readFileSync(join(dataDir, kept[0]))).digest('hex')).toBe(sha);
  });
});
