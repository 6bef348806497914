// The late_apply_ms variant: a write whose connection a close_after fault dropped is not applied
// before the drop but N ms later on the sandbox clock, so a client that looks for its lost write at
// once does not find it yet.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox, type Variants } from '../../src/sandbox/index';
import { call, DAY, nativeCampaign, pushEvent, sandboxPerFile, T0, testFixtures, tokenFor } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const play = async (variants: Variants) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
const dropNext = async (target: RunningSandbox, method: string, pathPrefix: string) =>
  expect((await call(target, 'POST', '/_sandbox/faults', { json: { method, path_prefix: pathPrefix, mode: 'close_after' } })).status).toBe(
    201,
  );
/** Campaigns created through the API (fixture ids end at 4100012). */
const created = async (target: RunningSandbox) =>
  (
    (await call(target, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd')).body as { campaigns: Record<string, unknown>[] }
  ).campaigns.filter((c) => (c.id as number) > 4100012);
const task = async (id: number) =>
  ((await call(sb, 'GET', '/_sandbox/state/tasks?app=1001')).body as { tasks: Record<string, unknown>[] }).tasks.find(
    (t) => t.taskId === id,
  )!;
const log = async () => ((await call(sb, 'GET', '/_sandbox/requests')).body as { requests: Record<string, unknown>[] }).requests;
const createDropped = (target: RunningSandbox, t: string) =>
  call(target, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token: t, json: nativeCampaign({ name: 'Lost answer' }) });

describe('late_apply_ms on a manual clock', () => {
  it('applies a dropped create only once the clock reaches its time, stamped with that time', async () => {
    await play({ late_apply_ms: 1500 });
    await dropNext(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns');
    await expect(createDropped(sb, token)).rejects.toThrow();
    expect(await created(sb)).toEqual([]);
    // Looking for it at once (as a client recovering a lost create does) finds nothing yet.
    const listed = await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP', { token });
    expect((listed.body as { results: { name: string }[] }).results.map((c) => c.name)).not.toContain('Lost answer');
    sb.advance(1499);
    expect(await created(sb)).toEqual([]);
    sb.advance(1);
    expect(await created(sb)).toEqual([expect.objectContaining({ name: 'Lost answer', created_at: new Date(T0 + 1500).toISOString() })]);
    const entries = (await log()).filter((e) => e.method === 'POST' && String(e.path).startsWith('/core/api/'));
    expect(entries.map((e) => [e.status, e.outcome, e.time])).toEqual([
      [null, 'fault_close_after', T0],
      [200, 'late_applied', T0 + 1500],
    ]);
  });

  it('applies it when the control API moves the clock past its time, and on the next request', async () => {
    await play({ late_apply_ms: 1000 });
    await dropNext(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns');
    await expect(createDropped(sb, token)).rejects.toThrow();
    await call(sb, 'POST', '/_sandbox/clock', { json: { advance_ms: 5000 } });
    expect(await created(sb)).toHaveLength(1);
    // A second one, found by the next API request after the clock passed its time.
    await dropNext(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns');
    await expect(createDropped(sb, token)).rejects.toThrow();
    await call(sb, 'POST', '/_sandbox/clock', { json: { set: new Date(T0 + 7000).toISOString() } });
    const listed = await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP', { token });
    expect((listed.body as { results: { name: string }[] }).results.filter((c) => c.name === 'Lost answer')).toHaveLength(2);
  });

  it('holds back task updates and cancellations too, and judges them when they are applied', async () => {
    await play({ late_apply_ms: 60_000 });
    await dropNext(sb, 'PATCH', '/epsilon/task/900001');
    await expect(
      call(sb, 'PATCH', '/epsilon/task/900001', { token, json: { title: 'Moved', performer: 'chief@example.com' } }),
    ).rejects.toThrow();
    expect((await task(900001)).title).toBe('Morning briefing: five stories');
    sb.advance(60_000);
    expect(await task(900001)).toMatchObject({ title: 'Moved', taskUpdateTime: T0 + 60_000 });
    // A cancellation that only lands after the task's time has come is refused then: nothing changes.
    sb.advance(DAY - 2 * 60_000);
    token = await tokenFor(sb);
    await dropNext(sb, 'DELETE', '/epsilon/task/900001');
    await expect(call(sb, 'DELETE', '/epsilon/task/900001', { token })).rejects.toThrow();
    sb.advance(60_000);
    expect(await task(900001)).toMatchObject({ taskStatus: 'completed' });
    expect((await log()).at(-1)).toMatchObject({ method: 'DELETE', status: 400, outcome: 'late_applied' });
  });

  it('applies reads and sends without the fault at once, and a reset forgets a write not yet applied', async () => {
    await play({ late_apply_ms: 1000 });
    expect((await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent()] } })).status).toBe(200);
    await dropNext(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns');
    await expect(createDropped(sb, token)).rejects.toThrow();
    await call(sb, 'POST', '/_sandbox/reset');
    sb.advance(5000);
    expect(await created(sb)).toEqual([]);
  });

  it('without the variant a close_after write is applied before the connection drops', async () => {
    await dropNext(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns');
    await expect(createDropped(sb, token)).rejects.toThrow();
    expect(await created(sb)).toHaveLength(1);
  });
});

describe('late_apply_ms on a real clock', () => {
  let real: RunningSandbox | undefined;
  afterEach(() => real?.close());

  it('applies the write by itself once its time has passed', async () => {
    real = await startSandbox({ fixtures: testFixtures(), variants: { late_apply_ms: 1000 } });
    const t = await tokenFor(real);
    await dropNext(real, 'POST', '/core/api/1.0/oldtimerltd/campaigns');
    await expect(createDropped(real, t)).rejects.toThrow();
    expect(await created(real)).toEqual([]);
    // No request arrives to apply it: the sandbox's own timer must.
    const target = real;
    await vi.waitFor(async () => expect(await created(target)).toHaveLength(1), { timeout: 10_000, interval: 100 });
  });
});
