import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoFixtures, fixturesSchema, loadFixturesFile, SandboxFixturesError, startSandbox, type Fixtures } from '../../src/sandbox/index';
import { call, testFixtures, tokenFor } from '../helpers/sandbox';

const EXAMPLE = join(__dirname, '../../docs/sandbox-fixtures.example.json');
const dir = mkdtempSync(join(tmpdir(), 'sandbox-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeJson(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

function loadError(value: unknown): SandboxFixturesError {
  const file = writeJson(`f-${Math.random().toString(36).slice(2)}.json`, value);
  try {
    loadFixturesFile(file);
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxFixturesError);
    const err = e as SandboxFixturesError;
    expect(err.file).toBe(file);
    expect(err.message).toContain(file);
    return err;
  }
  throw new Error('expected the fixtures to be refused');
}

const example = (): Fixtures => JSON.parse(readFileSync(EXAMPLE, 'utf8')) as Fixtures;

describe('fixtures files', () => {
  it('accepts the example file as it is', () => {
    expect(loadFixturesFile(EXAMPLE).accounts).toHaveLength(5);
  });

  it('names file, JSON path and problem for a bad account id', () => {
    const f = example();
    f.accounts[2].account_id = 'north-net';
    const err = loadError(f);
    expect(err.jsonPath).toBe('accounts[2].account_id');
    expect(err.problem).toBe('account id must contain letters only');
    expect(err.message).toContain('accounts[2].account_id: account id must contain letters only');
  });

  it('refuses unknown top-level keys, and unknown nested keys, naming them', () => {
    const err = loadError({ ...example(), acounts: [] });
    expect(err.problems).toContainEqual({ jsonPath: 'acounts', problem: 'unknown key' });
    const f = example() as unknown as { accounts: Record<string, unknown>[] };
    f.accounts[0].feature = ['DISPLAY'];
    expect(loadError(f).problems).toContainEqual({ jsonPath: 'accounts[0].feature', problem: 'unknown key' });
  });

  it.each<[string, (f: Fixtures) => void, string]>([
    ['a duplicate account', (f) => f.accounts.push({ ...f.accounts[0] }), 'accounts[5].account_id'],
    ['a member of a non-network', (f) => (f.accounts[4].network_id = 'acmeshoes'), 'accounts[4].network_id'],
    ['a client granted an unknown account', (f) => f.clients[0].accounts.push('ghost'), 'clients[0].accounts[3]'],
    ['a campaign of an unknown account', (f) => (f.campaigns![1].account_id = 'ghost'), 'campaigns[1].account_id'],
    ['a duplicate campaign id', (f) => (f.campaigns![1].id = f.campaigns![0].id), 'campaigns[1].id'],
    ['a task of an unknown app', (f) => (f.tasks![0].tagId = 4242), 'tasks[0].tagId'],
    [
      'an endpoint tier that does not exist',
      (f) => (f.rate_limits!.endpoint_tiers!['campaigns.list'] = 9),
      'rate_limits.endpoint_tiers["campaigns.list"]',
    ],
    [
      'a tier row of two numbers',
      (f) => ((f.rate_limits!.tiers!['2'] as unknown as { read: number[] }).read = [1, 2]),
      'rate_limits.tiers["2"].read',
    ],
    ['a bad created_at', (f) => (f.accounts[0].created_at = '2026-13-01'), 'accounts[0].created_at'],
    ['an unknown feature', (f) => (f.accounts[0].features as string[]).push('TELEPATHY'), 'accounts[0].features[2]'],
    ['a relative redirect uri', (f) => (f.clients[0].redirect_uris = ['/callback']), 'clients[0].redirect_uris[0]'],
  ])('refuses %s at %s', (_name, mutate, path) => {
    const f = example();
    mutate(f);
    expect(loadError(f).problems.map((p) => p.jsonPath)).toContain(path);
  });

  it('explains JSON syntax errors and unreadable files', () => {
    const syntax = loadError('{"accounts": [}');
    expect(syntax.problem).toMatch(/not valid JSON/);
    expect(() => loadFixturesFile(join(dir, 'missing.json'))).toThrow(/missing\.json: \(file\): cannot read the file \(ENOENT\)/);
  });

  it('validates fixtures given as an option too', async () => {
    const f = testFixtures();
    f.accounts[0].account_id = 'acme shoes';
    await expect(startSandbox({ fixtures: f })).rejects.toThrow(/fixtures option: accounts\[0\]\.account_id/);
  });

  it('starts from a fixtures file', async () => {
    const file = writeJson('ok.json', testFixtures());
    const s = await startSandbox({ fixturesPath: file, clock: 'manual' });
    try {
      expect(s.now()).toBe(Date.parse('2026-11-21T09:00:00Z'));
      expect((await call(s, 'GET', '/epsilon/push/auth-apps', { token: await tokenFor(s) })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('applies token_ttl_s and image_cdn_url from the fixtures', async () => {
    const f = testFixtures();
    f.token_ttl_s = 60;
    f.image_cdn_url = 'https://img.example.com/cdn/';
    const s = await startSandbox({ fixtures: f, clock: 'manual' });
    try {
      const t = await call(s, 'POST', '/core/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' },
      });
      expect((t.body as { expires_in: number }).expires_in).toBe(60);
      const token = (t.body as { access_token: string }).access_token;
      await call(s, 'POST', '/epsilon/push', {
        token,
        json: {
          pushEvents: [
            {
              title: 't',
              url: 'https://u.example',
              performer: 'p',
              icon: 'https://i.example/i.png',
              target: { include: { apps: ['1001'] } },
            },
          ],
        },
      });
      const tasks = (await call(s, 'GET', '/epsilon/task?tagId=1001', { token })).body as { iconUrl: string }[];
      expect(tasks.at(-1)!.iconUrl).toBe(`https://img.example.com/cdn/?src=${encodeURIComponent('https://i.example/i.png')}&w=192`);
      s.advance(60_000);
      expect((await call(s, 'GET', '/epsilon/push/auth-apps', { token })).status).toBe(401);
    } finally {
      await s.close();
    }
  });
});

describe('demo fixtures', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');

  it('are valid fixtures and deterministic for a given now', () => {
    const f = demoFixtures(now);
    expect(fixturesSchema.safeParse(f).success).toBe(true);
    expect(JSON.stringify(demoFixtures(now))).toBe(JSON.stringify(f));
    expect(f.now).toBeUndefined();
  });

  it('look real: the example accounts and client, about 200 varied campaigns over ~120 days, tasks both ways', () => {
    const f = demoFixtures(now);
    const ids = f.accounts.map((a) => a.account_id);
    for (const id of ['acmeshoes', 'oldtimerltd', 'northnet', 'northbikes', 'northboats']) expect(ids).toContain(id);
    expect(f.accounts.filter((a) => Date.parse(a.created_at) < Date.parse('2026-10-04T00:00:00Z')).length).toBeGreaterThan(0);
    const demo = f.clients.find((c) => c.client_id === 'demo-client')!;
    expect(demo).toMatchObject({
      client_secret: 'demo-secret',
      redirect_uris: ['http://127.0.0.1:53682/callback'],
      users: [{ username: 'manager@example.com', password: 'demo' }],
    });
    expect(demo.apps).not.toContain('1003');
    expect(f.apps!.map((a) => a.app_id)).toEqual(['1001', '1002', '1003', '1004']);
    const campaigns = f.campaigns!;
    expect(campaigns.length).toBeGreaterThanOrEqual(180);
    expect(campaigns.length).toBeLessThanOrEqual(220);
    const statuses = new Set(campaigns.map((c) => c.status));
    for (const s of ['APPROVED', 'PENDING_APPROVAL', 'PAUSED', 'REJECTED', 'TERMINATED']) expect(statuses).toContain(s);
    const approved = campaigns.filter((c) => c.status === 'APPROVED').length;
    expect(approved).toBeGreaterThan(campaigns.length / 2);
    const ages = campaigns.map((c) => (now - Date.parse(c.created_at)) / 86_400_000);
    expect(Math.max(...ages)).toBeLessThanOrEqual(120);
    expect(Math.max(...ages)).toBeGreaterThan(90);
    expect(new Set(campaigns.map((c) => c.name)).size).toBeGreaterThan(150);
    const tasks = f.tasks!;
    expect(tasks.some((t) => t.taskType === 'immediate' && t.taskStatus === 'completed' && t.executionTime < now)).toBe(true);
    expect(tasks.some((t) => t.taskType === 'scheduled' && t.taskStatus === 'pending' && t.executionTime > now)).toBe(true);
  });

  it('power a sandbox started without fixtures, with unlimited and limited accounts', async () => {
    const s = await startSandbox({ clock: 'manual' });
    try {
      const token = await tokenFor(s);
      const old = await call(s, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP', { token });
      expect(old.status).toBe(200);
      expect(old.headers.ratelimit).toBeUndefined();
      expect((old.body as { metadata: { total: number } }).metadata.total).toBeGreaterThan(5);
      const acme = await call(s, 'GET', '/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP', { token });
      expect(acme.headers['ratelimit-policy']).toBeDefined();
      const pending = (await call(s, 'GET', '/epsilon/task?tagId=1001&taskType=scheduled', { token })).body as { taskStatus: string }[];
      expect(pending.some((t) => t.taskStatus === 'pending')).toBe(true);
    } finally {
      await s.close();
    }
  });
});
