import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { Client, request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, controlHeaders, nativeCampaign, startTestSandbox, sandboxPerFile } from '../helpers/sandbox';
import { until } from '../helpers/wait';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const MiB = 1024 * 1024;

describe('routing', () => {
  it.each([
    ['/core/api/1.0/acmeshoes/things', { http_status: 404, message: 'Not found' }],
    ['/core/api/2.0/acmeshoes/campaigns', { http_status: 404, message: 'Not found' }],
    ['/nowhere', { http_status: 404, message: 'Not found' }],
    ['/epsilon/tasks', { httpStatus: 404, message: 'Not found' }],
    ['/_sandbox/nothing', { error: 'Not found' }],
  ])('answers 404 for %s in the shape of its API', async (path, body) => {
    const r = await call(sb, 'GET', path, { token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual(body);
  });

  it('answers 405 with Allow for a wrong method on a known path', async () => {
    const c = await call(sb, 'DELETE', '/core/api/1.0/acmeshoes/campaigns', { token });
    expect(c.status).toBe(405);
    expect(c.headers.allow).toBe('POST, GET, OPTIONS, HEAD');
    expect(c.body).toEqual({ http_status: 405, message: 'Method DELETE is not allowed here' });
    const p = await call(sb, 'GET', '/epsilon/push', { token });
    expect(p.status).toBe(405);
    expect(p.body).toEqual({ httpStatus: 405, message: 'Method GET is not allowed here' });
  });

  it('serves a 1x1 PNG for rewritten image addresses', async () => {
    const res = await request(`${sb.url}/_cdn/?src=${encodeURIComponent('https://x.example/a.png')}&w=480`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = Buffer.from(await res.body.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBe(1); // IHDR width
    expect(png.readUInt32BE(20)).toBe(1); // IHDR height
  });
});

describe('bodies', () => {
  it('answers 413 to a body over 1 MiB and creates nothing', async () => {
    const big = JSON.stringify(nativeCampaign({ name: 'x'.repeat(MiB) }));
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', {
      token,
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ http_status: 413, message: `Request body is larger than ${MiB} bytes` });
    const p = await call(sb, 'POST', '/epsilon/push', { token, body: big, headers: { 'content-type': 'application/json' } });
    expect(p.status).toBe(413);
    expect(p.body).toEqual({ httpStatus: 413, message: `Request body is larger than ${MiB} bytes` });
    const state = (await call(sb, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd')).body as { campaigns: unknown[] };
    expect(state.campaigns).toEqual([]);
  });

  it('answers 413 to a chunked body that grows past 1 MiB', async () => {
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, 0x61));
    const res = await request(`${sb.url}/epsilon/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Readable.from(chunks),
    });
    expect(res.statusCode).toBe(413);
    await res.body.dump();
  });

  it('reads a body of exactly 1 MiB (and judges it on its content)', async () => {
    const exact = `"${'a'.repeat(MiB - 2)}"`;
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', {
      token,
      body: exact,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ http_status: 400, message: 'Malformed JSON or type mismatch' });
  });

  it('answers garbage and wrong types with 4xx, never 5xx', async () => {
    const bodies = ['\u0000\u0001', '{"a":', 'null', '[]', '{"__proto__": {"x": 1}}', '9'.repeat(5000), '\uFEFF{}'];
    const paths = ['/core/api/1.0/oldtimerltd/campaigns/', '/epsilon/push', '/epsilon/push/scheduled', '/epsilon/container/sw-path'];
    for (const body of bodies) {
      for (const path of paths) {
        const method = path.endsWith('sw-path') ? 'PATCH' : 'POST';
        const r = await call(sb, method, path, { token, body, headers: { 'content-type': 'application/json' } });
        expect(r.status, `${path} ${body.slice(0, 20)}`).toBe(400);
      }
      const patch = await call(sb, 'PATCH', '/epsilon/task/900001', { token, body, headers: { 'content-type': 'application/json' } });
      expect(patch.status).toBe(400);
      const tokenReq = await call(sb, 'POST', '/core/oauth/token', {
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(tokenReq.status).toBe(400);
    }
    const log = (await call(sb, 'GET', '/_sandbox/requests')).body as { requests: { outcome: string }[] };
    expect(log.requests.filter((e) => e.outcome === 'server_error')).toEqual([]);
  });
});

describe('connections', () => {
  it('keeps connections alive across requests', async () => {
    const client = new Client(sb.url);
    let connects = 0;
    client.on('connect', () => connects++);
    try {
      for (let i = 0; i < 5; i++) {
        const res = await client.request({ path: '/epsilon/push/auth-apps', method: 'GET', headers: { authorization: `Bearer ${token}` } });
        expect(res.statusCode).toBe(200);
        await res.body.dump();
      }
      expect(connects).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('closes promptly with idle keep-alive sockets and a request held by a delay fault', async () => {
    const s = await startTestSandbox();
    const client = new Client(s.url);
    const res = await client.request({ path: '/_sandbox/clock', method: 'GET', headers: controlHeaders(s, '/_sandbox/clock') });
    await res.body.dump();
    await call(s, 'POST', '/_sandbox/faults', { json: { mode: 'delay', delay_ms: 600_000 } });
    const held = client.request({ path: '/epsilon/push/auth-apps', method: 'GET' });
    held.catch(() => undefined);
    // Held once the server has taken the fault for it.
    await until(
      async () => ((await call(s, 'GET', '/_sandbox/faults')).body as { faults: unknown[] }).faults.length === 0,
      'the request to be held',
    );
    // Closing does not wait out the 10-minute delay: the test's time limit is far shorter.
    await s.close();
    await expect(held).rejects.toThrow();
    await client.destroy();
  });
});

describe('request lines and headers beyond the parser limit', () => {
  /** About a thousand ids: what a client that does not split its campaign_ids list sends. */
  const longIds = Array.from({ length: 1000 }, (_, i) => `campaign_ids=${4100001 + i}`).join('&');
  const message = 'Request line and headers are larger than 16 KiB. Split long lists (such as campaign_ids) over several requests.';

  it('answers a campaign_ids list of 1,000 ids with a 431 and a short body in the API shape, then serves on', async () => {
    const r = await call(sb, 'GET', `/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP&${longIds}`, { token });
    expect(r.status).toBe(431);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body).toEqual({ http_status: 431, message });
    const push = await call(sb, 'GET', `/epsilon/task?tagId=1001&${longIds}`, { token });
    expect(push.body).toEqual({ httpStatus: 431, message });
    // The same ids split into requests of a size the limit takes are answered.
    const few = Array.from({ length: 300 }, (_, i) => `campaign_ids=${4100001 + i}`).join('&');
    expect((await call(sb, 'GET', `/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP&${few}`, { token })).status).toBe(200);
  });

  it('speaks problem+json there too when that variant is played', async () => {
    await call(sb, 'PUT', '/_sandbox/variants', { json: { problem_json: true } });
    const r = await call(sb, 'GET', `/core/api/1.0/acmeshoes/campaigns?${longIds}`, { token });
    expect(r.status).toBe(431);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(r.body).toEqual({ type: 'about:blank', title: 'Request Header Fields Too Large', status: 431, detail: message });
  });

  it('keeps Node answers to other malformed requests', async () => {
    const socket = connect(sb.port, '127.0.0.1');
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nbad header line\r\n\r\n');
    });
    expect(answer).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
});
