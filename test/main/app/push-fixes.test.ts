// The push side of issue 17 in the core: a scheduled push blocked because its time passed is fixed
// in one step (the same outbox item, a new time or sent now), the default performer and templates
// are kept, and images are checked by the main process from a local HTTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../src/shared/ipc/contract';
import { checkImage, IMAGE_CHECK_DEFAULTS } from '../../../src/main/images/image-check';
import { isPublicAddress } from '../../../src/main/images/public-address';
import { tasksOnService } from '../../helpers/sandbox';
import { type Env, P, settled, startEnv } from '../../helpers/world';

const HOUR = 3_600_000;
let env: Env | undefined;
let server: Server | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function blockedPush(e: Env, title: string): Promise<OutboxItem> {
  const h = e.core.handlers;
  const event = {
    title,
    url: 'https://news.example.com/late',
    performer: 'me@example.com',
    target: { include: { apps: ['1001'] } },
    executionTime: e.sandbox.now() + HOUR,
  };
  await h['profiles.setWorkOffline']({ profileId: P, offline: true });
  const d = await h['drafts.save']({ kind: 'push', profileId: P, accountId: 'acmeshoes', payload: { mode: 'scheduled', event } });
  const item = await h['drafts.submit']({ id: d.id });
  e.sandbox.advance(2 * HOUR);
  await h['profiles.setWorkOffline']({ profileId: P, offline: false });
  const blocked = await settled(e, item.id);
  expect(blocked.state).toBe('blocked');
  return blocked;
}

describe('a scheduled push whose time passed while it waited', () => {
  it('is listed with its time and queued again with a new time as the same item, then sent at that time', async () => {
    env = await startEnv({ clock: 'manual' });
    const h = env.core.handlers;
    const item = await blockedPush(env, 'Fix me later');
    const [listed] = await h['push.blocked']({ profileId: P, accountId: 'acmeshoes' });
    expect(listed).toMatchObject({ id: item.id, title: 'Fix me later' });
    // A time still in the past is refused, with the rule's words.
    await expect(h['push.reschedule']({ id: item.id, when: { kind: 'at', executionTime: env.sandbox.now() - 1000 } })).rejects.toThrow(
      /must be in the future/,
    );
    const later = env.sandbox.now() + HOUR;
    const again = await h['push.reschedule']({ id: item.id, when: { kind: 'at', executionTime: later } });
    expect(again.id).toBe(item.id);
    expect((await settled(env, item.id)).state).toBe('sent');
    expect((await tasksOnService(env.sandbox)).filter((t) => t.title === 'Fix me later').map((t) => [t.taskType, t.executionTime])).toEqual(
      [['scheduled', later]],
    );
    expect(await h['push.blocked']({ profileId: P, accountId: 'acmeshoes' })).toEqual([]);
  });

  it('can be sent now instead, as an immediate push', async () => {
    env = await startEnv({ clock: 'manual' });
    const h = env.core.handlers;
    const item = await blockedPush(env, 'Send me now');
    await h['push.reschedule']({ id: item.id, when: { kind: 'now' } });
    expect((await settled(env, item.id)).state).toBe('sent');
    expect((await tasksOnService(env.sandbox)).filter((t) => t.title === 'Send me now').map((t) => t.taskType)).toEqual(['immediate']);
  });
});

describe('push defaults and templates', () => {
  it('keeps a default performer per connection and templates across calls', async () => {
    env = await startEnv();
    const h = env.core.handlers;
    expect(await h['push.defaults']({ profileId: P })).toEqual({ performer: null });
    await h['push.setDefaultPerformer']({ profileId: P, performer: ' desk@example.com ' });
    expect(await h['push.defaults']({ profileId: P })).toEqual({ performer: 'desk@example.com' });
    const t = await h['push.saveTemplate']({ name: 'Morning', payload: { mode: 'immediate', event: { title: 'Good morning' } } });
    expect((await h['push.templates']({})).map((x) => [x.name, x.payload.event?.title])).toEqual([['Morning', 'Good morning']]);
    await h['push.removeTemplate']({ id: t.id });
    expect(await h['push.templates']({})).toEqual([]);
  });
});

