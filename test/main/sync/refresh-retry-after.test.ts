// A failed page is read again after the answer's Retry-After (DECISIONS client 15, 10): an
// HTTP-date measured against the same answer's Date (a service clock an hour ahead of ours must
// not make us wait an hour), on the injected clock, and the pages already read are kept.
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile, SyncProgress } from '../../../src/shared/ipc/contract';
import { type Env, startEnv } from '../../helpers/world';
import { until } from '../../helpers/wait';
import { refusingProxy } from '../../helpers/proxy';
import { cachedIds, serviceIds, SHOP, walkFixtures } from './listing-support';
import { listReads } from './support';
import { playVariants } from '../../helpers/sandbox';

let env: Env | undefined;
let proxy: { url: string; close(): Promise<void> } | undefined;
afterEach(async () => {
  await proxy?.close();
  await env?.close();
  env = undefined;
  proxy = undefined;
});

const progressOf = (e: Env) =>
  e.events
    .filter((x) => x.event === 'sync.progress' && (x.payload as SyncProgress).accountId === SHOP)
    .map((x) => x.payload as SyncProgress);

describe('a page that fails with 503 and a Retry-After date', () => {
  it('is read again once the wait the answer asks for has passed on the clock, the pages before it kept, and the refresh ends done', async () => {
    env = await startEnv({ fixtures: walkFixtures(100), demo: false, clock: 'manual' });
    const e = env;
    let refused = 0;
    let armed = false;
    proxy = await refusingProxy(e.sandbox.url, (url) => {
      if (!armed || refused > 0 || !url.pathname.endsWith(`/${SHOP}/campaigns`) || url.searchParams.get('page') !== '3') return undefined;
      refused++;
      // The service's clock is an hour ahead of ours: only the answer's own Date makes this 30 s.
      const serviceNow = Math.floor(e.clock!.now() / 1000) * 1000 + 3_600_000;
      return {
        status: 503,
        headers: { date: new Date(serviceNow).toUTCString(), 'retry-after': new Date(serviceNow + 30_000).toUTCString() },
      };
    });
    const p: Profile = await e.core.handlers['profiles.create']({
      name: 'Walk',
      baseUrl: proxy.url,
      authUrl: proxy.url,
      pushUrl: proxy.url,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      flow: 'client_credentials',
      redirectUri: null,
    });
    await e.core.handlers['accounts.add']({ profileId: p.id, accountId: SHOP });
    await until(() => progressOf(e).find((x) => x.state !== 'running'), 'the first refresh to end');
    await playVariants(e.sandbox, { page_size_cap: 10 });
    armed = true;
    const before = progressOf(e).length;
    const since = (await listReads(e.sandbox, SHOP, 0)).length;
    await e.core.handlers['sync.refresh']({ profileId: p.id, accountId: SHOP });
    await until(() => refused === 1, 'page 3 to be refused');
    // Pages 1 (unpaged) and 2 were read; nothing more while the 30 s run.
    const readsAfter = async () => (await listReads(e.sandbox, SHOP, 0)).length - since;
    await until(async () => (await readsAfter()) === 2, 'the two pages before it');
    // The next thing the clock will do is the read again, 30 s on: not an hour and a half (the
    // date against our clock), not a backoff of a second.
    const wait = await until(() => {
      const at = e.clock!.nextTimerAt();
      return at === undefined ? undefined : at - e.clock!.now();
    }, 'the wait to be set');
    expect(wait).toBeGreaterThanOrEqual(29_000);
    expect(wait).toBeLessThanOrEqual(31_000);
    expect(await readsAfter()).toBe(2);
    e.sandbox.advance(wait);
    const last = await until(
      () =>
        progressOf(e)
          .slice(before)
          .find((x) => x.state !== 'running'),
      'the refresh to end',
    );
    expect(last).toMatchObject({ state: 'done', message: null });
    // Page 3 and the rest, without reading pages 1 and 2 again.
    expect(await readsAfter()).toBe(10);
    expect(await cachedIds(e, p.id)).toEqual(await serviceIds(e));
  }, 300_000);
});
