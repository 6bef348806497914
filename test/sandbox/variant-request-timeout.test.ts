// The request_timeout variant: now and then a request of the campaign or push API or of the token
// endpoint is answered 408 with Connection: close (RFC 9110 15.5.9), and nothing is applied.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const campaigns = async () =>
  ((await call(sb, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd')).body as { campaigns: unknown[] }).campaigns.length;
const tokenRequest = () =>
  call(sb, 'POST', '/authentication/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' },
  });

describe('request_timeout', () => {
  it('is off by default', async () => {
    for (let i = 0; i < 10; i++) expect((await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns', { token })).status).toBe(200);
  });

  it('answers some API and token requests 408 with Connection: close, and applies nothing then', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { request_timeout: 0.5, seed: 5 } })).status).toBe(200);
    const before = await campaigns();
    let created = 0;
    let timedOut = 0;
    for (let i = 0; i < 40; i++) {
      const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ name: `Try ${i}` }) });
      if (r.status === 200) created++;
      else {
        expect(r.status).toBe(408);
        expect(r.headers.connection).toBe('close');
        expect(r.body).toEqual({ http_status: 408, message: 'The request did not arrive in time' });
        timedOut++;
      }
    }
    expect(created).toBeGreaterThan(0);
    expect(timedOut).toBeGreaterThan(0);
    // Only the requests that were answered 200 created anything.
    expect(await campaigns()).toBe(before + created);
    const tokenStatuses = new Set<number>();
    for (let i = 0; i < 20; i++) tokenStatuses.add((await tokenRequest()).status);
    expect(tokenStatuses).toEqual(new Set([200, 408]));
    // The request log names them as the client errors they are.
    const log = (await call(sb, 'GET', '/_sandbox/requests')).body as { requests: { status: number; outcome: string }[] };
    expect(log.requests.filter((q) => q.status === 408).every((q) => q.outcome === 'client_error')).toBe(true);
  });
});
