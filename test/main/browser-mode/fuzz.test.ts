import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../../src/main/browser-mode/server';
import { ERROR_CODES } from '../../../src/shared/errors';
import { anyChannel, brokenField, channelAndPayload, channelWithFields, nonObject, realChannel } from '../../helpers/fuzz-arbitraries';
import { createManualEvents, createTransportTable, type TransportTable } from '../../helpers/transport-handlers';
import { apiCall } from './http-client';

let dir: string;
let server: BrowserServer;
let table: TransportTable;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-fuzz-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  table = createTransportTable();
  server = await startBrowserServer({ handlers: table.handlers, events: createManualEvents(), staticDir: dir, log: () => undefined });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function typedError(body: unknown, code?: string): boolean {
  const o = body as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
  return (
    o.ok === false &&
    (ERROR_CODES as readonly unknown[]).includes(o.error?.code) &&
    typeof o.error?.message === 'string' &&
    (code === undefined || o.error?.code === code)
  );
}

describe('contract fuzzing over browser mode HTTP (real server, transport-test handler table)', () => {
  it('random bytes as a body get a typed invalid_input error (never a 5xx), and nothing runs', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyChannel,
        fc.oneof(
          fc.string(),
          fc.uint8Array().map((a) => Buffer.from(a).toString('latin1')),
        ),
        async (channel, body) => {
          const r = await apiCall(server.port, server.token, channel, body.startsWith('{') ? body : `${body}\u0000`);
          expect(r.status).toBeLessThan(500);
          expect(typedError(r.json(), 'invalid_input')).toBe(true);
          expect(table.calls).toEqual([]);
        },
      ),
      // A channel of dot segments once reached the static files (URL parsing resolved "/api/.."): run first every time.
      {
        numRuns: 120,
        examples: [
          ['..', ''],
          ['.', ''],
          ['a/../..', ''],
        ],
      },
    );
  });

  it('non-object JSON and impossible field types are invalid_input on every channel, and nothing runs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.tuple(realChannel, nonObject),
          channelWithFields.chain((c) => fc.tuple(fc.constant(c), brokenField(c))),
        ),
        async ([channel, payload]) => {
          const r = await apiCall(server.port, server.token, channel, JSON.stringify(payload));
          expect(r.status).toBe(200);
          expect(typedError(r.json(), 'invalid_input')).toBe(true);
          expect(table.calls).toEqual([]);
          expect(table.profiles).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('mutations of valid payloads get a typed Result, and a handler runs only when the input was accepted', async () => {
    await fc.assert(
      fc.asyncProperty(channelAndPayload, async ([channel, payload]) => {
        const before = table.calls.length;
        // JSON cannot carry undefined/-0/NaN faithfully; what the server sees is what JSON makes of it.
        const r = await apiCall(server.port, server.token, channel, JSON.stringify(payload) ?? 'null');
        const body = r.json() as { ok: boolean; error?: { code: string } };
        expect(body.ok === true || typedError(body)).toBe(true);
        const ran = table.calls.length - before;
        if (!body.ok && body.error?.code === 'invalid_input') expect(ran).toBe(0);
        else expect(ran).toBe(1);
      }),
      { numRuns: 150 },
    );
  });
});
