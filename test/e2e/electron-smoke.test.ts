// The real Electron, driven by Playwright's `_electron`: the window opens, the preload gives the page
// the contract and nothing else, the demo's campaigns show, a draft typed before a restart is still
// there after it. Run against:
// - the packaged app in dist/ (`npm run package`; the release workflow runs this on Ubuntu, macOS and
//   Windows with DESK_REQUIRE_PACKAGED_APP=1, so a missing package fails instead of skipping);
// - the development build, wherever Electron's binary is installed.
// Neither can run on a machine that could not download Electron: both then skip and say why.
//
// Playwright drives Electron's main process through the Node inspector (`--inspect`), which the
// shipped app's fuses switch off. So the packaged app is checked twice: its own binary's fuses are
// read as shipped, and the app is launched from a copy that differs only in that one fuse.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openAccount, unlimitedAdvertiser } from './app-session';
import { ROOT, electronBinary } from './support';

const electron = electronBinary();
const packaged = packagedApp();
const requirePackaged = process.env.DESK_REQUIRE_PACKAGED_APP === '1';
const ENABLE = 49; // '1' in the fuse wire
const DISABLE = 48; // '0'

/**
 * Where electron-builder leaves the unpacked app for this OS and architecture (its default layout),
 * or DESK_PACKAGED_APP: the .app bundle on macOS, the executable elsewhere.
 */
function packagedApp(): { path: string | null; reason: string } {
  const given = process.env.DESK_PACKAGED_APP;
  const arm = process.arch === 'arm64';
  const candidate =
    given ??
    (process.platform === 'darwin'
      ? join(ROOT, 'dist', arm ? 'mac-arm64' : 'mac', 'Campaign Desk.app')
      : process.platform === 'win32'
        ? join(ROOT, 'dist', 'win-unpacked', 'Campaign Desk.exe')
        : join(ROOT, 'dist', arm ? 'linux-arm64-unpacked' : 'linux-unpacked', 'campaign-desk'));
  if (existsSync(candidate)) return { path: candidate, reason: '' };
  return {
    path: null,
    reason: `no packaged app at ${relative(ROOT, candidate)} (npm run package makes one, on a machine that can download Electron)`,
  };
}

/** The file Electron's executable is, inside a .app bundle or not. */
function executableOf(app: string): string {
  return app.endsWith('.app') ? join(app, 'Contents', 'MacOS', basename(app, '.app')) : app;
}

/**
 * A copy of the packaged app whose only difference is the inspector fuse, on, so that Playwright
 * can attach. Everything else (asar, integrity, the natives rebuilt for Electron, the other fuses)
 * is the shipped app's.
 */
async function inspectableCopy(app: string): Promise<{ executable: string; dispose(): void }> {
  const work = mkdtempSync(join(tmpdir(), 'desk-packaged-'));
  const isBundle = app.endsWith('.app');
  const source = isBundle ? app : dirname(app);
  const target = join(work, basename(source));
  cpSync(source, target, { recursive: true, verbatimSymlinks: true });
  const copied = isBundle ? target : join(target, basename(app));
  await flipFuses(copied, {
    version: FuseVersion.V1,
    [FuseV1Options.EnableNodeCliInspectArguments]: true,
    // The copy's code signature no longer matches; an ad-hoc one lets macOS start it.
    resetAdHocDarwinSignature: process.platform === 'darwin',
  });
  return { executable: executableOf(copied), dispose: () => rmSync(work, { recursive: true, force: true }) };
}

type Launch = (userData: string) => Promise<ElectronApplication>;

