// The refuse_sort variant: spec 4.2 names the fields commonly sorted (not id) and says complex
// fields cannot be sorted; a service may refuse a sort it does not support with a 400.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const list = (query: string) => call(sb, 'GET', `/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP${query}`, { token });
const play = async (refuse_sort: string) =>
  expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { refuse_sort } })).status).toBe(200);

describe('refuse_sort', () => {
  it('is off by default: sort by id is served', async () => {
    expect((await list('&sort=id,desc')).status).toBe(200);
  });

  it('"id" refuses a sort by id with the API error body, and serves other sorts and unsorted listings', async () => {
    await play('id');
    const r = await list('&sort=id,desc&page=1&page_size=10');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ http_status: 400, message: 'Sorting by id is not supported' });
    expect((await list('&sort=name,asc')).status).toBe(200);
    expect((await list('')).status).toBe(200);
  });

  it('"all" refuses every sort', async () => {
    await play('all');
    expect((await list('&sort=name,asc')).status).toBe(400);
    expect((await list('')).status).toBe(200);
  });
});
