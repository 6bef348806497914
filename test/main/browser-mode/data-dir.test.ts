// Browser mode's data folder holds the cache, drafts and queued changes: it is created for its
// owner only (folder 0700, database 0600), and one an earlier version left open is closed.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../src/main/app/create-core';
import { defaultBrowserDataDir } from '../../../src/main/browser-mode/data-dir';
import { startBrowserMode, startBrowserModeOrExplain, type BrowserMode } from '../../../src/main/browser-mode/start';

let mode: BrowserMode | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await mode?.close();
  mode = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
const start = (dataDir: string) =>
  startBrowserMode({ dataDir, staticDir: join(dataDir, 'no-renderer-needed'), version: 'test', demo: false, log: () => undefined });

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

  it('keeps a folder the person made read-only as it is: closed to others, never made writable', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'desk-ro-'));
    dirs.push(folder);
    mode = await start(folder);
    await mode.close();
    mode = undefined;
    chmodSync(folder, 0o555);
    try {
      // As root the start itself may succeed (root writes anywhere); either way the folder keeps its mode.
      const started = await startBrowserModeOrExplain({
        dataDir: folder,
        staticDir: join(folder, 'none'),
        version: 'test',
        demo: false,
        log: () => undefined,
      });
      if (started.kind === 'running') mode = started.mode;
      else {
        expect(started.message).toMatch(/cannot write its data file/);
        await started.close();
      }
      expect(modeOf(folder)).toBe(0o500);
    } finally {
      chmodSync(folder, 0o700);
    }
  });
});

describe('start-ups the data folder refuses, each said in words', () => {
  it('a file where the data folder should be', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'desk-eexist-'));
    dirs.push(parent);
    const folder = join(parent, 'data');
    writeFileSync(folder, 'not a folder');
    const started = await startBrowserModeOrExplain({
      dataDir: folder,
      staticDir: join(parent, 'none'),
      version: 'test',
      demo: false,
      log: () => undefined,
    });
    expect(started.kind).toBe('data_problem');
    if (started.kind !== 'data_problem') return;
    await started.close();
    expect(started.message).toMatch(
      /^Campaign Desk cannot open its data file \(a file is where (its folder|one of its folders) should be\): .*Fix that/,
    );
    expect(started.message).not.toMatch(/system error|EEXIST|ENOTDIR/);
  });

  it('a folder where the data file should be', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'desk-eisdir-'));
    dirs.push(folder);
    mkdirSync(join(folder, DATABASE_FILE));
    const started = await startBrowserModeOrExplain({
      dataDir: folder,
      staticDir: join(folder, 'none'),
      version: 'test',
      demo: false,
      log: () => undefined,
    });
    expect(started.kind).toBe('data_problem');
    if (started.kind !== 'data_problem') return;
    await started.close();
    expect(started.message).toMatch(/Campaign Desk (cannot open|cannot write) its data file \(/);
    expect(started.message).not.toMatch(/system error/);
  });
});
