// A service (or a front server before it) may refuse a token it no longer knows with 403 instead
// of the 401 spec 5.5 shows (sandbox variant token_refused_403, beyond the text). A 403 may be the
// token's or the account's: the client renews once and tries once more, and a refusal with the
// token that renewal gave is the account's (no loop, no second renewal for it).
import { expect, it } from 'vitest';
import { type RunningSandbox } from '../../../src/sandbox/index';
import { isTokenRequest, requestLog } from '../../helpers/sandbox';
import { clientFor, closedAfterTest, startServiceSandbox } from '../../helpers/service-client';

const TTL_S = 600;
async function start(): Promise<RunningSandbox> {
  return closedAfterTest(await startServiceSandbox({ variants: { token_refused_403: true }, tokenTtlS: TTL_S }));
}

const since = async (s: RunningSandbox, seq: number) => (await requestLog(s)).filter((r) => r.seq > seq);
const lastSeq = async (s: RunningSandbox) => (await requestLog(s)).reduce((m, r) => Math.max(m, r.seq), 0);

it('a token the service expired behind our back, refused with 403, is renewed once and every call succeeds', async () => {
  const s = await start();
  // This client's clock does not know the service's moved: it learns only from the refusals.
  const forbidden: string[] = [];
  const client = clientFor(s, { observer: { answered: () => undefined, forbidden: (a) => forbidden.push(a) } });
  await client.authApps();
  const before = await lastSeq(s);
  s.advance((TTL_S + 1) * 1000);
  const results = await Promise.all([
    client.listCampaigns('oldtimerltd', { fetchLevel: 'R' }),
    client.authApps(),
    client.listTasks('1001'),
    client.authApps(),
  ]);
  expect(results).toHaveLength(4);
  const log = await since(s, before);
  expect(log.filter(isTokenRequest)).toHaveLength(1);
  expect(log.filter((r) => r.status === 403)).toHaveLength(4);
  expect(forbidden).toEqual([]);
  await client.close();
});

it('an account the credentials do not reach is refused after one renewal, and not renewed for again', async () => {
  const s = await start();
  const client = clientFor(s);
  await client.authApps();
  let before = await lastSeq(s);
  await expect(client.listCampaigns('strangers', { fetchLevel: 'R' })).rejects.toMatchObject({ kind: 'forbidden', status: 403 });
  let log = await since(s, before);
  expect(log.filter((r) => r.path.includes('/strangers/')).map((r) => r.status)).toEqual([403, 403]);
  expect(log.filter(isTokenRequest)).toHaveLength(1);
  // The same token again: the refusal is the account's, one request, no renewal.
  before = await lastSeq(s);
  await expect(client.listCampaigns('strangers', { fetchLevel: 'R' })).rejects.toMatchObject({ kind: 'forbidden' });
  log = await since(s, before);
  expect(log.map((r) => r.status)).toEqual([403]);
  await client.close();
});
