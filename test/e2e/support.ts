// Shared by the UI tests: where things are, the built renderer, the Chromium launch settings of
// FEASIBILITY.md, and a small client of the sandbox used to learn what the demo account holds.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Locator } from 'playwright-core';

export const ROOT = resolve(__dirname, '../..');
export const RENDERER_DIR = join(ROOT, 'out', 'renderer');
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Where a UI test saves a picture: docs/ (the README's) only when UPDATE_SCREENSHOT is set, so a test
 * run leaves the tree clean; otherwise .tmp/screenshots/, kept as the run's artifacts.
 */
export function screenshotPath(file: string): string {
  if (process.env.UPDATE_SCREENSHOT) return join(ROOT, 'docs', file);
  mkdirSync(join(ROOT, '.tmp', 'screenshots'), { recursive: true });
  return join(ROOT, '.tmp', 'screenshots', file);
}

/** scripts/test.sh builds the renderer first; a direct run of this suite builds it if missing. */
/**
 * A picture of one element, taken again if the element was re-rendered under the camera (a list
 * that re-reads its rows replaces the nodes a locator found a moment before).
 */
export async function shootElement(target: Locator, file: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await target.screenshot({ path: screenshotPath(file) });
      return;
    } catch (e) {
      if (attempt >= 5 || !/not attached|detached/i.test(String(e))) throw e;
    }
  }
}

export function ensureRendererBuilt(): void {
  if (existsSync(join(RENDERER_DIR, 'index.html'))) return;
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.renderer.config.mts', '--logLevel', 'error'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
  if (r.status !== 0) throw new Error('renderer build failed');
}

/** `scrollbars`: draw scrollbars as a desktop does (Playwright hides them in headless mode), for a test that drags one. */
export async function launchChromium(opts: { scrollbars?: boolean } = {}): Promise<Browser> {
  // Chromium writes its profile under XDG_CONFIG_HOME: keep it out of the home directory.
  process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'desk-chromium-'));
  return chromium.launch({
    executablePath: CHROMIUM,
    ...(opts.scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The Electron binary's path, or why there is none (the package throws without its binary). */
export function electronBinary(): { path: string | null; reason: string } {
  try {
    const path = createRequire(join(ROOT, 'package.json'))('electron') as unknown;
    if (typeof path === 'string' && existsSync(path)) return { path, reason: '' };
    return { path: null, reason: 'the electron package points at a binary that does not exist' };
  } catch {
    return { path: null, reason: "Electron's binary is not installed on this machine" };
  }
}

/** The campaign names the sandbox itself lists for an account (all pages, RAP), as any client would. */
export async function sandboxCampaignNames(
  sandboxUrl: string,
  clientId: string,
  clientSecret: string,
  accountId: string,
): Promise<string[]> {
  const tokenRes = await fetch(`${sandboxUrl}/authentication/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' }),
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const names: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${sandboxUrl}/core/api/1.0/${accountId}/campaigns?fetch_level=RAP&page=${page}&page_size=1000`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    if (res.status !== 200) throw new Error(`sandbox list answered ${res.status}`);
    const body = (await res.json()) as { results: { name: string }[]; metadata: { total: number } };
    names.push(...body.results.map((c) => c.name));
    if (body.results.length === 0 || names.length >= body.metadata.total) return names;
  }
}
