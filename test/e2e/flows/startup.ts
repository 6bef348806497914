// Starting the app as a person does when something went wrong before: on a data file that is
// damaged. The page it opens on, in Chromium, for the UI tests that read it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, expect } from 'vitest';
import { DATABASE_FILE } from '../../../src/main/app/create-core';
import { startBrowserModeOrExplain, type BrowserStart } from '../../../src/main/browser-mode/start';
import { openStore } from '../../../src/main/store';
import { damageTablePage } from '../../helpers/damage';
import { ensureRendererBuilt, launchChromium, RENDERER_DIR } from '../support';

export interface DamagedStart {
  /** The data folder: the damaged file, and whatever the app moves aside. */
  dataDir: string;
  /** Opens the app on it at `viewport`: the page that says the data is damaged (the start-up must say so). */
  open(viewport: { width: number; height: number }): Promise<Page>;
  /** The damaged file's bytes as they were when the app was started on it. */
  damagedBytes(): Buffer;
}

/** A data file of ours whose table of connections has one page overwritten. */
async function damageDataFile(file: string): Promise<void> {
  const store = openStore({ file });
  store.profiles.create({
    name: 'Agency',
    baseUrl: 'https://api.example.test',
    authUrl: 'https://auth.example.test',
    pushUrl: 'https://push.example.test',
    clientId: 'c1',
    flow: 'client_credentials',
  });
  await store.close();
  damageTablePage(file, 'profiles');
}

/** For a test file: a data folder of its own with a damaged data file, the app started on it by `open`; all closed and removed after the tests. */
export function withDamagedData(prefix: string): DamagedStart {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  let start: BrowserStart | undefined;
  let browser: Browser | undefined;
  let bytes: Buffer | undefined;
  afterAll(async () => {
    await browser?.close();
    if (start?.kind === 'data_problem') await start.close();
    else await start?.mode.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    async open(viewport) {
      ensureRendererBuilt();
      const file = join(dataDir, DATABASE_FILE);
      await damageDataFile(file);
      bytes = readFileSync(file);
      start = await startBrowserModeOrExplain({
        dataDir,
        staticDir: RENDERER_DIR,
        version: 'e2e',
        log: () => undefined,
        openExternal: async () => undefined,
      });
      expect(start.kind).toBe('data_problem');
      if (start.kind !== 'data_problem') throw new Error('the app started on a damaged data file');
      browser = await launchChromium();
      const page = await browser.newPage({ viewport });
      await page.goto(start.page.openUrl);
      return page;
    },
    damagedBytes() {
      if (!bytes) throw new Error('open() has not started the app yet');
      return bytes;
    },
  };
}

/** Chooses "Start fresh" on the damaged-data page and waits for the app; returns the one file the damaged data was kept in. */
export async function chooseStartFresh(page: Page, dataDir: string): Promise<string> {
  await page.getByRole('button', { name: 'Start fresh' }).click();
  await page.getByTestId('connection-sandbox-demo').waitFor({ timeout: 30_000 });
  const kept = readdirSync(dataDir).filter((f) => /^campaign-desk\.sqlite\.damaged-\d{8}-\d{6}$/.test(f));
  expect(kept).toHaveLength(1);
  return kept[0];
}
