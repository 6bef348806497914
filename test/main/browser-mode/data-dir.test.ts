// Browser mode's data folder holds the cache, drafts and queued changes: it is created for its
// owner only (folder 0700, database 0600), and one an earlier version left open is closed.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../src/main/app/create-core';
import { defaultBrowserDataDir } from '../../../src/main/browser-mode/data-dir';
import { startBrowserMode, type BrowserMode } from '../../../src/main/browser-mode/start';

let mode: BrowserMode | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await mode?.close();
  mode = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
const start = (dataDir: string) => startBrowserMode({ dataDir, staticDir: join(dataDir, 'no-renderer-needed'), version: 'test', demo: false, log: () => undefined });

describe.skipIf(process.platform === 'win32')('the browser-mode data folder', () => {
  it('is created where browser mode keeps it by default, the folder 0700 and the database 0600', async () => {
    const config = mkdtempSync(join(tmpdir(), 'desk-config-'));
    dirs.push(config);
    const folder = defaultBrowserDataDir({ XDG_CONFIG_HOME: config }, 'linux');
    mode = await start(folder);
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(join(folder, DATABASE_FILE))).toBe(0o600);
  });

  it('is closed to other users at the next start when an earlier version left it open', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'desk-open-'));
    dirs.push(folder);
    mode = await start(folder);
    await mode.close();
    chmodSync(folder, 0o755);
    chmodSync(join(folder, DATABASE_FILE), 0o644);
    mode = await start(folder);
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(join(folder, DATABASE_FILE))).toBe(0o600);
  });
});
