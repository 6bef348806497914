// The listing_lag_ms variant: a listing is not a snapshot of the moment it is read (DECISIONS client
// 15); a service may show a new campaign or task only some time after it was created.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, pushEvent, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const LAG = 8_000;
const listedIds = async (query = '') => {
  const r = await call(sb, 'GET', `/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP${query}`, { token });
  expect(r.status).toBe(200);
  const body = r.body as { results: { id: string }[]; metadata: { total: number } };
  return { ids: body.results.map((c) => Number(c.id)), total: body.metadata.total };
};
const taskTitles = async () =>
  ((await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as { title: string }[]).map((t) => t.title);

describe('listing_lag_ms', () => {
  it('is off by default: a new campaign is listed at once', async () => {
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign() });
    expect((await listedIds()).ids).toContain((r.body as { id: number }).id);
  });

  it('lists a new campaign (also by id) and a new task only N ms after their creation', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { listing_lag_ms: LAG } })).status).toBe(200);
    const before = await listedIds();
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ name: 'Lagging' }) });
    const id = (r.body as { id: number }).id;
    expect((await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent({ title: 'Lagging push' })] } })).status).toBe(
      200,
    );
    sb.advance(LAG - 1);
    expect(await listedIds()).toEqual(before);
    expect((await listedIds(`&campaign_ids=${id}`)).ids).toEqual([]);
    expect(await taskTitles()).not.toContain('Lagging push');
    // The service holds it all along (control API).
    expect(
      ((await call(sb, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd')).body as { campaigns: { id: number }[] }).campaigns.map(
        (c) => c.id,
      ),
    ).toContain(id);
    sb.advance(1);
    expect(await listedIds()).toEqual({ ids: [...before.ids, id], total: before.total + 1 });
    expect(await taskTitles()).toContain('Lagging push');
  });
});
