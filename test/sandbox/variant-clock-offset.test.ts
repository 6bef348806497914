// The clock_offset_ms variant: the service's clock runs ahead of (or behind) the computer's, here
// the sandbox clock the test holds. Everything the service judges in time must use its own clock,
// and the Date header is how a client can know it (DECISIONS client 10).
import { describe, expect, it } from 'vitest';
import type { RunningSandbox, Variants } from '../../src/sandbox/index';
import { call, DAY, nativeCampaign, pushEvent, sandboxPerFile, T0, testFixtures, tokenFor } from '../helpers/sandbox';

const MINUTE = 60_000;
const REDIRECT = 'http://127.0.0.1:53682/callback';

let sb: RunningSandbox;
let token: string;
// Generous list quotas: this file is about time, not rate limits.
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => ({ ...testFixtures(), rate_limits: { tiers: { '4': { read: [1000, 10000, 100000], write: [1000, 10000, 100000] } } } }),
);

const play = async (variants: Variants) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
const scheduleAt = (executionTime: number) =>
  call(sb, 'POST', '/epsilon/push/scheduled', { token, json: { pushEvents: [pushEvent({ executionTime })] } });
const tasksOf1001 = async () => (await call(sb, 'GET', '/epsilon/task?tagId=1001', { token })).body as Record<string, unknown>[];

describe('clock_offset_ms: what a client sees', () => {
  it('the Date header carries the service clock, not the computer clock', async () => {
    const plain = await call(sb, 'GET', '/epsilon/push/auth-apps', { token });
    expect(Date.parse(plain.headers.date)).toBe(T0);
    await play({ clock_offset_ms: 10 * MINUTE });
    const ahead = await call(sb, 'GET', '/epsilon/push/auth-apps', { token });
    expect(Date.parse(ahead.headers.date)).toBe(T0 + 10 * MINUTE);
    sb.advance(90_000);
    expect(Date.parse((await call(sb, 'GET', '/epsilon/push/auth-apps', { token })).headers.date)).toBe(T0 + 11.5 * MINUTE);
  });

  it('a push scheduled 2 minutes ahead by the computer clock is refused when the service is 10 minutes ahead', async () => {
    await play({ clock_offset_ms: 10 * MINUTE });
    const r = await scheduleAt(T0 + 2 * MINUTE);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ httpStatus: 400, message: 'executionTime must be in the future for scheduled push' });
    // Ahead of the service's clock (the Date header's time) it is taken.
    expect((await scheduleAt(T0 + 12 * MINUTE)).status).toBe(200);
  });

  it('a push 2 minutes in the past by the computer clock can be scheduled on a service 10 minutes behind', async () => {
    expect((await scheduleAt(T0 - 2 * MINUTE)).status).toBe(400);
    await play({ clock_offset_ms: -10 * MINUTE });
    expect((await scheduleAt(T0 - 2 * MINUTE)).status).toBe(200);
  });
});

describe('clock_offset_ms: every time the service judges or writes is on its clock', () => {
  it('immediate pushes and new campaigns are stamped with service time', async () => {
    await play({ clock_offset_ms: 7 * MINUTE });
    expect((await call(sb, 'POST', '/epsilon/push', { token, json: { pushEvents: [pushEvent()] } })).status).toBe(200);
    expect((await tasksOf1001()).at(-1)).toMatchObject({ executionTime: T0 + 7 * MINUTE, taskUpdateTime: T0 + 7 * MINUTE });
    const created = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign() });
    expect(created.body).toMatchObject({ created_at: new Date(T0 + 7 * MINUTE).toISOString() });
  });

  it('a scheduled task settles when its time comes on the service clock', async () => {
    // Fixture task 900001 is due at T0 + 1 day.
    expect((await tasksOf1001()).find((t) => t.taskId === 900001)).toMatchObject({ taskStatus: 'pending' });
    await play({ clock_offset_ms: DAY });
    token = await tokenFor(sb); // the old one expired a day ago on the service clock
    expect((await tasksOf1001()).find((t) => t.taskId === 900001)).toMatchObject({ taskStatus: 'completed' });
  });

  it('updates and cancellations judge "future" on the service clock', async () => {
    expect((await scheduleAt(T0 + 5 * MINUTE)).status).toBe(200);
    const id = (await tasksOf1001()).at(-1)!.taskId as number;
    await play({ clock_offset_ms: 5 * MINUTE });
    expect((await call(sb, 'PATCH', `/epsilon/task/${id}`, { token, json: { title: 'Late' } })).body).toEqual({
      httpStatus: 400,
      message: 'Only future scheduled tasks can be updated or deleted',
    });
    expect((await call(sb, 'DELETE', `/epsilon/task/${id}`, { token })).status).toBe(400);
  });

  it('"recent" campaigns are measured on the service clock', async () => {
    // 4100006 was created 29 days before T0 and is only listed while it is recent.
    const listed = async () =>
      (
        (await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns?fetch_level=R', { token })).body as { results: { id: string }[] }
      ).results.map((c) => c.id);
    expect(await listed()).toContain('4100006');
    await play({ clock_offset_ms: DAY + 1 });
    token = await tokenFor(sb);
    expect(await listed()).not.toContain('4100006');
  });

  it('tokens expire by the service clock', async () => {
    // Issued at service time T0 with a lifetime of 3600 s; then the service clock moves 50 minutes ahead.
    await play({ clock_offset_ms: 50 * MINUTE });
    sb.advance(10 * MINUTE - 1);
    expect((await call(sb, 'GET', '/epsilon/push/auth-apps', { token })).status).toBe(200);
    sb.advance(1);
    expect((await call(sb, 'GET', '/epsilon/push/auth-apps', { token })).status).toBe(401);
    expect((await call(sb, 'GET', '/epsilon/push/auth-apps', { token: await tokenFor(sb) })).status).toBe(200);
  });

  it('authorization codes expire by the service clock', async () => {
    const signIn = await call(sb, 'POST', '/authentication/oauth/authorize/', {
      form: { client_id: 'demo-client', redirect_uri: REDIRECT, response_type: 'code', username: 'manager@example.com', password: 'demo' },
    });
    const code = new URL(signIn.headers.location).searchParams.get('code')!;
    // Ten minutes is the code's whole life (spec 3.4): on the service clock it is over.
    await play({ clock_offset_ms: 10 * MINUTE });
    const r = await call(sb, 'POST', '/core/oauth/token', {
      form: { grant_type: 'authorization_code', client_id: 'demo-client', client_secret: 'demo-secret', code, redirect_uri: REDIRECT },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('the control API reports both clocks', async () => {
    await play({ clock_offset_ms: -3 * MINUTE });
    expect((await call(sb, 'GET', '/_sandbox/clock')).body).toMatchObject({ now: T0, service_now: T0 - 3 * MINUTE });
  });
});
