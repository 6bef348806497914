import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT, electronBinary } from './support';

const electron = electronBinary();

describe('Electron desktop app', () => {
  it.skipIf(!electron.path)(
    `launches, shows one locked-down window and the demo campaigns${electron.path ? '' : ` (skipped: ${electron.reason})`}`,
    async () => {
      const build = spawnSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build'], { cwd: ROOT, stdio: 'inherit' });
      expect(build.status).toBe(0);
      const userData = mkdtempSync(join(tmpdir(), 'desk-electron-'));
      const app = await _electron.launch({
        executablePath: electron.path!,
        args: [ROOT, `--user-data-dir=${userData}`],
        env: { ...process.env, XDG_CONFIG_HOME: userData },
      });
      try {
        const win = await app.firstWindow();
        expect(win.url()).toBe('app://desk/index.html');
        // The page sees the contract and nothing of Electron or Node.
        expect(await win.evaluate(() => typeof (window as unknown as { desk?: { invoke?: unknown } }).desk?.invoke)).toBe('function');
        expect(await win.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
        expect(await win.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
        await expect.poll(() => win.getByTestId('cell-name').count(), { timeout: 60_000 }).toBeGreaterThan(0);
      } finally {
        await app.close();
        rmSync(userData, { recursive: true, force: true });
      }
    },
  );
});
