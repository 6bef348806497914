// HTTP as RFC 9110 lets a server answer (DECISIONS client 20, issue #25): content codings, several
// in sequence, with the size limit on the decoded body; redirects on the same origin only (303 as a
// GET), never carrying the token elsewhere; interim 1xx answers passed over; a 5xx's Retry-After.
// Against the sandbox's variants, and where a variant cannot play the case (a coding nobody knows,
// a redirect to another server) against a small server of the test's own, over real HTTP.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../../src/main/service/http-transport';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { type RunningSandbox, type Variants } from '../../../src/sandbox/index';
import { call, campaignPayload, fault, playVariants, tokenFor } from '../../helpers/sandbox';
import { clientPerFile, rejection } from '../../helpers/service-client';
import { SECRET } from '../../helpers/fixtures';

let sb: RunningSandbox;
let client: ServiceClient;
const transport = new HttpTransport();

clientPerFile(
  (s, c) => {
    sb = s;
    client = c;
  },
  { clock: 'real', rateLimits: { endpoint_tiers: { campaigns: 1, 'campaigns.list': 1 } }, authenticate: true },
);
afterAll(async () => {
  await transport.close();
});
afterEach(async () => {
  await play({});
});

const play = (extra: Variants) => playVariants(sb, extra);

const token = () => tokenFor(sb, 'demo-client', SECRET);

const draft = (name: string) =>
  campaignPayload(name, { branding_text: 'Old Timer', cpc: 0.2, spending_limit: 900, marketing_objective: 'LEADS_GENERATION' });
const event = (title: string) => ({
  title,
  url: 'https://news.example.com/x',
  performer: 'me@example.com',
  target: { include: { apps: ['1001'] } },
});

