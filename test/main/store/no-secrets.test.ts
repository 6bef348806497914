import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import keytar from 'keytar';
import { createSecretStore } from '../../../src/main/secrets';
import { cacheFileOf } from '../../../src/main/store';
import { redactCredentialText } from '../../../src/main/store/activity-repo';
import { syntheticCampaigns } from '../../fixtures/campaigns';
import { secretSpellings } from '../service/secret-spellings';
import { openTestStore } from './helpers';

const CLIENT_SECRET = 'cs-Zq8xTopSecretValue-91';
const REFRESH_TOKEN = 'rt-RefreshTokenValue-77aa';
const ACCESS_TOKEN = 'at-AccessTokenValue-55bb';
const SECRETS = [CLIENT_SECRET, REFRESH_TOKEN, ACCESS_TOKEN];
/** A secret with spaces and every character a form body, a URL and JSON spell differently. */
const CANARY = `Store Canary!'()~*+%&="\\x 42`;
const SERVICE = `Campaign Desk no-secrets ${process.pid}-${Date.now()}`;

const t = openTestStore();
afterAll(async () => {
  await t.cleanup();
  await keytar.deletePassword(SERVICE, 'p1').catch(() => false);
});

function everyValue(file: string): { table: string; column: string; value: unknown }[] {
  const db = new Database(file, { readonly: true });
  try {
    const out: { table: string; column: string; value: unknown }[] = [];
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    for (const table of tables) {
      for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]) {
        for (const [column, value] of Object.entries(row)) out.push({ table, column, value });
      }
    }
    return out;
  } finally {
    db.close();
  }
}

