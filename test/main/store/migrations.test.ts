import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFileProblem, openStore } from '../../../src/main/store';
import { NEW_FILE_PAGE_SIZE } from '../../../src/main/store/connection';
import { migrate, type Migration } from '../../../src/main/store/migrate';
import { MIGRATIONS } from '../../../src/main/store/migrations';
import { CAMPAIGN_INDEX_TEMPLATES_V3, CAMPAIGN_TABLE_TEMPLATE_V3 } from '../../../src/main/store/migrations/003-campaigns-per-account';
import { perAccountTables } from '../../../src/main/store/migrations/011-campaign-cache-file';
import { prepareCacheFile } from '../../../src/main/store/cache-file';
import { CAMPAIGN_INDEX_TEMPLATES_V8 } from '../../../src/main/store/migrations/008-campaign-indexes-the-window-uses';
import { CAMPAIGN_INDEXES, cacheFileOf } from '../../../src/main/store/cache-file';
import { createWork, ManualClock, tempDir } from './helpers';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function newFile(): string {
  const d = tempDir('desk-migrate-');
  dirs.push(d);
  return join(d, 'desk.db');
}

/**
 * Data written with the schema of each earlier version, using that version's SQL (not today's
 * repositories). Adding migration N+1 without a seeder for version N fails the coverage test below.
 */
/** Campaign 42 of account 1, as the values of (id_num, id, name, status, spent, present, extra, search). */
const CAMPAIGN_42 = `42, '42', 'Spring', 'PAUSED', 12.5, ${1 | (1 << 3) | (1 << 18) | (1 << 19)},
  '{"targeting":{"countries":["DE"]}}', '42' || char(1) || 'spring' || char(1)`;

const SQL_V2_ADDED = `
  INSERT INTO accounts (account_key, profile_id, account_id, name, type, added_at) VALUES (2, 'p1', 'emptyads', 'Empty', 'ADVERTISER', 1);
  INSERT INTO drafts (id, profile_id, account_id, kind, payload, created_at, updated_at)
    VALUES ('d1', 'p1', 'acmeads', 'campaign', '{"name":"Draft"}', 1, 1);
`;

const SQL_V1 = `
      INSERT INTO profiles (id, name, base_url, auth_url, push_url, client_id, flow, redirect_uri, created_at, updated_at)
        VALUES ('p1', 'Agency', 'https://api.example.test', 'https://auth.example.test', 'https://push.example.test',
                'client-1', 'authorization_code', 'http://127.0.0.1:8765/cb', 1, 1);
      INSERT INTO accounts (account_key, profile_id, account_id, name, type, added_at, last_synced_at)
        VALUES (1, 'p1', 'acmeads', 'Acme', 'ADVERTISER', 1, 5);
      INSERT INTO campaigns (account_key, id_num, id, name, status, spent, present, extra, search)
        VALUES (1, ${CAMPAIGN_42});
      INSERT INTO apps (profile_id, app_id, publisher, sw_path, refreshed_at) VALUES ('p1', '1001', 'News', '/sw.js', 1);
      INSERT INTO tasks (profile_id, app_id, task_id, task_type, task_status, raw, refreshed_at)
        VALUES ('p1', '1001', '77', 'scheduled', 'pending',
                '{"taskId":77,"tagId":1001,"taskType":"scheduled","taskStatus":"pending","title":"Hi"}', 1);
      INSERT INTO activity (at, profile_id, account_id, kind, message) VALUES (3, 'p1', 'acmeads', 'sync', 'refreshed');
    `;

/** A create's outbox payload as the app writes it (clientRef `ref-<name>`). */
const createPayload = (name: string) => JSON.stringify(createWork(name).payload);

/** An item whose outcome is unknown, with its send note (tables since version 4). */
const SQL_V4_SENT = `
  INSERT INTO outbox (seq, profile_id, account_id, kind, payload, state, next_attempt_at, created_at, updated_at)
    VALUES (7, 'p1', 'acmeads', 'create_campaign', '${createPayload('Seven')}', 'uncertain', 0, 1, 1);
  INSERT INTO send_notes (seq, client_ref, first_sent_at, last_sent_at, baseline) VALUES (7, 'ref-Seven', 10, 11, '["40"]');
`;