/** The person's first minutes, with a restart in the middle. */
async function firstRunWithRestart(launch: Launch): Promise<void> {
  const account = unlimitedAdvertiser();
  const userData = mkdtempSync(join(tmpdir(), 'desk-electron-'));
  const draftName = `Typed before a restart ${Date.now()}`;
  try {
    let app = await launch(userData);
    try {
      const win = await app.firstWindow();
      expect(win.url()).toBe('app://desk/index.html');
      await expectOnlyTheContract(win);
      await openAccount(win, account.account_id);
      await expect.poll(() => win.getByTestId('cell-name').count(), { timeout: 60_000 }).toBeGreaterThan(0);

      await win.getByTestId('tab-drafts').click();
      await win.getByTestId('new-campaign-draft').click();
      await win.getByTestId('input-name').fill(draftName);
      // Saved as typed: the draft list shows it before the app is closed.
      await expect.poll(() => win.getByTestId('draft-item').filter({ hasText: draftName }).count(), { timeout: 15_000 }).toBe(1);
    } finally {
      await app.close();
    }

    app = await launch(userData);
    try {
      const win = await app.firstWindow();
      await openAccount(win, account.account_id);
      await win.getByTestId('tab-drafts').click();
      const item = win.getByTestId('draft-item').filter({ hasText: draftName });
      await expect.poll(() => item.count(), { timeout: 30_000 }).toBe(1);
      await item.click();
      expect(await win.getByTestId('input-name').inputValue()).toBe(draftName);
    } finally {
      await app.close();
    }
  } finally {
    rmSync(userData, { recursive: true, force: true });
  }
}

/** The page holds window.desk (invoke, on) and nothing of Electron or Node. */
async function expectOnlyTheContract(win: Page): Promise<void> {
  expect(await win.evaluate(() => Object.keys((window as unknown as { desk: object }).desk).sort())).toEqual(['invoke', 'on']);
  const leaked = await win.evaluate(() =>
    ['require', 'process', 'module', 'Buffer', 'global', 'ipcRenderer', 'electron', '__dirname'].filter((name) => name in globalThis),
  );
  expect(leaked).toEqual([]);
  // A channel outside the contract reaches nothing in main.
  const answer = await win.evaluate(() =>
    (window as unknown as { desk: { invoke(c: string, i: unknown): Promise<unknown> } }).desk.invoke('shell.openPath', { path: '/' }),
  );
  expect(answer).toMatchObject({ ok: false });
}

describe('Electron desktop app: the packaged app (dist/)', () => {
  it.skipIf(!packaged.path && !requirePackaged)(
    `ships with its fuses set; opens, shows the demo's campaigns, exposes only the contract, and keeps a draft across a restart${packaged.path || requirePackaged ? '' : ` (skipped: ${packaged.reason})`}`,
    { timeout: 300_000 },
    async () => {
      if (!packaged.path) throw new Error(`DESK_REQUIRE_PACKAGED_APP is set, but there is ${packaged.reason}`);
      const wire = await getCurrentFuseWire(packaged.path);
      expect(wire[FuseV1Options.RunAsNode]).toBe(DISABLE);
      expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(ENABLE);
      expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(DISABLE);
      expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(DISABLE);
      expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ENABLE);
      expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ENABLE);

      const copy = await inspectableCopy(packaged.path);
      try {
        await firstRunWithRestart((userData) =>
          _electron.launch({
            executablePath: copy.executable,
            args: [`--user-data-dir=${userData}`],
            env: { ...process.env, XDG_CONFIG_HOME: userData },
          }),
        );
      } finally {
        copy.dispose();
      }
    },
  );
});

describe('Electron desktop app: the development build', () => {
  it.skipIf(!electron.path)(
    `opens, shows the demo's campaigns, exposes only the contract, and keeps a draft across a restart${electron.path ? '' : ` (skipped: ${electron.reason})`}`,
    { timeout: 300_000 },
    async () => {
      const build = spawnSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build'], {
        cwd: ROOT,
        stdio: 'inherit',
        shell: process.platform === 'win32',
      });
      expect(build.status).toBe(0);
      await firstRunWithRestart((userData) =>
        _electron.launch({
          executablePath: electron.path!,
          args: [ROOT, `--user-data-dir=${userData}`],
          env: { ...process.env, XDG_CONFIG_HOME: userData },
        }),
      );
    },
  );
});
