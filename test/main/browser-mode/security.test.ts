import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer, type BrowserServer } from '../../../src/main/browser-mode/server';
import { createManualEvents, createTransportTable, type TransportTable } from '../../helpers/transport-handlers';
import { apiCall, rawRequest } from './http-client';

const create = {
  name: 'Acme',
  baseUrl: 'https://api.example.com',
  authUrl: 'https://api.example.com',
  pushUrl: 'https://api.example.com',
  clientId: 'c1',
  clientSecret: 'never-leaves-main',
  flow: 'client_credentials',
};

let dir: string;
let server: BrowserServer;
let table: TransportTable;
let events: ReturnType<typeof createManualEvents>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-bm-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>desk</title>');
  writeFileSync(join(tmpdir(), 'desk-bm-outside.txt'), 'outside');
  table = createTransportTable();
  events = createManualEvents();
  server = await startBrowserServer({ handlers: table.handlers, events, staticDir: dir, log: () => undefined });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every refused request below must leave the table untouched. */
function expectNoStateChange() {
  expect(table.calls).toEqual([]);
  expect(table.profiles).toEqual([]);
}

describe('browser mode over real HTTP (transport-test handler table): refusals', () => {
  it('prints an address on 127.0.0.1 with a 256-bit token in the fragment', () => {
    expect(server.openUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
  });

  it('refuses an API call without the token (401)', async () => {
    const r = await apiCall(server.port, '', 'profiles.create', create, { 'x-desk-token': '' });
    expect(r.status).toBe(401);
    expect(r.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expectNoStateChange();
  });

  it('refuses an API call with a wrong token, including a prefix of the right one (401)', async () => {
    for (const wrong of ['x'.repeat(43), server.token.slice(0, 42), `${server.token}x`]) {
      expect((await apiCall(server.port, wrong, 'profiles.create', create)).status).toBe(401);
    }
    expectNoStateChange();
  });

  it('refuses a foreign Origin even with the token (403)', async () => {
    for (const origin of ['http://evil.example', `http://127.0.0.1:${server.port + 1}`, 'null', `https://127.0.0.1:${server.port}`]) {
      const r = await apiCall(server.port, server.token, 'profiles.create', create, { origin });
      expect(r.status).toBe(403);
    }
    expectNoStateChange();
  });

  it('refuses a DNS-rebinding Host header even with token and matching origin (403), on the API and on static files', async () => {
    for (const host of [
      `evil.example:${server.port}`,
      'evil.example',
      `127.0.0.1:${server.port + 1}`,
      `127.0.0.1.evil.example:${server.port}`,
    ]) {
      const api = await apiCall(server.port, server.token, 'profiles.create', create, { host, origin: `http://${host}` });
      expect(api.status).toBe(403);
      const page = await rawRequest(server.port, { path: '/', headers: { host } });
      expect(page.status).toBe(403);
    }
    expectNoStateChange();
  });

  it('refuses non-POST on /api (405), a non-JSON content type (415) and a body over 1 MiB (413)', async () => {
    const get = await rawRequest(server.port, { path: '/api/profiles.list', headers: { 'x-desk-token': server.token } });
    expect(get.status).toBe(405);
    const text = await apiCall(server.port, server.token, 'profiles.create', JSON.stringify(create), { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const form = await apiCall(server.port, server.token, 'profiles.create', 'a=b', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    const big = await apiCall(server.port, server.token, 'profiles.create', { ...create, name: 'x'.repeat(1024 * 1024 + 1) });
    expect(big.status).toBe(413);
    expectNoStateChange();
  });

  it('answers malformed JSON and unknown channels with typed invalid_input errors', async () => {
    const bad = await apiCall(server.port, server.token, 'profiles.create', '{"name":');
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const unknown = await apiCall(server.port, server.token, 'profiles.steal', {});
    expect(unknown.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expectNoStateChange();
  });

  it('refuses a WebSocket without the token, with a wrong token, from a foreign origin or with a foreign Host', async () => {
    const attempt = (protocols: string[], headers: Record<string, string> = {}) =>
      new Promise<number | 'open'>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events`, protocols, {
          headers: { origin: server.origin, ...headers },
        });
        ws.on('open', () => {
          ws.close();
          resolve('open');
        });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => resolve(0));
      });
    expect(await attempt(['desk.v1'])).toBe(401);
    expect(await attempt(['desk.v1', 'desk-token.wrong'])).toBe(401);
    expect(await attempt(['desk.v1', `desk-token.${server.token}`], { origin: 'http://evil.example' })).toBe(403);
    expect(await attempt(['desk.v1', `desk-token.${server.token}`], { host: `evil.example:${server.port}` })).toBe(403);
    expect(await attempt(['desk.v1', `desk-token.${server.token}`])).toBe('open');
  });

  it('serves static files without a token, with the CSP, and refuses paths leaving the root', async () => {
    const page = await rawRequest(server.port, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const path of ['/../desk-bm-outside.txt', '/%2e%2e/desk-bm-outside.txt', '/..%2fdesk-bm-outside.txt', '/%00index.html']) {
      const r = await rawRequest(server.port, { path });
      expect(r.status).toBe(404);
      expect(r.text).not.toContain('outside');
    }
  });
});

describe('browser mode over real HTTP (transport-test handler table): with the token', () => {
  it('carries a call to the handler and the result back as data, without the secret', async () => {
    const r = await apiCall(server.port, server.token, 'profiles.create', create);
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ ok: true, value: { name: 'Acme', hasSecret: true } });
    expect(r.text).not.toContain('never-leaves-main');
    expect(table.profiles).toHaveLength(1);
    table.calls.length = 0;
    table.profiles.length = 0;
  });

  it('carries handler errors as data (DeskError as is, anything else generic)', async () => {
    expect((await apiCall(server.port, server.token, 'profiles.remove', { profileId: 'p9' })).json()).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const internal = await apiCall(server.port, server.token, 'activity.list', {});
    expect(internal.json()).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(internal.text).not.toContain('secret-token');
    table.calls.length = 0;
  });

  it('delivers core events over the WebSocket as {event, payload}, and drops events outside the contract', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events`, ['desk.v1', `desk-token.${server.token}`], {
      headers: { origin: server.origin },
    });
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    expect(ws.protocol).toBe('desk.v1');
    const received = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    events.emitRaw('ratelimit.changed', { nope: true });
    events.emit('connection.changed', { profileId: 'p1', connection: 'offline' });
    expect(await received).toEqual({ event: 'connection.changed', payload: { profileId: 'p1', connection: 'offline' } });
    const before = events.listenerCount();
    ws.close();
    await new Promise((r) => ws.on('close', r));
    await expect.poll(() => events.listenerCount()).toBeLessThan(before);
  });
});
