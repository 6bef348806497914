// The unpaged listing through the real client and a real socket: a service (a small HTTP server
// here, so the body and where it pauses are ours to choose; the sandbox gives the token) answers
// in pieces, and streamCampaigns hands out campaigns as they arrive, or fails with the client's
// usual "could not be read" when the answer is not a whole listing.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamedListing } from '../../../src/main/service/campaigns-api';
import type { ServiceClient } from '../../../src/main/service/service-client';
import { type RunningSandbox } from '../../../src/sandbox/index';
import { clientFor, rejection, startServiceSandbox } from '../../helpers/service-client';

let sb: RunningSandbox;
let server: Server;
let client: ServiceClient;
/** How the listing server answers the current test. */
let answer: (res: ServerResponse) => Promise<void> | void = (res) => void res.end();

beforeAll(async () => {
  sb = await startServiceSandbox({ clock: 'real' });
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    void Promise.resolve(answer(res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = clientFor(sb, { baseUrl: url });
});

afterAll(async () => {
  await client.close();
  await new Promise((resolve) => server.close(resolve));
  await sb.close();
});

const campaign = (i: number) => ({
  id: 5_000_000 + i,
  name: `Été ${i} "sale" \\ 𝄞`,
  status: 'APPROVED',
  spent: i / 4,
  targeting: { countries: ['FR', { nested: [] }] },
});
const write = (res: ServerResponse, bytes: Buffer) =>
  new Promise<void>((resolve, reject) => res.write(bytes, (e) => (e ? reject(e) : resolve())));
const stream = () => client.streamCampaigns('acmeshoes', { fetchLevel: 'RAP' });

describe('the whole listing over HTTP', () => {
  it('hands out the campaigns that have arrived while the rest of the answer is still on its way', async () => {
    const body = Buffer.from(
      JSON.stringify(
        {
          links: { next: null, pages: [1, 2, 3] },
          results: Array.from({ length: 40 }, (_, i) => campaign(i)),
          metadata: { total: 40, count: 40 },
        },
        null,
        1,
      ),
    );
    // Cut inside the 𝄞 of the 11th campaign: the 10 before it are complete.
    const cut = body.indexOf(Buffer.from('𝄞'), body.indexOf(Buffer.from('"id": 5000010'))) + 2;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    answer = async (res) => {
      await write(res, body.subarray(0, cut));
      // The rest only once the client has shown the first campaigns.
      await released;
      for (let at = cut; at < body.length; at += 333) await write(res, body.subarray(at, at + 333));
      res.end();
    };
    const parts: StreamedListing[] = [];
    for await (const part of stream()) {
      if (parts.length === 0) {
        expect(part.campaigns.map((c) => c.id)).toEqual(Array.from({ length: 10 }, (_, i) => String(5_000_000 + i)));
        expect(part.metadata).toBeNull();
        release();
      }
      parts.push(part);
    }
    const all = parts.flatMap((p) => p.campaigns);
    expect(all.map((c) => c.id)).toEqual(Array.from({ length: 40 }, (_, i) => String(5_000_000 + i)));
    expect(all[10]).toMatchObject({ name: 'Été 10 "sale" \\ 𝄞', spent: 2.5, targeting: { countries: ['FR', { nested: [] }] } });
    expect(parts.at(-1)?.metadata).toEqual({ total: 40, count: 40 });
  });

  it.each([
    ['the answer stops in the middle of a campaign', (b: string) => b.slice(0, b.indexOf('"id": 5000002') + 20)],
    // Only the id is required: a campaign without a name is read (with "" for its name), one without an id is not.
    ['a campaign has no id', (b: string) => b.replace('"id": 5000001', '"ident": 5000001')],
    ['the answer has no metadata', (b: string) => b.replace(/,\s*"metadata": \{[^}]*\}/, '')],
    ['the metadata counts less than nothing', (b: string) => b.replace('"total": 3', '"total": -3')],
    ['a campaign is not JSON', (b: string) => b.replace('"spent": 0.25', '"spent": .25')],
    ['something follows the listing', (b: string) => `${b} {}`],
  ])('says the answer could not be read when %s', async (_, damage) => {
    const body = Buffer.from(damage(JSON.stringify({ results: [0, 1, 2].map(campaign), metadata: { total: 3, count: 3 } }, null, 1)));
    answer = async (res) => {
      for (let at = 0; at < body.length; at += 50) await write(res, body.subarray(at, at + 50));
      res.end();
    };
    const e = await rejection(
      (async () => {
        for await (const _part of stream());
      })(),
    );
    expect(e.kind).toBe('protocol');
    expect(e.message).toBe(
      'The service accepted the request to list the campaigns of acmeshoes but its answer could not be read. Refresh to see the result.',
    );
  });

  it('refuses a campaign larger than 1 MB, in words', async () => {
    const huge = { ...campaign(1), name: 'x'.repeat(3 * 1024 * 1024) };
    const body = Buffer.from(JSON.stringify({ results: [campaign(0), huge], metadata: { total: 2, count: 2 } }));
    answer = async (res) => {
      for (let at = 0; at < body.length; at += 64 * 1024) await write(res, body.subarray(at, at + 64 * 1024));
      res.end();
    };
    const e = await rejection(
      (async () => {
        for await (const _part of stream());
      })(),
    );
    expect(e.message).toMatch(/could not be read: one record in it is larger than 1 MB, which no campaign or task is\./);
  });
});