describe('no secret reaches the database', () => {
  it('keeps ordinary words, and keeps a long message (cut after redaction) instead of dropping it', () => {
    const plain = 'Basic information: the error code was 400, see the password policy';
    expect(redactCredentialText(plain)).toBe(plain);
    const long = `${'y'.repeat(1995)} client_secret=${encodeURIComponent(CANARY)}&grant_type=client_credentials`;
    const entry = t.store.activity.log({ profileId: null, kind: 'auth', message: long });
    expect(entry.message.length).toBeLessThanOrEqual(2000);
    expect(entry.message).not.toContain(encodeURIComponent(CANARY).slice(0, 5));
  });

  it('after a full profile set-up, sync, drafts, outbox and logging, no column and no file byte holds a secret', async () => {
    const secrets = await createSecretStore({ service: SERVICE });
    const { store } = t;
    store.profiles.create({
      id: 'p1',
      name: 'Agency',
      baseUrl: 'https://api.example.test',
      authUrl: 'https://auth.example.test',
      pushUrl: 'https://push.example.test',
      clientId: 'client-123',
      flow: 'authorization_code',
      redirectUri: 'http://127.0.0.1:8765/callback',
    });
    await secrets.set('p1', 'client_secret', CLIENT_SECRET);
    await secrets.set('p1', 'refresh_token', REFRESH_TOKEN);
    store.accounts.add({ profileId: 'p1', accountId: 'acmeads', type: 'ADVERTISER', verifiedAt: 1 });
    store.accounts.add({ profileId: 'p1', accountId: 'netone', type: 'NETWORK' });
    const r = store.campaigns.beginRefresh({ profileId: 'p1', accountId: 'acmeads' });
    await r.applyPage(syntheticCampaigns(200));
    await r.finish();
    store.apps.replaceAll('p1', { '1001': 'News' });
    store.tasks.replaceForApp('p1', '1001', [{ taskId: 5, tagId: 1001, taskType: 'immediate', taskStatus: 'completed' }]);
    const d = store.drafts.save({ profileId: 'p1', accountId: 'acmeads', kind: 'campaign', payload: { name: 'Spring' } });
    const { item } = store.drafts.submit(d.id, {
      kind: 'create_campaign',
      payload: { clientRef: 'r1', body: { name: 'Spring', bid_strategy: 'FIXED', cpc: 1, marketing_objective: 'LEADS_GENERATION' } },
    });
    store.outbox.claimNext({ profileId: 'p1', accountId: 'acmeads' }, t.clock.now());
    store.outbox.markSent(item.seq, { id: '900' });
    store.activity.log({ profileId: 'p1', kind: 'auth', message: 'Signed in' });
    // A careless caller: credentials under credential-like keys and a bearer header in the text.
    store.activity.log({
      profileId: 'p1',
      kind: 'http',
      message: `401 for GET /campaigns with Authorization: Bearer ${ACCESS_TOKEN}`,
      details: { client_secret: CLIENT_SECRET, refreshToken: REFRESH_TOKEN, headers: { Authorization: `Bearer ${ACCESS_TOKEN}` } },
    });
    // A server that echoed our token request, logged by a caller that did not redact it: the log
    // still removes the credentials the text visibly carries.
    const form = new URLSearchParams({ client_id: 'client-123', client_secret: CANARY, grant_type: 'client_credentials' }).toString();
    store.activity.log({ profileId: 'p1', kind: 'auth', message: `invalid_client: wrong secret (request: ${form})` });
    store.activity.log({
      profileId: 'p1',
      kind: 'auth',
      message: `invalid_client (request: ${form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())})`,
    });
    store.activity.log({
      profileId: 'p1',
      kind: 'auth',
      message: `bad request ${JSON.stringify({ client_id: 'client-123', client_secret: CANARY })}`,
    });
    store.activity.log({
      profileId: 'p1',
      kind: 'auth',
      message: `refused Authorization: Basic ${Buffer.from(`client-123:${CANARY}`).toString('base64')}`,
    });
    store.activity.log({ profileId: 'p1', kind: 'auth', message: `${'x'.repeat(1990)} client_secret=${encodeURIComponent(CANARY)}` });
    expect(
      store.activity
        .list({ profileId: 'p1' })
        .map((e) => e.message)
        .join('\n'),
    ).toContain('client_secret=[redacted]');
    expect(await secrets.get('p1', 'client_secret')).toBe(CLIENT_SECRET);

    // The data file and the campaign cache file beside it.
    const values = [...everyValue(t.file), ...everyValue(cacheFileOf(t.file))];
    expect(values.length).toBeGreaterThan(1000);
    for (const { table, column, value } of values) {
      expect(column, `${table}.${column}`).not.toMatch(/secret|token|password|credential/i);
      if (typeof value === 'string') for (const s of SECRETS) expect(value, `${table}.${column}`).not.toContain(s);
    }
    const needles = [...SECRETS.map((s): [string, string] => ['raw', s]), ...secretSpellings(CANARY, 'client-123')];
    for (const { table, column, value } of values) {
      if (typeof value === 'string')
        for (const [how, n] of needles) expect(value.includes(n), `${how} in ${table}.${column}: ${value}`).toBe(false);
    }
    // Byte by byte (UTF-8 as SQLite stores text), including the write-ahead log and its index.
    const files = [t.file, cacheFileOf(t.file)].flatMap((f) => [f, `${f}-wal`, `${f}-shm`]).filter(existsSync);
    expect(files.length).toBeGreaterThan(1);
    // A file the store removes while closing (the -shm) is simply not there to read.
    const read = (f: string) => {
      try {
        return readFileSync(f).toString('utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '';
        throw e;
      }
    };
    const scan = () => files.map(read).join('');
    for (const [how, n] of needles) expect(scan().includes(n), `${how} on disk`).toBe(false);
    t.store.close();
    for (const [how, n] of needles) expect(scan().includes(n), `${how} on disk after close`).toBe(false);
  });

  it('the schema itself refuses an address with a user name and password in it', () => {
    const db = new Database(t.file);
    try {
      expect(() =>
        db
          .prepare(
            `INSERT INTO profiles (id, name, base_url, auth_url, push_url, client_id, flow, created_at, updated_at)
             VALUES ('p2', 'x', 'https://id:pw@api.example.test', 'https://a.test', 'https://a.test', 'c', 'client_credentials', 1, 1)`,
          )
          .run(),
      ).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });
});
