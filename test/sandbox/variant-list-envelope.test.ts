// list_envelope: the campaign listing's envelope (spec 2.2) in another legal shape.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox, Variants } from '../../src/sandbox/index';
import { approvedCampaigns, idsFrom } from '../helpers/fixtures';
import { call, sandboxPerFile, testFixtures } from '../helpers/sandbox';

/** Two approved campaigns in the unlimited account oldtimerltd (so listings never meet a rate limit). */
function fixtures() {
  const f = testFixtures();
  f.campaigns!.push(...approvedCampaigns('oldtimerltd', [4200001, 4200002], (id) => `Campaign ${id}`));
  // More rows than the sandbox builds whole (100): the unpaged listing of all of them is streamed.
  f.campaigns!.push(...approvedCampaigns('oldtimerltd', idsFrom(4210001, 120), (_, i) => `Many ${i + 1}`));
  return f;
}

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)), fixtures);

const play = async (variants: Variants) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
const TWO = 'campaign_ids=4200001&campaign_ids=4200002';
/**
 * oldtimerltd's listing (unlimited): its first two campaigns; `none` asks for an id it does not
 * have, so the answer is empty; `many` asks for all 122, an answer that is streamed.
 */
const list = async (none = false, many = false) => {
  const r = await call(
    sb,
    'GET',
    `/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP${none ? '&campaign_ids=1' : many ? '' : `&${TWO}`}`,
    { token },
  );
  expect(r.status, r.text).toBe(200);
  return { text: r.text, body: r.body as Record<string, unknown> };
};

describe('list_envelope', () => {
  it('by default: results, then metadata with numbers; an empty results is []', async () => {
    const full = await list();
    expect(Object.keys(full.body)).toEqual(['results', 'metadata']);
    expect(full.body.metadata).toMatchObject({ total: expect.any(Number), count: expect.any(Number) });
    expect((await list(true)).body).toEqual({ results: [], metadata: { total: 0, count: 0, page: 1, page_size: 0 } });
  });

  it('metadata_first: the metadata comes before the results', async () => {
    await play({ list_envelope: 'metadata_first' });
    const { text, body } = await list();
    expect(Object.keys(body)).toEqual(['metadata', 'results']);
    expect(text.startsWith('{"metadata":')).toBe(true);
  });

  it('null_empty: an empty results is null; one with rows is an array', async () => {
    await play({ list_envelope: 'null_empty' });
    expect((await list(true)).body).toEqual({ results: null, metadata: { total: 0, count: 0, page: 1, page_size: 0 } });
    expect(Array.isArray((await list()).body.results)).toBe(true);
  });

  it('omit_empty: an empty results is left out', async () => {
    await play({ list_envelope: 'omit_empty' });
    expect((await list(true)).body).toEqual({ metadata: { total: 0, count: 0, page: 1, page_size: 0 } });
  });

  it('text_counts: the metadata numbers are text', async () => {
    await play({ list_envelope: 'text_counts' });
    const { body } = await list();
    const n = (body.results as unknown[]).length;
    expect(n).toBe(2);
    expect(body.metadata).toEqual({ total: '2', count: '2', page: '1', page_size: '2' });
  });

  it('every shape also on a listing of more than 100 rows, which is streamed', async () => {
    await play({ list_envelope: 'metadata_first' });
    expect((await list(false, true)).text.startsWith('{"metadata":')).toBe(true);
    await play({ list_envelope: 'text_counts' });
    const counted = await list(false, true);
    expect((counted.body.results as unknown[]).length).toBe(122);
    expect(counted.body.metadata).toEqual({ total: '122', count: '122', page: '1', page_size: '122' });
    await play({ list_envelope: 'no_count' });
    expect((await list(false, true)).body.metadata).toEqual({ total: 122, page: 1, page_size: 122 });
  });

  it('no_count: the metadata has no count', async () => {
    await play({ list_envelope: 'no_count', decimal_point: true });
    const { body } = await list();
    expect(body.metadata).not.toHaveProperty('count');
    expect(body.metadata).toHaveProperty('total', (body.results as unknown[]).length);
  });
});