const createdNamed = async (name: string) =>
  ((await call(sb, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd')).body as { campaigns: { name: string }[] }).campaigns.filter(
    (c) => c.name === name,
  );

describe('content codings', () => {
  it.each(['gzip', 'deflate', 'br', 'deflate,gzip'] as const)(
    'asks for them and reads answers in %s, whole and streamed',
    async (coding) => {
      const plainTasks = await client.listTasks('1001');
      const plainCampaigns = (await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP' })).campaigns;
      await play({ compress: coding, early_hints: true });
      const url = `${sb.url}/epsilon/task?tagId=1001`;
      const headers = { authorization: `Bearer ${await token()}` };
      const whole = await transport.send({ method: 'GET', url, headers });
      expect(whole.status).toBe(200);
      expect(whole.headers['content-encoding']).toBe(coding.split(',').join(', '));
      expect(whole.body.toString()).toContain('"taskId":900002');
      const streamed = await transport.stream({ method: 'GET', url, headers });
      expect(streamed.headers['content-encoding']).toBe(coding.split(',').join(', '));
      let text = '';
      for await (const chunk of streamed.body as AsyncIterable<Buffer>) text += chunk.toString();
      expect(text).toBe(whole.body.toString());
      // The client's reads and writes, whole and streamed, and its errors' words.
      expect(await client.listTasks('1001')).toEqual(plainTasks);
      expect((await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP' })).campaigns).toEqual(plainCampaigns);
      const name = `Coded ${coding}`;
      await client.createCampaign('oldtimerltd', draft(name));
      expect(await createdNamed(name)).toHaveLength(1);
      await client.sendPush('immediate', [event(name)]);
      const refused = await rejection(client.listTasks('1003'));
      expect(refused.kind).toBe('forbidden');
      expect(refused.serverText).toBe('Not authorized to send notifications for specified application');
    },
  );

  it('applies the size limit to the decoded body', async () => {
    const plain = await transport.send({
      method: 'GET',
      url: `${sb.url}/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP`,
      headers: { authorization: `Bearer ${await token()}` },
    });
    expect(plain.status).toBe(200);
    const coded = gzipSync(plain.body).length;
    const max = Math.floor((coded + plain.body.length) / 2);
    expect(coded).toBeLessThan(max);
    await play({ compress: 'gzip' });
    const small = new HttpTransport({ maxBodyBytes: max });
    try {
      // Asked for gzip by name: a transport that counted the coded bytes would take this answer.
      const headers = { authorization: `Bearer ${await token()}`, 'accept-encoding': 'gzip' };
      const e = await rejection(small.send({ method: 'GET', url: `${sb.url}/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP`, headers }));
      expect(e).toMatchObject({ kind: 'protocol', requestWritten: true });
      expect(e.message).toContain(`larger than ${max} bytes`);
    } finally {
      await small.close();
    }
  });
});

describe('redirects', () => {
  it.each([307, 308] as const)(
    'follows a %i on the same origin: reads, creates and pushes are done once, at the new address',
    async (status) => {
      await play({ redirect: status });
      expect((await client.listTasks('1001')).length).toBeGreaterThan(0);
      expect((await client.listCampaigns('acmeshoes', { fetchLevel: 'RAP' })).campaigns.length).toBeGreaterThan(0);
      const name = `Moved ${status}`;
      await client.createCampaign('oldtimerltd', draft(name));
      expect(await createdNamed(name)).toHaveLength(1);
      await client.sendPush('immediate', [event(name)]);
      const tasks = ((await call(sb, 'GET', '/_sandbox/state/tasks?app=1001')).body as { tasks: { title: string }[] }).tasks;
      expect(tasks.filter((t) => t.title === name)).toHaveLength(1);
    },
  );
});

describe('a 5xx that says when to come back', () => {
  it('carries its Retry-After, in seconds or as a date on the service clock', async () => {
    await play({ retry_after_date: false });
    await fault(sb, { method: 'GET', path_prefix: '/epsilon/task', mode: 'status_503', retry_after: 30 });
    const e = await rejection(client.listTasks('1001'));
    expect(e).toMatchObject({ kind: 'server', status: 503, retryAfterMs: 30_000 });
    expect(e.message).toContain('Try again in 30 s');
    await play({ retry_after_date: true });
    await fault(sb, { method: 'GET', path_prefix: '/epsilon/task', mode: 'status_503', retry_after: 90 });
    const dated = await rejection(client.listTasks('1001'));
    // An HTTP-date has whole seconds: measured against the answer's Date, within one second.
    expect(dated.retryAfterMs).toBeGreaterThanOrEqual(89_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(91_000);
  });
});

/** A server of the test's own: every request is recorded, answered by `answer`. */
async function ownServer(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const seen: { method: string; url: string; authorization?: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

describe('what a variant cannot play', () => {
  it('refuses an answer in a coding it cannot read, in words that name it', async () => {
    const s = await ownServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' });
      res.end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]));
    });
    try {
      const e = await rejection(transport.send({ method: 'GET', url: `${s.url}/epsilon/task?tagId=1001` }));
      expect(e).toMatchObject({ kind: 'protocol', requestWritten: true, status: 200 });
      expect(e.message).toContain('content coding this app cannot read (zstd)');
      const streamed = await rejection(transport.stream({ method: 'GET', url: `${s.url}/epsilon/task?tagId=1001` }));
      expect(streamed.message).toContain('(zstd)');
    } finally {
      await s.close();
    }
  });

  it('never follows a redirect to another server (the token stays home), and turns a 303 into a GET', async () => {
    const other = await ownServer((_req, res) => res.end('[]'));
    const s = await ownServer((req, res) => {
      if (req.url === '/elsewhere') res.writeHead(307, { location: `${other.url}/epsilon/task?tagId=1001` }).end();
      else if (req.method === 'POST') res.writeHead(303, { location: '/result' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('"done"');
    });
    try {
      const e = await rejection(
        transport.send({ method: 'GET', url: `${s.url}/elsewhere`, headers: { authorization: 'Bearer secret-token-1' } }),
      );
      expect(e).toMatchObject({ kind: 'protocol' });
      expect(e.message).toContain(`redirected the request to another server (${other.url})`);
      expect(other.seen).toEqual([]);
      const res = await transport.send({
        method: 'POST',
        url: `${s.url}/epsilon/push`,
        headers: { 'content-type': 'application/json' },
        body: '{"pushEvents":[]}',
      });
      expect(res).toMatchObject({ status: 200 });
      expect(res.body.toString()).toBe('"done"');
      expect(s.seen.map((r) => [r.method, r.url, r.body])).toEqual([
        ['GET', '/elsewhere', ''],
        ['POST', '/epsilon/push', '{"pushEvents":[]}'],
        ['GET', '/result', ''],
      ]);
    } finally {
      await s.close();
      await other.close();
    }
  });
});
