// Start-up with a data file the app cannot use, on real files: each problem is named with what to
// do, a damaged or foreign file is moved aside (never deleted, its bytes intact) only when the
// person chose a fresh start, and a newer or read-only file is never touched.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFileProblem, explainOpenError, openStore, openStoreAtStart } from '../../../src/main/store';
import { MIGRATIONS } from '../../../src/main/store/migrations';
import { seed, tempDir } from './helpers';
import { damageTablePage } from '../../helpers/damage';

const dirs: string[] = [];
const immutable: string[] = [];
afterEach(() => {
  for (const f of immutable.splice(0)) spawnSync('chattr', ['-i', f]);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function newFile(): string {
  const d = tempDir('desk-datafile-');
  dirs.push(d);
  return join(d, 'campaign-desk.sqlite');
}
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const AT = new Date(2024, 10, 23, 9, 5, 7);

function problemOf(fn: () => unknown): DataFileProblem {
  try {
    fn();
  } catch (e) {
    if (e instanceof DataFileProblem) return e;
    throw e;
  }
  throw new Error('expected a DataFileProblem');
}

/** A real data file of ours with a connection, then one page of its connections table overwritten. */
async function damagedFile(): Promise<string> {
  const file = newFile();
  const store = openStore({ file });
  seed(store);
  await store.close();
  damageTablePage(file, 'profiles');
  return file;
}

/** Many connections, so the table spans pages; then its last page (a leaf, read by no start-up query) overwritten. */
async function deeplyDamagedFile(): Promise<string> {
  const file = newFile();
  const store = openStore({ file });
  seed(store);
  for (let i = 0; i < 300; i++) {
    // Long names and client ids (within the profile limits) so that the rows fill many pages.
    store.profiles.create({
      name: `Agency ${i} ${'x'.repeat(85)}`,
      baseUrl: 'https://api.example.test',
      authUrl: 'https://auth.example.test',
      pushUrl: 'https://push.example.test',
      clientId: `client-${i}-${'y'.repeat(70)}`,
      flow: 'client_credentials',
    });
  }
  await store.close();
  const bytes = readFileSync(file);
  const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
  bytes.fill(0xab, bytes.length - pageSize, bytes.length);
  writeFileSync(file, bytes);
  return file;
}

describe('start-up with a damaged data file', () => {
  it('finds damage deep in the table of connections, which opening alone does not read', async () => {
    const file = await deeplyDamagedFile();
    const before = sha(file);
    const p = problemOf(() => openStoreAtStart({ file, startFresh: false, at: () => AT }));
    expect(p.kind).toBe('damaged');
    expect(p.message).toMatch(/is damaged \((SQLite reports it malformed|the table of profiles failed SQLite's check)\)/);
    expect(sha(file)).toBe(before);
  });

  it('names the damage and what to do, and leaves the file as it was', async () => {
    const file = await damagedFile();
    const before = sha(file);
    const p = problemOf(() => openStoreAtStart({ file, startFresh: false, at: () => AT }));
    expect(p.kind).toBe('damaged');
    expect(p.canStartFresh).toBe(true);
    expect(p.message).toContain(file);
    expect(p.message).toMatch(/is damaged/);
    expect(p.message).toMatch(/Start fresh/);
    expect(p.message).toMatch(/never deleted/);
    expect(p.message).not.toMatch(/SQLITE_/);
    expect(sha(file)).toBe(before);
  });

  it('moves it aside with a timestamp, bytes intact, and opens an empty store when the person starts fresh', async () => {
    const file = await damagedFile();
    const before = sha(file);
    const opened = openStoreAtStart({ file, startFresh: true, at: () => AT });
    try {
      expect(opened.movedAside?.to).toBe(`${file}.damaged-20241123-090507`);
      expect(sha(opened.movedAside!.to)).toBe(before);
      expect(opened.movedAside?.note).toMatch(/kept as campaign-desk\.sqlite\.damaged-20241123-090507/);
      expect(opened.store.profiles.list()).toEqual([]);
      expect(opened.store.integrityCheck()).toEqual(['ok']);
    } finally {
      await opened.store.close();
    }
  });

  it('moves the -wal beside it too (never replayed into the new file), and never overwrites an earlier copy', async () => {
    const file = await damagedFile();
    writeFileSync(`${file}-wal`, 'left over log');
    writeFileSync(`${file}.damaged-20241123-090507`, 'an earlier copy');
    const opened = openStoreAtStart({ file, startFresh: true, at: () => AT });
    await opened.store.close();
    expect(opened.movedAside?.to).toBe(`${file}.damaged-20241123-090507-2`);
    expect(readFileSync(`${file}.damaged-20241123-090507`, 'utf8')).toBe('an earlier copy');
    expect(readFileSync(`${file}.damaged-20241123-090507-2-wal`, 'utf8')).toBe('left over log');
  });
});

describe('start-up with a foreign file', () => {
  it('a text file: not a Campaign Desk data file, moved aside only on a fresh start', async () => {
    const file = newFile();
    writeFileSync(file, 'name,budget\nSpring,100\n'.repeat(20));
    const before = sha(file);
    const p = problemOf(() => openStoreAtStart({ file, startFresh: false, at: () => AT }));
    expect(p.kind).toBe('foreign');
    expect(p.message).toMatch(/is not a Campaign Desk data file \(it is not a SQLite database/);
    expect(sha(file)).toBe(before);

    const opened = openStoreAtStart({ file, startFresh: true, at: () => AT });
    await opened.store.close();
    expect(opened.movedAside?.to).toBe(`${file}.foreign-20241123-090507`);
    expect(sha(opened.movedAside!.to)).toBe(before);
  });

  it.each([0, 3])("another program's SQLite database (its version %i) is refused by name, never migrated", (version) => {
    const file = newFile();
    const db = new Database(file);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5)');
    db.pragma(`user_version = ${version}`);
    db.close();
    const before = sha(file);
    const p = problemOf(() => openStore({ file }));
    expect(p.kind).toBe('foreign');
    expect(p.message).toMatch(/another program, with tables such as invoices/);
    expect(sha(file)).toBe(before);
  });
});

describe("start-up with another program's file that has a table named like ours", () => {
  it.each([0, 5])('a "profiles" table at version %i: refused as not ours, the file untouched (no upgrade, no pragma)', (version) => {
    const file = newFile();
    const db = new Database(file);
    db.exec("CREATE TABLE profiles (name TEXT, email TEXT); INSERT INTO profiles VALUES ('Ann', 'ann@example.com')");
    db.pragma(`user_version = ${version}`);
    db.close();
    const before = sha(file);
    const p = problemOf(() => openStoreAtStart({ file, startFresh: false, at: () => AT }));
    expect(p.kind).toBe('foreign');
    expect(p.canStartFresh).toBe(true);
    expect(p.message).toMatch(/is not a Campaign Desk data file \(/);
    expect(sha(file)).toBe(before);
    expect(readdirSync(join(file, '..'))).toEqual(['campaign-desk.sqlite']);
  });
});

describe('what the system refuses, said in words', () => {
  it.each([
    ['EIO', /the disk refused to read or write it/],
    ['ENOSPC', /the disk is full/],
    ['EROFS', /mounted read-only/],
    ['EPERM', /permission denied/],
    ['EEXIST', /a file is where its folder should be/],
    ['SQLITE_IOERR_READ', /the disk refused to read or write it/],
    ['EWHATEVER', /the system refused it \(EWHATEVER\)/],
  ])('%s', (code, words) => {
    const e = explainOpenError(Object.assign(new Error(`${code}: raw`), { code }), '/data/campaign-desk.sqlite');
    expect(e).toBeInstanceOf(DataFileProblem);
    expect((e as DataFileProblem).message).toMatch(words);
    expect((e as DataFileProblem).canStartFresh).toBe(false);
  });

  it("leaves an error that is not the system's alone (a bug is not a damaged file)", () => {
    const bug = new TypeError('x is not a function');
    expect(explainOpenError(bug, '/data/campaign-desk.sqlite')).toBe(bug);
  });
});

describe('start-up with a newer data file', () => {
  it('names its version, and stays untouched even when a fresh start is asked for', () => {
    const file = newFile();
    const db = new Database(file);
    db.exec('CREATE TABLE profiles (id TEXT PRIMARY KEY)');
    db.pragma(`user_version = ${MIGRATIONS.length + 3}`);
    db.close();
    const before = sha(file);
    const p = problemOf(() => openStoreAtStart({ file, startFresh: true, at: () => AT }));
    expect(p.kind).toBe('too_new');
    expect(p.canStartFresh).toBe(false);
    expect(p.message).toContain(`data version ${MIGRATIONS.length + 3}`);
    expect(p.message).toMatch(/Update Campaign Desk/);
    expect(sha(file)).toBe(before);
    expect(readdirSync(join(file, '..'))).toEqual(['campaign-desk.sqlite']);
  });
});

/** Root may write any file; an immutable one (chattr +i) refuses even root, as a read-only disk would. */
function makeReadOnly(file: string): boolean {
  const r = spawnSync('chattr', ['+i', file]);
  if (r.status !== 0) return false;
  immutable.push(file);
  return true;
}

describe('start-up with a read-only data file', () => {
  it('says it cannot write the file and what to fix, and leaves it in place', async (t) => {
    const file = newFile();
    const store = openStore({ file });
    seed(store);
    await store.close();
    const before = sha(file);
    if (process.getuid?.() !== 0) {
      const { chmodSync } = await import('node:fs');
      chmodSync(file, 0o444);
    } else if (!makeReadOnly(file)) {
      t.skip();
      return;
    }
    const p = problemOf(() => openStoreAtStart({ file, startFresh: true, at: () => AT }));
    expect(p.kind).toBe('read_only');
    expect(p.canStartFresh).toBe(false);
    expect(p.message).toMatch(/cannot write its data file/);
    expect(p.message).toMatch(/writable/);
    expect(sha(file)).toBe(before);
    expect(existsSync(file)).toBe(true);
  });
});
