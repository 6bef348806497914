// Token lifetime against a sandbox whose clock we move: renewal before expiry, one shared
// renewal for concurrent callers, and the single retry a 401 allows.
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/main/service/errors';
import { type RunningSandbox } from '../../../src/sandbox/index';
import { fault, isTokenRequest, requestLog } from '../../helpers/sandbox';
import { clientFor, clockOf, closedAfterTest, startServiceSandbox } from '../../helpers/service-client';

const TTL_S = 600;
async function start(): Promise<RunningSandbox> {
  return closedAfterTest(await startServiceSandbox({ tokenTtlS: TTL_S }));
}

async function counts(s: RunningSandbox, sinceSeq = 0) {
  const log = (await requestLog(s)).filter((r) => r.seq > sinceSeq);
  return {
    tokens: log.filter(isTokenRequest).length,
    unauthorized: log.filter((r) => r.status === 401).length,
    lastSeq: log.length > 0 ? log[log.length - 1].seq : sinceSeq,
  };
}

describe('token renewal', () => {
  it('renews shortly before expiry on the service clock, once for many concurrent callers, without a 401', async () => {
    const s = await start();
    const client = clientFor(s, { clock: clockOf(s) });
    await client.authApps();
    expect(await counts(s)).toMatchObject({ tokens: 1, unauthorized: 0 });
    // 50 s before expiry: inside the renewal margin (60 s, at most a tenth of the lifetime).
    s.advance((TTL_S - 50) * 1000);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? client.authApps() : client.listCampaigns('oldtimerltd', { fetchLevel: 'R' }))),
    );
    expect(await counts(s)).toMatchObject({ tokens: 2, unauthorized: 0 });
    // Mid-run, well past expiry.
    s.advance(3 * TTL_S * 1000);
    await client.listTasks('1001');
    expect(await counts(s)).toMatchObject({ tokens: 3, unauthorized: 0 });
    expect(client.tokenRequests).toBe(3);
    await client.close();
  });

  it('recovers from tokens the service expired behind its back: concurrent 401s cause exactly one renewal', async () => {
    const s = await start();
    // This client's clock does not know the service's clock moved: it only learns from the 401s.
    const client = clientFor(s);
    await client.authApps();
    const before = await counts(s);
    s.advance((TTL_S + 1) * 1000);
    // Push requests: no rate limit holds any of them back, so all twelve are out at once.
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? client.authApps() : client.listTasks('1001'))));
    expect(results).toHaveLength(12);
    const after = await counts(s, before.lastSeq);
    expect(after.unauthorized).toBe(12);
    expect(after.tokens).toBe(1);
    await client.close();
  });

  it('renews once and retries once on a 401, then gives up with unauthorized', async () => {
    const s = await start();
    const client = clientFor(s);
    await client.authenticate();
    const before = await counts(s);
    // Every auth-apps request is held for 300 ms while the service clock races ahead, so each
    // token has expired by the time the service looks at it.
    await fault(s, { method: 'GET', path_prefix: '/epsilon/push/auth-apps', mode: 'delay', delay_ms: 300, count: 5 });
    const ticker = setInterval(() => s.advance((TTL_S + 1) * 1000), 40);
    let error: unknown;
    try {
      await client.authApps();
    } catch (e) {
      error = e;
    } finally {
      clearInterval(ticker);
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    const log = (await requestLog(s)).filter((r) => r.seq > before.lastSeq);
    expect(log.filter((r) => r.path === '/epsilon/push/auth-apps').map((r) => r.status)).toEqual([401, 401]);
    expect(log.filter(isTokenRequest)).toHaveLength(1);
    await client.close();
  });
});
