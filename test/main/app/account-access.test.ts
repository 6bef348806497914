// An account's own state against the real sandbox: when the service withdraws the client's access
// to it (the fixtures file edited, the sandbox reset), the next read marks it "No access" with the
// service's words and the date; that survives a restart; the next successful call clears it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createDeskCore, DATABASE_FILE, type DeskCore } from '../../../src/main/app/create-core';
import type { Account } from '../../../src/shared/ipc/contract';
import { startSandbox, type Fixtures, type RunningSandbox } from '../../../src/sandbox/index';
import { control, testFixtures } from '../../helpers/sandbox';
import { testVariants } from '../../helpers/variants';
import { FAST, memorySecrets, P } from '../../helpers/world';
import { until } from '../../helpers/wait';

const ACCOUNT = 'oldtimerltd';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The fixtures with the demo client's access to ACCOUNT granted or withdrawn. */
function world(granted: boolean): Fixtures {
  const f = testFixtures();
  for (const c of f.clients) if (c.client_id === 'demo-client') c.accounts = c.accounts.filter((a) => granted || a !== ACCOUNT);
  return f;
}

async function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'desk-access-'));
  const file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(world(true)));
  const sandbox: RunningSandbox = await startSandbox({ port: 0, fixturesPath: file, variants: testVariants() });
  const secrets = await memorySecrets();
  const dataDir = join(dir, 'data');
  const open = () => createDeskCore({ dataDir, transport: 'browser', version: 'test', secrets, tuning: FAST, demo: { url: sandbox.url } });
  let core: DeskCore = await open();
  cleanups.push(async () => {
    await core.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    sandbox,
    dataFile: join(dataDir, DATABASE_FILE),
    core: () => core,
    async restart() {
      await core.close();
      core = await open();
    },
    async grant(granted: boolean) {
      writeFileSync(file, JSON.stringify(world(granted)));
      await control(sandbox, 'POST', '/_sandbox/reset');
    },
  };
}

const account = async (core: DeskCore): Promise<Account | undefined> =>
  (await core.handlers['accounts.list']({ profileId: P })).find((a) => a.accountId === ACCOUNT);

describe('account access', () => {
  it('a 403 after access was withdrawn marks the account "No access" with the service\'s words, through a restart, until a call succeeds', async () => {
    const t = await setUp();
    const h = () => t.core().handlers;
    if (!(await account(t.core()))) await h()['accounts.add']({ profileId: P, accountId: ACCOUNT });
    expect((await account(t.core()))?.noAccess).toBeUndefined();

    await t.grant(false);
    const before = t.sandbox.now();
    await h()['sync.refresh']({ profileId: P, accountId: ACCOUNT });
    const refused = await until(async () => (await account(t.core()))?.noAccess, 'the account to be marked no access');
    expect(refused.words).toBe(`Not authorized for account ${ACCOUNT}`);
    expect(refused.at).toBeGreaterThanOrEqual(before);
    // Its connection is fine: only this account is refused.
    expect((await h()['profiles.list']({})).find((p) => p.id === P)?.connection).toBe('online');
    const activity = await h()['activity.list']({ profileId: P, limit: 50 });
    expect(activity.some((a) => a.level === 'warning' && a.message.includes(`Account ${ACCOUNT}: no access`))).toBe(true);

    await t.restart();
    expect((await account(t.core()))?.noAccess).toEqual(refused);

    await t.grant(true);
    await h()['sync.refresh']({ profileId: P, accountId: ACCOUNT });
    await until(async () => (await account(t.core()))?.noAccess === undefined, 'the next success to clear it');
  });

  it("keeps no mark of an account once it is removed, nor of a removed connection's accounts", async () => {
    const t = await setUp();
    const h = () => t.core().handlers;
    if (!(await account(t.core()))) await h()['accounts.add']({ profileId: P, accountId: ACCOUNT });
    await t.grant(false);
    await h()['sync.refresh']({ profileId: P, accountId: ACCOUNT });
    await until(async () => (await account(t.core()))?.noAccess, 'the account to be marked no access');
    const stored = () => {
      const db = new Database(t.dataFile, { readonly: true });
      try {
        const row = db.prepare("SELECT value FROM settings WHERE key = 'accountAccess'").pluck().get() as string | undefined;
        return Object.keys(row ? (JSON.parse(row) as Record<string, unknown>) : {});
      } finally {
        db.close();
      }
    };
    expect(stored()).toEqual([`${P}/${ACCOUNT}`]);
    await h()['accounts.remove']({ profileId: P, accountId: ACCOUNT });
    expect(stored()).toEqual([]);

    // Added again while it may be read, refused again, then its whole connection removed.
    await t.grant(true);
    await h()['accounts.add']({ profileId: P, accountId: ACCOUNT });
    await t.grant(false);
    await h()['sync.refresh']({ profileId: P, accountId: ACCOUNT });
    await until(async () => (await account(t.core()))?.noAccess, 'the account to be marked no access again');
    expect(stored()).toEqual([`${P}/${ACCOUNT}`]);
    await h()['profiles.remove']({ profileId: P });
    expect(stored()).toEqual([]);
  });
});
