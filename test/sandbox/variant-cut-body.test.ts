// The cut_body variant: a listing answer of more than N rows loses its connection mid-body (a
// network may drop any answer; the interface sets no size limit).
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';
import { LISTED_ACCOUNT, listingFixtures } from './listing-fixtures';

let sb: RunningSandbox;
let token: string;
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => listingFixtures(150),
);

const get = (query: string) =>
  request(`${sb.url}/core/api/1.0/${LISTED_ACCOUNT}/campaigns?fetch_level=RAP${query}`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((r) => r.body.text());

describe('cut_body', () => {
  it('is off by default: the whole answer arrives', async () => {
    expect((JSON.parse(await get('')) as { results: unknown[] }).results).toHaveLength(100);
  });

  it('cuts an answer of more rows than N mid-body; a smaller one arrives whole', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { cut_body: 40 } })).status).toBe(200);
    await expect(get('')).rejects.toThrow();
    expect((JSON.parse(await get('&page=1&page_size=40')) as { results: unknown[] }).results).toHaveLength(40);
  });
});
