// The data folder holds the cache, drafts and queued changes: only its owner may read it.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../../src/main/app/create-core';
import { memorySecrets } from '../../helpers/world';

let core: DeskCore | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await core?.close();
  core = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('data folder', () => {
  it('is created readable by its owner only', async () => {
    const base = mkdtempSync(join(tmpdir(), 'desk-folder-'));
    dirs.push(base);
    const dataDir = join(base, 'Campaign Desk');
    core = await createDeskCore({ dataDir, transport: 'browser', version: 'test', secrets: await memorySecrets() });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('is closed to other users when an earlier version left it open', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'desk-folder-'));
    dirs.push(dataDir);
    chmodSync(dataDir, 0o755);
    core = await createDeskCore({ dataDir, transport: 'browser', version: 'test', secrets: await memorySecrets() });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });
});
