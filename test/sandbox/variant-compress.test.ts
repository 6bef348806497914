// Variant compress: answers of the campaign and push APIs in a content coding the request accepts
// (RFC 9110 8.4: a server may code a body; 12.5.3: it respects Accept-Encoding).
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { controlHeaders, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

async function raw(path: string, acceptEncoding?: string) {
  const res = await request(`${sb.url}${path}`, {
    headers: { authorization: `Bearer ${token}`, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
  });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

const play = (variants: Record<string, unknown>) =>
  request(`${sb.url}/_sandbox/variants`, {
    method: 'PUT',
    headers: { ...controlHeaders(sb, '/_sandbox/variants'), 'content-type': 'application/json' },
    body: JSON.stringify(variants),
  }).then((r) => r.body.text());

describe('compress', () => {
  it.each([
    ['gzip', gunzipSync],
    ['deflate', inflateSync],
    ['br', brotliDecompressSync],
  ] as const)('codes answers in %s when the request accepts it', async (coding, decode) => {
    const plain = await raw('/epsilon/task?tagId=1001', 'gzip, deflate, br');
    expect(plain.headers['content-encoding']).toBeUndefined();
    await play({ compress: coding });
    const coded = await raw('/epsilon/task?tagId=1001', 'gzip, deflate, br');
    expect(coded.headers['content-encoding']).toBe(coding);
    expect(decode(coded.body).toString()).toBe(plain.body.toString());
    // Errors too.
    const err = await raw('/epsilon/task', 'gzip, deflate, br');
    expect(err.status).toBe(400);
    expect(JSON.parse(decode(err.body).toString())).toEqual({ httpStatus: 400, message: 'tagId is required' });
  });

  it('applies two codings in sequence and names them in that order', async () => {
    const plain = await raw('/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP');
    await play({ compress: 'deflate,gzip' });
    const coded = await raw('/core/api/1.0/acmeshoes/campaigns?fetch_level=RAP', 'gzip, deflate');
    expect(coded.headers['content-encoding']).toBe('deflate, gzip');
    expect(inflateSync(gunzipSync(coded.body)).toString()).toBe(plain.body.toString());
  });

  it('sends the body as it is to a request that does not accept the coding', async () => {
    await play({ compress: 'br' });
    for (const accept of [undefined, 'gzip', 'br;q=0, gzip', 'identity']) {
      const r = await raw('/epsilon/task?tagId=1001', accept);
      expect(r.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(Array.isArray(JSON.parse(r.body.toString()))).toBe(true);
    }
    expect((await raw('/epsilon/task?tagId=1001', '*')).headers['content-encoding']).toBe('br');
  });
});
