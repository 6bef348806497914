// The app as a person opens it for a session of work: the setup every UI test file repeated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startBrowserMode, type BrowserMode } from '../../../src/main/browser-mode/start';
import { openAccount, openApp, type AppSession } from '../app-session';
import { ensureRendererBuilt, launchChromium, RENDERER_DIR } from '../support';

/**
 * For a test file: the app opened before its tests (on `account`'s tab in its page, when given)
 * and closed after them. The session is filled in by the beforeAll registered here, so it is read
 * in hooks registered after this call and in tests, not at the file's top level. A file's own
 * afterAll (putting the demo service back) runs before this one closes the app: Vitest runs
 * after-hooks in reverse order.
 */
export function withApp(opts: { account?: string; manualClock?: boolean } = {}): AppSession {
  const session = {} as AppSession;
  beforeAll(async () => {
    Object.assign(session, await openApp({ manualClock: opts.manualClock }));
    if (opts.account) await openAccount(session.page, opts.account);
  });
  afterAll(async () => session.close?.());
  return session;
}

export interface AppRun {
  mode: BrowserMode;
  /** The app's window in this run. */
  page: Page;
}

export interface DataFolder {
  /** Starts the app on the folder (the core and a browser of its own); `axe` lets the page inject axe's source (bypassCSP). */
  start(opts?: { width?: number; axe?: boolean }): Promise<AppRun>;
  /** Closes the browser and the app, as a person quits it; the folder stays for the next start. */
  stop(): Promise<void>;
}

/**
 * For a test file: a data folder of its own that the app is started on, stopped and started again
 * (the real restart a person makes: browser and core closed, the same data read again); the app
 * stopped and the folder removed after the tests.
 */
export function withDataFolder(prefix: string): DataFolder {
  let dataDir: string | undefined;
  let run: { mode: BrowserMode; browser: Browser } | null = null;
  const stop = async () => {
    const r = run;
    run = null;
    await r?.browser.close();
    await r?.mode.close();
  };
  afterAll(async () => {
    await stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    async start({ width = 1280, axe = false } = {}) {
      ensureRendererBuilt();
      dataDir ??= mkdtempSync(join(tmpdir(), prefix));
      const mode = await startBrowserMode({
        dataDir,
        staticDir: RENDERER_DIR,
        version: 'e2e',
        log: () => undefined,
        openExternal: async () => undefined,
      });
      const browser = await launchChromium();
      run = { mode, browser };
      // axe is injected as a script: the app's CSP would refuse it.
      const page = await (await browser.newContext({ viewport: { width, height: 800 }, ...(axe ? { bypassCSP: true } : {}) })).newPage();
      await page.goto(mode.server.openUrl);
      return { mode, page };
    },
    stop,
  };
}
