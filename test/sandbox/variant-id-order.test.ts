// The id_order variant: the interface promises no order of ids (spec 2.1 "identifier", 2.6), so a
// service may give a new campaign or task an id below older ones, or anywhere.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, pushEvent, sandboxPerFile, tokenFor } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const play = async (id_order: string, seed = 1) =>
  expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { id_order, seed } })).status).toBe(200);
const createIds = async (n: number) => {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ name: `New ${i}` }) });
    expect(r.status).toBe(200);
    ids.push((r.body as { id: number }).id);
  }
  return ids;
};
const allIds = async () =>
  ((await call(sb, 'GET', '/_sandbox/state/campaigns')).body as { campaigns: { id: number }[] }).campaigns.map((c) => c.id);
const taskIds = async () =>
  ((await call(sb, 'GET', '/_sandbox/state/tasks')).body as { tasks: { taskId: number }[] }).tasks.map((t) => t.taskId);

describe('id_order', () => {
  it('is ascending by default: each new id is above every older one', async () => {
    const before = Math.max(...(await allIds()));
    const ids = await createIds(3);
    expect(ids).toEqual([before + 1, before + 2, before + 3]);
  });

  it('"descending": each new campaign and task id is below every older one', async () => {
    await play('descending');
    const lowest = Math.min(...(await allIds()));
    expect(await createIds(3)).toEqual([lowest - 1, lowest - 2, lowest - 3]);
    const lowestTask = Math.min(...(await taskIds()));
    const ev = pushEvent({ target: { include: { apps: ['1001', '1002'] } } });
    expect((await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [ev] } })).status).toBe(200);
    expect((await taskIds()).filter((id) => id < lowestTask).sort()).toEqual([lowestTask - 2, lowestTask - 1]);
    // Listed by id on request, and found by id.
    const r = await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP&sort=id,desc', { token });
    const listed = (r.body as { results: { id: string }[] }).results.map((c) => Number(c.id));
    expect(listed).toEqual([...listed].sort((a, b) => b - a));
    // The new ids were stored after the older ones: sorted on request, not as held.
    const up = await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP&sort=id,asc', { token });
    const ascending = (up.body as { results: { id: string }[] }).results.map((c) => Number(c.id));
    expect(ascending).toEqual([...listed].reverse());
  });

  it('"random": new ids anywhere not taken, the same for the same seed', async () => {
    await play('random', 7);
    const before = await allIds();
    const first = await createIds(5);
    expect(new Set([...before, ...first]).size).toBe(before.length + 5);
    expect(first.some((id) => id < Math.max(...before))).toBe(true);
    await call(sb, 'POST', '/_sandbox/reset');
    await play('random', 7);
    token = await tokenFor(sb);
    expect(await createIds(5)).toEqual(first);
  });
});
