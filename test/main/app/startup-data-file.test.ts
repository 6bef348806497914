// The core at start-up with a data file it cannot use: the error the shell and browser mode show
// says what happened and whether a fresh start can help; with the person's consent the file is
// kept aside and the core starts, and the activity log tells where the old file went.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, DATABASE_FILE, type DeskCore } from '../../../src/main/app/create-core';
import { MIGRATIONS } from '../../../src/main/store/migrations';
import { DeskError } from '../../../src/shared/errors';
import { memorySecrets } from '../../helpers/world';

let core: DeskCore | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await core?.close();
  core = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'desk-core-datafile-'));
  dirs.push(d);
  return d;
}
async function startError(dir: string): Promise<DeskError> {
  const e: unknown = await createDeskCore({ dataDir: dir, transport: 'browser', version: 'test', secrets: await memorySecrets() }).then(
    (c) => {
      core = c;
      return null;
    },
    (err: unknown) => err,
  );
  if (!(e instanceof DeskError)) throw new Error(`expected a DeskError, got ${String(e)}`);
  return e;
}

describe('core start-up with a data file it cannot use', () => {
  it('a foreign file: a database error that offers a fresh start; with it, the file is kept aside and the log says where', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, DATABASE_FILE), 'not a database at all, just some words written here by someone'.repeat(10));
    const e = await startError(dir);
    expect(e.code).toBe('database');
    expect(e.details).toMatchObject({ dataFile: 'foreign', canStartFresh: true });
    expect(e.message).toMatch(/is not a Campaign Desk data file/);

    core = await createDeskCore({ dataDir: dir, transport: 'browser', version: 'test', secrets: await memorySecrets(), startFresh: true });
    const kept = readdirSync(dir).filter((f) => f.startsWith(`${DATABASE_FILE}.foreign-`));
    expect(kept).toHaveLength(1);
    const log = await core.handlers['activity.list']({ limit: 50 });
    expect(log.map((a) => a.message)).toContain(
      `The data file was not a Campaign Desk data file; it was kept as ${kept[0]} in the same folder and Campaign Desk started with an empty one.`,
    );
  });

  it('a newer file: its version named, no fresh start offered, and none made when asked', async () => {
    const dir = dataDir();
    const db = new Database(join(dir, DATABASE_FILE));
    db.exec('CREATE TABLE profiles (id TEXT)');
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    const e = await startError(dir);
    expect(e.details).toMatchObject({ dataFile: 'too_new', canStartFresh: false, version: MIGRATIONS.length + 1 });
    await expect(
      createDeskCore({ dataDir: dir, transport: 'browser', version: 'test', secrets: await memorySecrets(), startFresh: true }),
    ).rejects.toThrow(/newer version of Campaign Desk/);
    expect(readdirSync(dir)).toEqual([DATABASE_FILE]);
  });
});