const SEEDERS: Record<number, (db: Database.Database) => void> = {
  0: () => {},
  1: (db) => db.exec(SQL_V1),
  // Version 2 kept version 1's tables as they were and added drafts and the outbox.
  2: (db) => {
    SEEDERS[1](db);
    db.exec(SQL_V2_ADDED);
  },
  // Version 3 moved campaigns into one table per account, made from its frozen template.
  3: (db) => {
    db.exec(SQL_V1.replace(/INSERT INTO campaigns [^;]*;/, ''));
    db.exec(SQL_V2_ADDED);
    for (const key of [1, 2]) {
      const t = `campaigns_${key}`;
      db.exec(CAMPAIGN_TABLE_TEMPLATE_V3.replaceAll('{t}', t));
      for (const [suffix, cols] of CAMPAIGN_INDEX_TEMPLATES_V3) db.exec(`CREATE INDEX ${t}_by_${suffix} ON ${t}(${cols})`);
    }
    db.exec(`INSERT INTO campaigns_1 (id_num, id, name, status, spent, present, extra, search) VALUES (${CAMPAIGN_42})`);
  },
  // Version 4 added the send notes; the work-offline choice was still kept on every account.
  4: (db) => {
    SEEDERS[3](db);
    db.exec(`UPDATE accounts SET work_offline = 1 WHERE profile_id = 'p1'; ${SQL_V4_SENT}`);
  },
  // Version 5 moved the work-offline choice onto the profile.
  5: (db) => {
    SEEDERS[3](db);
    db.exec(`UPDATE profiles SET work_offline = 1 WHERE id = 'p1'; ${SQL_V4_SENT}`);
  },
  // Version 6 added the settings; its send notes had no look-up columns (version 7).
  6: (db) => {
    SEEDERS[5](db);
    db.exec(`INSERT INTO settings (key, value) VALUES ('demo', '{"dismissed":false,"removedAccounts":["oldtimerltd"]}')`);
  },
  // Version 7 added the send notes' look-up columns. Account 2's table is as an unfinished first
  // load of the old bulk loader left it: without its secondary indexes.
  7: (db) => {
    SEEDERS[6](db);
    for (const [suffix] of CAMPAIGN_INDEX_TEMPLATES_V3) db.exec(`DROP INDEX campaigns_2_by_${suffix}`);
  },
  // Version 8: every account's table with version 8's indexes; no account capabilities yet (version 9).
  8: (db) => {
    SEEDERS[6](db);
    for (const t of ['campaigns_1', 'campaigns_2']) {
      for (const [suffix] of CAMPAIGN_INDEX_TEMPLATES_V3) db.exec(`DROP INDEX ${t}_by_${suffix}`);
      for (const [suffix, cols] of CAMPAIGN_INDEX_TEMPLATES_V8) db.exec(`CREATE INDEX ${t}_by_${suffix} ON ${t}(${cols})`);
    }
  },
  // Version 9 added account capabilities; its outbox had no order of its own (version 10): a lane
  // went in seq order. Two queued creates wait behind the uncertain one.
  9: (db) => {
    SEEDERS[8](db);
    db.exec(`
      INSERT INTO outbox (seq, profile_id, account_id, kind, payload, state, next_attempt_at, created_at, updated_at) VALUES
        (8, 'p1', 'acmeads', 'create_campaign', '${createPayload('Eight')}', 'queued', 0, 2, 2),
        (9, 'p1', 'acmeads', 'create_campaign', '${createPayload('Nine')}', 'queued', 0, 3, 3);
    `);
  },
  // Version 10 gave the outbox its own order (lane_order = seq until the person moves one); the
  // campaigns still lived in one table per account (version 11 makes them one table). A table
  // whose account is gone (a removal a crash interrupted) is left over.
  10: (db) => {
    SEEDERS[9](db);
    db.exec('UPDATE outbox SET lane_order = seq');
    db.exec(CAMPAIGN_TABLE_TEMPLATE_V3.replaceAll('{t}', 'campaigns_5'));
    db.exec(`INSERT INTO campaigns_5 (id_num, id, name, status, spent, present, extra, search) VALUES (${CAMPAIGN_42})`);
  },
  // Version 11 kept the campaigns in the cache file; its send notes could not say a change was
  // applied without its record named (version 12).
  11: (db) => {
    SEEDERS[10](db);
    // As version 11's opening did: the live accounts' campaigns copied into the cache file, then every table dropped.
    const live = new Set(db.prepare('SELECT account_key FROM accounts').pluck().all() as number[]);
    prepareCacheFile(cacheFileOf(db.name), { dataFile: db.name, tables: perAccountTables(db).filter((t) => live.has(t.accountKey)) });
    for (const { table } of perAccountTables(db)) db.exec(`DROP TABLE ${table}`);
  },
};

function schemaOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
        type: string;
        name: string;
        sql: string | null;
      }[]
    ).map((r) => `${r.type} ${r.name}: ${(r.sql ?? '').replace(/\s+/g, ' ')}`);
  } finally {
    db.close();
  }
}

function sha(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

describe('migrations', () => {
  it('are numbered 1..N without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('have a data seeder for every earlier version, so each upgrade path is tested with data', () => {
    for (let v = 0; v < MIGRATIONS.length; v++) expect(SEEDERS[v], `seeder for version ${v}`).toBeTypeOf('function');
  });

  it('create the latest schema from an empty file, with every table STRICT and the file in WAL mode', async () => {
    const file = newFile();
    const store = openStore({ file });
    expect(store.migration).toEqual({ from: 0, to: MIGRATIONS.length });
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('page_size', { simple: true })).toBe(NEW_FILE_PAGE_SIZE);
    const tables = (db.pragma('table_list') as { schema: string; name: string; type: string; strict: number }[]).filter(
      (t) => t.schema === 'main' && t.type === 'table' && !t.name.startsWith('sqlite_'),
    );
    expect(tables.map((t) => t.name).sort()).toEqual(
      [
        'account_capabilities',
        'accounts',
        'activity',
        'apps',
        'drafts',
        'outbox',
        'profiles',
        'quarantine',
        'send_notes',
        'settings',
        'tasks',
      ].sort(),
    );
    for (const t of tables) expect(t.strict, `${t.name} is STRICT`).toBe(1);
    db.close();
  });

  for (let from = 0; from < MIGRATIONS.length; from++) {
    it(`upgrade version ${from} -> ${MIGRATIONS.length} keeps the data and ends with the same schema as a fresh file`, async () => {
      const file = newFile();
      const db = new Database(file);
      migrate(db, MIGRATIONS.slice(0, from), file);
      SEEDERS[from](db);
      db.close();

      const clock = new ManualClock();
      const store = openStore({ file, clock });
      expect(store.migration).toEqual({ from, to: MIGRATIONS.length });
      if (from >= 1) {
        expect(store.profiles.get('p1')).toMatchObject({ flow: 'authorization_code', redirectUri: 'http://127.0.0.1:8765/cb' });
        expect(store.accounts.get({ profileId: 'p1', accountId: 'acmeads' })).toMatchObject({ name: 'Acme', lastSyncedAt: 5 });
        expect(store.campaigns.get({ profileId: 'p1', accountId: 'acmeads' }, '42')).toEqual({
          id: '42',
          name: 'Spring',
          status: 'PAUSED',
          spent: 12.5,
          targeting: { countries: ['DE'] },
        });
        expect(store.apps.get('p1', '1001')).toMatchObject({ publisher: 'News', swPath: '/sw.js' });
        expect(store.tasks.get('p1', '77')).toMatchObject({ taskId: '77', tagId: '1001', title: 'Hi' });
        expect(store.activity.list({ profileId: 'p1' })).toHaveLength(1);
        expect(store.campaigns.count({ profileId: 'p1', accountId: 'acmeads' })).toBe(1);
      }
      if (from >= 1) expect(store.profiles.get('p1')?.workOffline).toBe(from >= 4);
      if (from >= 4) {
        // A note from before version 7 has no look-up progress, and its times are our clock's.
        expect(store.sendNotes.get(7, 'ref-Seven')).toEqual({
          seq: 7,
          clientRef: 'ref-Seven',
          firstSentAt: 10,
          lastSentAt: 11,
          baseline: ['40'],
        });
        store.sendNotes.put({
          seq: 7,
          clientRef: 'ref-Seven',
          firstSentAt: 10,
          lastSentAt: 11,
          baseline: ['40'],
          clockOffsetMs: -600_000,
          absentAt: 12,
          candidates: ['41', '42'],
        });
        expect(store.sendNotes.get(7, 'ref-Seven')).toMatchObject({ clockOffsetMs: -600_000, absentAt: 12, candidates: ['41', '42'] });
      }
      if (from >= 6) expect(store.settings.get('demo').removedAccounts).toEqual(['oldtimerltd']);
      if (from >= 1) {
        // Capabilities start unknown for every account an older file had, and can be learned at once.
        const acme = { profileId: 'p1', accountId: 'acmeads' };
        expect(store.capabilities.list(acme)).toEqual([]);
        store.capabilities.set(acme, { capability: 'display', state: 'refused', source: 'learned', message: 'Not enabled for display' });
        expect(store.capabilities.list(acme)).toEqual([
          { capability: 'display', state: 'refused', source: 'learned', message: 'Not enabled for display', at: clock.now() },
        ]);
      }
      if (from >= 4) {
        // The lane goes in the order it was queued, the uncertain item first, until the person moves one.
        const order = () => store.outbox.list({ profileId: 'p1', accountId: 'acmeads' }).map((i) => i.seq);
        const queued = from >= 9 ? [8, 9] : [];
        expect(order()).toEqual([7, ...queued]);
        const next = store.outbox.enqueue({ profileId: 'p1', accountId: 'acmeads', ...createWork('Ten') });
        store.outbox.move(next.seq, 'first');
        expect(order()).toEqual([7, next.seq, ...queued]);
        expect(store.outbox.head({ profileId: 'p1', accountId: 'acmeads' })?.seq).toBe(7);
      }
      if (from >= 2) {
        expect(store.drafts.get('d1')).toMatchObject({ payload: { name: 'Draft' } });
        expect(store.campaigns.count({ profileId: 'p1', accountId: 'emptyads' })).toBe(0);
      }
      expect(store.integrityCheck()).toEqual(['ok']);
      await store.close();
      // An existing file keeps the page size it was made with (a new file gets NEW_FILE_PAGE_SIZE).
      const reopened = new Database(file, { readonly: true });
      expect(reopened.pragma('page_size', { simple: true })).toBe(from === 0 ? NEW_FILE_PAGE_SIZE : 4096);
      reopened.close();

      // The same accounts added by today's app: the schema must match the upgraded one.
      const fresh = newFile();
      const freshStore = openStore({ file: fresh });
      if (from >= 1) {
        freshStore.profiles.create({
          id: 'p1',
          name: 'Agency',
          baseUrl: 'https://api.example.test',
          authUrl: 'https://auth.example.test',
          pushUrl: 'https://push.example.test',
          clientId: 'client-1',
          flow: 'client_credentials',
        });
        freshStore.accounts.add({ profileId: 'p1', accountId: 'acmeads', type: 'ADVERTISER' });
        if (from >= 2) freshStore.accounts.add({ profileId: 'p1', accountId: 'emptyads', type: 'ADVERTISER' });
      }
      await freshStore.close();
      expect(schemaOf(file)).toEqual(schemaOf(fresh));
      expect(schemaOf(cacheFileOf(file))).toEqual(schemaOf(cacheFileOf(fresh)));
      // The campaigns are in the cache file: no per-account table is left, not even one whose account was gone.
      expect(schemaOf(file).filter((line) => /^table campaigns_\d/.test(line))).toEqual([]);
    });
  }

  it("move every account's table into the cache file's one campaigns table with only the indexes the window sorts and filters by, also a table an unfinished first load left without indexes", async () => {
    const file = newFile();
    const db = new Database(file);
    migrate(db, MIGRATIONS.slice(0, 7), file);
    SEEDERS[7](db);
    // Account 2's table (no secondary indexes left: SEEDERS[7]) holds rows too.
    db.exec(`INSERT INTO campaigns_2 (id_num, id, name, status, spent, present, extra, search) VALUES (${CAMPAIGN_42})`);
    db.exec(
      `INSERT INTO campaigns_2 (id_num, id, name, status, spent, present, extra, search) VALUES (${CAMPAIGN_42.replace("42, '42', 'Spring'", "43, '43', 'Summer'")})`,
    );
    db.close();
    const store = openStore({ file });
    expect(
      store.campaigns.query({ profileId: 'p1', accountId: 'emptyads', sort: { field: 'name', direction: 'asc' } }).rows.map((c) => c.name),
    ).toEqual(['Spring', 'Summer']);
    expect(store.campaigns.count({ profileId: 'p1', accountId: 'acmeads' })).toBe(1);
    await store.close();
    const after = new Database(cacheFileOf(file), { readonly: true });
    const indexes = after
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'campaigns' AND sql IS NOT NULL ORDER BY name")
      .pluck()
      .all() as string[];
    expect(indexes).toEqual(CAMPAIGN_INDEXES.map(([suffix]) => `campaigns_by_${suffix}`).sort());
    // Every sort the grid offers still walks an index (id is the primary key).
    expect(CAMPAIGN_INDEXES.map(([suffix]) => suffix)).toEqual(
      expect.arrayContaining([
        'name',
        'advertiser_name',
        'status',
        'spent',
        'cpc',
        'daily_cap',
        'spending_limit',
        'bid_strategy',
        'start_date',
      ]),
    );
    expect(CAMPAIGN_INDEXES).toHaveLength(9);
    after.close();
  });

  it('refuse a file from a newer app with a message to update, and leave the file untouched', () => {
    const file = newFile();
    const db = new Database(file);
    db.exec('CREATE TABLE future_things (x INTEGER) STRICT');
    db.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    db.close();
    const before = sha(file);

    let error: unknown;
    try {
      openStore({ file });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataFileProblem);
    expect((error as DataFileProblem).kind).toBe('too_new');
    expect((error as DataFileProblem).version).toBe(MIGRATIONS.length + 5);
    expect((error as DataFileProblem).message).toMatch(/newer version of Campaign Desk/);
    expect((error as DataFileProblem).message).toMatch(/Update Campaign Desk/);
    expect(sha(file)).toBe(before);
    const after = new Database(file, { readonly: true });
    expect(after.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(after.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 5);
    after.close();
  });

  it('roll back every step of an upgrade that fails half way: the file stays at its old version', () => {
    const file = newFile();
    const db = new Database(file);
    const steps: Migration[] = [
      { version: 1, name: 'ok', up: 'CREATE TABLE a (x INTEGER) STRICT' },
      { version: 2, name: 'broken', up: 'CREATE TABLE b (x INTEGER) STRICT; INSERT INTO nowhere VALUES (1)' },
    ];
    expect(() => migrate(db, steps, file)).toThrow(/version 2 \(broken\)/);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('a', 'b')").get()).toEqual({ n: 0 });
    db.close();
  });

  it('enforce foreign keys and STRICT column types on the app connection', () => {
    const file = newFile();
    const store = openStore({ file });
    expect(() => store.accounts.add({ profileId: 'nobody', accountId: 'acmeads', type: 'ADVERTISER' })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
    store.close();
    const db = new Database(file);
    expect(() => db.prepare("INSERT INTO activity (at, kind, message) VALUES ('yesterday', 'x', 'y')").run()).toThrow(
      /cannot store TEXT value in INTEGER column/,
    );
    db.close();
  });
});
