import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, pushEvent, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const fault = async (spec: Record<string, unknown>) => {
  const r = await call(sb, 'POST', '/_sandbox/faults', { json: spec });
  expect(r.status, r.text).toBe(201);
  return (r.body as { id: number }).id;
};
const createIn = (account: string) => call(sb, 'POST', `/core/api/1.0/${account}/campaigns/`, { token, json: nativeCampaign() });
const createdIn = async (account: string) =>
  // Fixture campaign ids end at 4100012; anything above was created by a request.
  ((await call(sb, 'GET', `/_sandbox/state/campaigns?account=${account}`)).body as { campaigns: { id: number }[] }).campaigns.filter(
    (c) => c.id > 4100012,
  ).length;
const lastLog = async () =>
  ((await call(sb, 'GET', '/_sandbox/requests')).body as { requests: Record<string, unknown>[] }).requests.at(-1)!;

describe('faults', () => {
  it('close_before drops the connection without applying the request', async () => {
    await fault({ method: 'POST', path_prefix: '/core/api/1.0/oldtimerltd/campaigns', mode: 'close_before' });
    await expect(createIn('oldtimerltd')).rejects.toThrow();
    expect(await createdIn('oldtimerltd')).toBe(0);
    expect(await lastLog()).toMatchObject({ method: 'POST', status: null, outcome: 'fault_close_before' });
    expect((await createIn('oldtimerltd')).status).toBe(200);
  });

  it('close_after applies the request fully (and counts it) but the client sees a socket error', async () => {
    await fault({ method: 'POST', path_prefix: '/core/api/1.0/acmeshoes/campaigns', mode: 'close_after' });
    await expect(createIn('acmeshoes')).rejects.toThrow();
    expect(await createdIn('acmeshoes')).toBe(1);
    expect(await lastLog()).toMatchObject({ status: 200, outcome: 'fault_close_after', limited: true });
    const next = await createIn('acmeshoes');
    expect(next.headers.ratelimit).toBe('second;r=8;t=1, minute;r=58;t=60, hour;r=598;t=3600');
  });

  it('status_500 answers 500 in the API shape without applying or counting', async () => {
    await fault({ path_prefix: '/core/api/1.0/acmeshoes', mode: 'status_500' });
    await fault({ path_prefix: '/epsilon/push', mode: 'status_500' });
    const r = await createIn('acmeshoes');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ http_status: 500, message: 'Internal server error' });
    expect(await createdIn('acmeshoes')).toBe(0);
    expect(await lastLog()).toMatchObject({ status: 500, outcome: 'fault_500' });
    const p = await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent()] } });
    expect(p.body).toEqual({ httpStatus: 500, message: 'Internal server error' });
    expect((await createIn('acmeshoes')).headers.ratelimit).toBe('second;r=9;t=1, minute;r=59;t=60, hour;r=599;t=3600');
  });

  it('status_503 answers 503 with the Retry-After asked for (seconds, or a date under retry_after_date), applying nothing', async () => {
    await fault({ path_prefix: '/core/api/1.0/acmeshoes', mode: 'status_503', retry_after: 120 });
    const r = await createIn('acmeshoes');
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('120');
    expect(r.body).toEqual({ http_status: 503, message: 'Service unavailable' });
    expect(await createdIn('acmeshoes')).toBe(0);
    expect(await lastLog()).toMatchObject({ status: 503, outcome: 'fault_503' });
    await fault({ path_prefix: '/epsilon/push', mode: 'status_503' });
    const p = await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent()] } });
    expect(p.status).toBe(503);
    expect(p.headers['retry-after']).toBeUndefined();
    await call(sb, 'PUT', '/_sandbox/variants', { json: { retry_after_date: true } });
    await fault({ path_prefix: '/core/api/1.0/acmeshoes', mode: 'status_503', retry_after: 60 });
    const dated = await createIn('acmeshoes');
    expect(Date.parse(dated.headers['retry-after']) - Date.parse(dated.headers.date)).toBe(60_000);
    const refused = await call(sb, 'POST', '/_sandbox/faults', { json: { mode: 'status_500', retry_after: 5 } });
    expect(refused.status).toBe(400);
  });

  it('delay holds the request for delay_ms of real time, then handles it normally (the next one is not held)', async () => {
    // The delay is real time by design, so its lower bound is what it promises (a slow machine only
    // makes it longer). That the next request is not held is read from the sandbox, not timed.
    await fault({ method: 'GET', path_prefix: '/epsilon/push/auth-apps', mode: 'delay', delay_ms: 800 });
    const started = performance.now();
    const r = await call(sb, 'GET', '/epsilon/push/auth-apps', { token });
    expect(performance.now() - started).toBeGreaterThanOrEqual(790);
    expect(r.status).toBe(200);
    expect((await call(sb, 'GET', '/_sandbox/faults')).body).toEqual({ faults: [] });
    expect((await call(sb, 'GET', '/epsilon/push/auth-apps', { token })).status).toBe(200);
  });

  it('applies to the next count matching requests only, by method and path prefix', async () => {
    await fault({ method: 'POST', path_prefix: '/core/api/1.0/oldtimerltd', mode: 'status_500', count: 2 });
    expect((await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns', { token })).status).toBe(200);
    expect((await createIn('oldtimerltd')).status).toBe(500);
    expect(((await call(sb, 'GET', '/_sandbox/faults')).body as { faults: { remaining: number }[] }).faults[0].remaining).toBe(1);
    expect((await createIn('oldtimerltd')).status).toBe(500);
    expect((await createIn('oldtimerltd')).status).toBe(200);
    expect((await call(sb, 'GET', '/_sandbox/faults')).body).toEqual({ faults: [] });
  });

  it('lists, deletes one, and clears faults; never touches the control API', async () => {
    const a = await fault({ mode: 'status_500', count: 5 });
    const b = await fault({ mode: 'close_before', path_prefix: '/epsilon' });
    const listed = (await call(sb, 'GET', '/_sandbox/faults')).body as { faults: Record<string, unknown>[] };
    expect(listed.faults).toEqual([
      { id: a, method: null, path_prefix: '/', mode: 'status_500', remaining: 5, delay_ms: null, retry_after: null },
      { id: b, method: null, path_prefix: '/epsilon', mode: 'close_before', remaining: 1, delay_ms: null, retry_after: null },
    ]);
    expect((await call(sb, 'GET', '/_sandbox/clock')).status).toBe(200);
    expect((await call(sb, 'DELETE', `/_sandbox/faults/${a}`)).status).toBe(200);
    expect((await call(sb, 'DELETE', `/_sandbox/faults/${a}`)).status).toBe(404);
    expect((await call(sb, 'DELETE', '/_sandbox/faults')).status).toBe(200);
    expect((await createIn('oldtimerltd')).status).toBe(200);
  });

  it.each([
    [{ mode: 'explode' }],
    [{ mode: 'delay' }],
    [{ mode: 'status_500', delay_ms: 10 }],
    [{ mode: 'status_500', count: 0 }],
    [{ mode: 'status_500', path_prefix: 'core' }],
    [{ mode: 'status_500', paths: '/' }],
  ])('refuses the fault %j with 400', async (spec) => {
    const r = await call(sb, 'POST', '/_sandbox/faults', { json: spec });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String) });
  });

  it('keeps serving other connections after a dropped one', async () => {
    await fault({ mode: 'close_before', path_prefix: '/epsilon/push/auth-apps' });
    const dropped = request(`${sb.url}/epsilon/push/auth-apps`, { headers: { authorization: `Bearer ${token}` } });
    await expect(dropped).rejects.toThrow();
    expect((await call(sb, 'GET', '/epsilon/push/auth-apps', { token })).status).toBe(200);
  });
});
