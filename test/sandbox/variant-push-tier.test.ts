// Variant push_tier: the push API rate-limited per client, as a real service may choose (spec 8.1
// does not show push limits). Without it push answers carry no rate-limit headers and nothing is
// refused; with it, each client has its own read and write budget at that tier.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox, Variants } from '../../src/sandbox/index';
import { SPEC_TIERS } from '../../src/shared/domain/rate-tiers';
import { call, pushEvent, sandboxPerFile, tokenFor } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const play = async (variants: Variants) => expect((await call(sb, 'PUT', '/_sandbox/variants', { json: variants })).status).toBe(200);
const send = (t = token, app = '1001', title = 'Evening digest') =>
  call(sb, 'POST', '/epsilon/push', { token: t, json: { pushEvents: [pushEvent({ title, target: { include: { apps: [app] } } })] } });
const tasksTitled = async (title: string) =>
  ((await call(sb, 'GET', '/_sandbox/state/tasks')).body as { tasks: { title: string }[] }).tasks.filter((t) => t.title === title).length;

describe('push_tier', () => {
  it('is off by default: push answers carry no rate-limit headers and nothing is refused', async () => {
    for (let i = 0; i < 12; i++) {
      const r = await send(token, '1001', 'Unlimited');
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit-policy']).toBeUndefined();
      expect(r.headers.ratelimit).toBeUndefined();
    }
    expect(await tasksTitled('Unlimited')).toBe(12);
  });

  it("limits each client's pushes at the tier, with the headers on every answer and a 429 that creates nothing", async () => {
    await play({ push_tier: 4 });
    const [perSecond, perMinute, perHour] = SPEC_TIERS['4'].write;
    const first = await send(token, '1001', 'Limited');
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe(`second;q=${perSecond};w=1, minute;q=${perMinute};w=60, hour;q=${perHour};w=3600`);
    expect(first.headers.ratelimit).toBe(`second;r=0;t=1, minute;r=${perMinute - 1};t=60, hour;r=${perHour - 1};t=3600`);

    const refused = await send(token, '1001', 'Refused');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toEqual({ httpStatus: 429, message: 'Rate limit exceeded', violated_policies: ['second'] });
    expect(await tasksTitled('Refused')).toBe(0);

    // Reads have their own budget, and so does every other client.
    const list = await call(sb, 'GET', '/epsilon/task?tagId=1001', { token });
    expect(list.status).toBe(200);
    expect(list.headers['ratelimit-policy']).toMatch(new RegExp(`^second;q=${SPEC_TIERS['4'].read[0]};w=1,`));
    const other = await tokenFor(sb, 'other-client', 'other-secret');
    expect((await send(other, '1003', 'Other client')).status).toBe(200);

    sb.advance(1_000);
    expect((await send(token, '1001', 'Refused')).status).toBe(200);
    expect(await tasksTitled('Refused')).toBe(1);

    // Authentication comes first: a 401 carries no rate-limit headers and counts nothing.
    const unsigned = await send('not-a-token');
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.ratelimit).toBeUndefined();
    const log = (await call(sb, 'GET', '/_sandbox/requests')).body as {
      requests: { path: string; group: string | null; limited: boolean; status: number }[];
    };
    const pushes = log.requests.filter((r) => r.path === '/epsilon/push' && r.status !== 401);
    expect(pushes.every((r) => r.group === 'push' && r.limited)).toBe(true);
  });

  it('limits the task edits and the service worker path too (writes), under another header spelling', async () => {
    await play({ push_tier: 6, header_spelling: 'quoted' });
    const sw = await call(sb, 'PATCH', '/epsilon/container/sw-path', {
      token,
      json: { containerId: '1001', serviceWorkerPath: '/push/sw.js', performer: 'editor@example.com' },
    });
    expect(sw.status).toBe(204);
    expect(sw.headers.ratelimit).toMatch(/^"second";t=\d+;r=0/);
    const edit = await call(sb, 'PATCH', '/epsilon/task/900001', { token, json: { title: 'Too soon', performer: 'editor@example.com' } });
    expect(edit.status).toBe(429);
    expect(Number(edit.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