/** A minimal valid PNG of the given size (one grey pixel row repeated). */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function imageServer(): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/icon.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png(192, 192));
    if (req.url === '/small.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png(120, 80));
    if (req.url === '/big.png')
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([png(400, 300), Buffer.alloc(250 * 1024)]));
    if (req.url === '/page') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    if (req.url === '/slow') return; // never answers
    if (req.url?.startsWith('/to?'))
      return void res.writeHead(302, { location: new URLSearchParams(req.url.slice(4)).get('url') ?? '/' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The image host of these tests is on this computer: trusted as a connection's own address would be. */
const trusting = (base: string) => ({ ...IMAGE_CHECK_DEFAULTS, trustedOrigins: new Set([base]) });

describe('image checks in the main process', () => {
  it('reads format, size and pixels, hands back a data: URL, and names each missed recommendation', async () => {
    const base = await imageServer();
    const icon = await checkImage(`${base}/icon.png`, 'icon', trusting(base));
    expect(icon).toMatchObject({ reachable: true, format: 'png', width: 192, height: 192, error: null });
    expect(icon.dataUrl?.startsWith('data:image/png;base64,')).toBe(true);
    // Served over http here: only the HTTPS hint.
    expect(icon.hints).toEqual(['Use an HTTPS address: browsers may not show images over plain HTTP']);
    const small = await checkImage(`${base}/small.png`, 'thumbnail', trusting(base));
    expect(small.hints).toContain('A thumbnail of at least 300x200 pixels is recommended (this one is 120x80)');
    const big = await checkImage(`${base}/big.png`, 'thumbnail', trusting(base));
    expect(big.hints.some((h) => h.startsWith('Images under 200 KB are recommended'))).toBe(true);
    const page = await checkImage(`${base}/page`, 'icon', trusting(base));
    expect(page).toMatchObject({ reachable: true, dataUrl: null, format: 'other' });
    expect(page.error).toMatch(/Not an image/);
    expect((await checkImage(`${base}/missing.png`, 'icon', trusting(base))).error).toBe('The image host answered 404');
  });

  it('stops at the size limit and the timeout', async () => {
    const base = await imageServer();
    expect((await checkImage(`${base}/big.png`, 'icon', { ...trusting(base), maxBytes: 100 * 1024, timeoutMs: 5000 })).error).toMatch(
      /Too large to check/,
    );
    expect((await checkImage(`${base}/slow`, 'icon', { ...trusting(base), maxBytes: 100 * 1024, timeoutMs: 200 })).error).toBe(
      'No answer within 200 ms',
    );
  });

  it('never reaches this computer or a private network, by address, by name, or through a redirect', async () => {
    const base = await imageServer();
    const port = new URL(base).port;
    const refused = 'Not checked: the address is on this computer or a private network';
    for (const url of [
      `${base}/icon.png`, // loopback, not one of the connections' own addresses
      `http://localhost:${port}/icon.png`, // a name that resolves to loopback
      `http://[::1]:${port}/icon.png`,
      'http://169.254.169.254/latest/meta-data/', // a cloud metadata service
      'http://10.0.0.1/router.png',
      'http://192.168.1.1/admin.png',
      'http://[fd00::1]/x.png',
      'http://[::ffff:127.0.0.1]:1/x.png',
      'http://0.0.0.0:1/x.png',
    ]) {
      expect((await checkImage(url, 'icon')).error, url).toBe(refused);
    }
    // A trusted host that redirects to an untrusted local address is refused at the second hop.
    const other = `http://localhost:${port}/icon.png`;
    expect((await checkImage(`${base}/to?url=${encodeURIComponent(other)}`, 'icon', trusting(base))).error).toBe(refused);
    // Redirects within the trusted host are followed.
    expect(await checkImage(`${base}/to?url=${encodeURIComponent('/icon.png')}`, 'icon', trusting(base))).toMatchObject({
      reachable: true,
      format: 'png',
    });
  });

  it('tells public from non-public addresses', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '93.184.216.34']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd12::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      'not an address',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });
});
