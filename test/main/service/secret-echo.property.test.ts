// A token endpoint (or any server) that echoes what we sent, in any shape: encodings nested at
// random, cut, split across errors[] items, case changed. Whatever it does, no piece of the secret
// (FRAGMENT characters in a row) reaches an error the app keeps or shows. The oracle is independent
// of the code under test: it undoes the echo's own encodings, in reverse, and looks for pieces.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../../src/main/service/response-errors';
import { FRAGMENT } from '../../../src/main/service/secret-fragments';

type Layer = 'url' | 'form' | 'json' | 'base64' | 'base64url' | 'html' | 'upper' | 'lower';

const ENCODE: Record<Layer, (s: string) => string> = {
  url: encodeURIComponent,
  form: (s) => new URLSearchParams({ v: s }).toString().slice(2),
  json: (s) => JSON.stringify(s).slice(1, -1),
  base64: (s) => Buffer.from(s, 'utf8').toString('base64'),
  base64url: (s) => Buffer.from(s, 'utf8').toString('base64url'),
  html: (s) => s.replace(/[^A-Za-z0-9 ]/g, (c) => `&#${c.codePointAt(0)};`),
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
};

/** The oracle's own inverse of each layer, applied to whatever text came out (best effort). */
const DECODE: Record<Layer, (s: string) => string> = {
  url: (s) => safe(() => decodeURIComponent(s.replace(/%(?![0-9a-fA-F]{2})/g, '%25'))) ?? s,
  form: (s) => safe(() => decodeURIComponent(s.replace(/\+/g, ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'))) ?? s,
  json: (s) => s.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\(.)/g, '$1'),
  base64: (s) => s.replace(/[A-Za-z0-9+/]{8,}={0,2}/g, (r) => Buffer.from(r, 'base64').toString('latin1')),
  base64url: (s) => s.replace(/[A-Za-z0-9_-]{8,}/g, (r) => Buffer.from(r, 'base64url').toString('latin1')),
  html: (s) => s.replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d))),
  upper: (s) => s,
  lower: (s) => s,
};

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

const pieces = (secret: string) =>
  Array.from({ length: secret.length - FRAGMENT + 1 }, (_, i) => secret.slice(i, i + FRAGMENT).toLowerCase());

/** Whether `text`, read back through the echo's layers, still holds a piece of the secret. */
function oracleFinds(text: string, secret: string, layers: readonly Layer[]): boolean {
  let t = text;
  const readings = [t];
  for (const layer of [...layers].reverse()) {
    t = DECODE[layer](t);
    readings.push(t);
  }
  return readings.some((r) => pieces(secret).some((p) => r.toLowerCase().includes(p)));
}

const secretArb = fc.string({
  unit: fc.constantFrom(...'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_.~!*+ %&=;"<>/'.split('')),
  minLength: 16,
  maxLength: 48,
});
const layersArb = fc.array(fc.constantFrom<Layer>('url', 'form', 'json', 'base64', 'base64url', 'html', 'upper', 'lower'), {
  minLength: 0,
  maxLength: 3,
});

const echoArb = fc.record({
  secret: secretArb,
  layers: layersArb,
  // Which part of the form body is echoed (a cut may fall inside the secret).
  cut: fc.tuple(fc.nat(), fc.nat()),
  where: fc.constantFrom('error_description', 'message', 'detail', 'errors', 'errors-split', 'title'),
  status: fc.constantFrom(400, 401, 403, 422, 500),
});

describe('no piece of a secret in what the app keeps from an answer, whatever the echo', () => {
  it('holds for generated echo shapes (encodings nested at random, cuts, splits, case changes)', () => {
    fc.assert(
      fc.property(echoArb, ({ secret, layers, cut, where, status }) => {
        const form = `grant_type=client_credentials&client_id=desk&client_secret=${secret}`;
        const start = cut[0] % form.length;
        const end = Math.min(form.length, start + FRAGMENT + (cut[1] % form.length));
        let echoed = form.slice(start, end);
        for (const layer of layers) echoed = ENCODE[layer](echoed);
        const third = Math.max(1, Math.floor(echoed.length / 3));
        const body =
          where === 'errors'
            ? { errors: [{ message: `bad request ${echoed}` }] }
            : where === 'errors-split'
              ? {
                  errors: [echoed.slice(0, third), echoed.slice(third, 2 * third), echoed.slice(2 * third)].map((m) => ({
                    message: m,
                    field: 'client_secret',
                  })),
                }
              : { error: 'invalid_client', [where]: `Client authentication failed (request: ${echoed})` };
        const err = errorFromResponse(
          { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) },
          { what: 'get an access token', secrets: [secret], clientId: 'desk', now: 0 },
        );
        // The space that joins the echo to the words around it (the service's "request: ", "bad
        // request ", the app's "client_secret: ") is not the echo's: a piece the oracle reads across
        // it (" aaaaaaa" of a secret holding "a aaaaaaa") is seven characters of the echo and one of
        // the template. '|' is outside the secrets' alphabet.
        const kept = JSON.stringify({ message: err.message, json: err.toJSON() }).replace(/(request:?|client_secret:) /g, '$1|');
        expect(oracleFinds(kept, secret, layers), kept).toBe(false);
      }),
      // A fixed seed in CI, so a run is the same on every machine; SECRET_ECHO_SEED=random explores.
      // The examples are what random runs once reported: the oracle had read the space of a join
      // as the secret's (the app kept seven characters of it: right).
      {
        numRuns: 1500,
        examples: [
          [{ secret: 'aaaaaaaaa=a aaaaaaa', layers: ['url', 'base64'], cut: [137517257, 1310722], where: 'errors-split', status: 400 }],
          [
            {
              secret: 'aaaaaaaaaaaaaaaaaaaaaaaaaa aaaaaaa',
              layers: ['base64'],
              cut: [1760421638, 0],
              where: 'error_description',
              status: 400,
            },
          ],
        ],
        ...(process.env.SECRET_ECHO_SEED === 'random' ? {} : { seed: Number(process.env.SECRET_ECHO_SEED ?? 42) }),
      },
    );
  });

  it('still shows what the service said when it carries no piece of the secret', () => {
    const err = errorFromResponse(
      {
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ error: 'invalid_client', error_description: 'Client authentication failed' })),
      },
      { what: 'get an access token', secrets: ['s3cr3t-value-long-enough'], clientId: 'desk', now: 0 },
    );
    expect(err.message).toContain('invalid_client: Client authentication failed');
  });
});
