// One browser-mode app (built-in sandbox, real core, Chromium) per UI test file, plus the small
// helpers the screen tests share: the demo client, an unlimited advertiser, the sandbox's state.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../src/main/browser-mode/start';
import { ManualClock } from '../../src/main/clock/clock';
import { CONTROL_SECRET_HEADER, demoFixtures } from '../../src/sandbox/index';
import { RENDERER_DIR, ensureRendererBuilt, launchChromium } from './support';

export const fixtures = demoFixtures(Date.now());
export const demoClient = fixtures.clients[0];

/** An advertiser of the demo client outside any network, created before rate limits began. */
export function unlimitedAdvertiser(skip: string[] = []) {
  const a = fixtures.accounts.find(
    (x) =>
      demoClient.accounts.includes(x.account_id) &&
      !skip.includes(x.account_id) &&
      x.type === 'ADVERTISER' &&
      !x.network_id &&
      Date.parse(x.created_at) <= Date.parse('2026-10-04T23:59:59Z'),
  );
  if (!a) throw new Error('the demo fixtures have no unlimited advertiser for the demo client');
  return a;
}

export interface AppSession {
  mode: BrowserMode;
  browser: Browser;
  page: Page;
  sandboxUrl: string;
  pageErrors: string[];
  /** Addresses the app asked the system browser to open (sign-in pages), in order. */
  opened: string[];
  close(): Promise<void>;
}

/**
 * Each session's demo sandbox secret, by its address: the control API answers only requests that
 * carry it (the app made it; browser mode hands it to the test, never to the window).
 */
const controlSecrets = new Map<string, string>();

/**
 * `manualClock`: the core and the demo service share one ManualClock that moves only when the test
 * says so (advanceApp), for what takes minutes of the app's time (grace periods, a lane's hold, a
 * token's life). The window keeps the computer's clock, as a person's screen would.
 */
export async function openApp(opts: { manualClock?: boolean } = {}): Promise<AppSession> {
  ensureRendererBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-'));
  const opened: string[] = [];
  // The "system browser" is the test itself: it opens each recorded address in a page of its own.
  const openExternal = async (url: string) => void opened.push(url);
  const clock = opts.manualClock ? new ManualClock(Date.now()) : undefined;
  const mode = await startBrowserMode({
    dataDir,
    staticDir: RENDERER_DIR,
    version: 'e2e',
    log: () => undefined,
    openExternal,
    ...(clock ? { clock } : {}),
  });
  if (mode.demoUrl && mode.demoControlSecret) controlSecrets.set(mode.demoUrl, mode.demoControlSecret);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(mode.server.openUrl);
  return {
    mode,
    browser,
    page,
    sandboxUrl: mode.demoUrl!,
    pageErrors,
    opened,
    close: async () => {
      await browser.close();
      await mode.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Moves the app's and the demo service's manual clock on (openApp({ manualClock: true })) through
 * the sandbox's control API, `stepMs` at a time with a moment between steps, as time would pass:
 * work each step starts (a look-up, its retries) runs before the next step, not all at one instant.
 */
export async function advanceApp(app: AppSession, ms: number, stepMs = 10_000): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    await sandboxJson(app.sandboxUrl, '/_sandbox/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: Math.min(stepMs, ms - done) }),
    });
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function openAccount(page: Page, accountId: string): Promise<void> {
  const item = page.getByTestId(`account-${accountId}`);
  await item.waitFor({ timeout: 30_000 });
  await item.click();
}

/**
 * Closes any dialog a failed test left open (Escape, as a person would), so that one failure in a
 * file that shares its app between tests stays one failure instead of blocking every later click.
 */
export async function closeLeftoverDialogs(page: Page): Promise<void> {
  for (let i = 0; i < 3 && (await page.locator('.overlay').count()) > 0; i++) await page.keyboard.press('Escape');
}

export async function sandboxJson<T>(sandboxUrl: string, path: string, init?: RequestInit): Promise<T> {
  const headers = new Headers(init?.headers);
  const secret = controlSecrets.get(sandboxUrl);
  if (secret !== undefined) headers.set(CONTROL_SECRET_HEADER, secret);
  const res = await fetch(`${sandboxUrl}${path}`, { ...init, headers });
  if (!res.ok) throw new Error(`sandbox ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

/**
 * A page of its own on the app, 1280x800 unless `viewport` says otherwise, with page errors
 * recorded in the session, and on `account`'s tab when given. bypassCSP only so that a test can
 * inject axe's source; the app's own scripts need no exception.
 */
export async function openAxePage(
  app: AppSession,
  opts: { viewport?: { width: number; height: number }; account?: string } = {},
): Promise<Page> {
  const ctx = await app.browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 }, bypassCSP: true });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => app.pageErrors.push(String(e)));
  await page.goto(app.mode.server.openUrl);
  if (opts.account) await openAccount(page, opts.account);
  return page;
}
