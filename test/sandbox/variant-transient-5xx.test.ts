// The transient_5xx variant: now and then an API request fails with 502 or 503 (RFC 9110 15.6),
// with Retry-After as delay-seconds, as an HTTP-date or absent, and nothing is applied.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const campaigns = async () =>
  ((await call(sb, 'GET', '/_sandbox/state/campaigns?account=oldtimerltd')).body as { campaigns: unknown[] }).campaigns.length;

describe('transient_5xx', () => {
  it('is off by default', async () => {
    for (let i = 0; i < 10; i++) expect((await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns', { token })).status).toBe(200);
  });

  it('fails some requests with 502 or 503 in every Retry-After form, applies nothing then, and leaves the token endpoint alone', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { transient_5xx: 0.5, seed: 3 } })).status).toBe(200);
    const before = await campaigns();
    const statuses = new Set<number>();
    const forms = new Set<string>();
    let created = 0;
    for (let i = 0; i < 60; i++) {
      const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ name: `Try ${i}` }) });
      statuses.add(r.status);
      if (r.status === 200) created++;
      else {
        expect([502, 503]).toContain(r.status);
        const ra = r.headers['retry-after'];
        forms.add(ra === undefined ? 'none' : /^\d+$/.test(ra) ? 'seconds' : 'date');
        if (ra !== undefined && !/^\d+$/.test(ra)) expect(Date.parse(ra) - Date.parse(r.headers.date)).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual(new Set([200, 502, 503]));
    expect(forms).toEqual(new Set(['none', 'seconds', 'date']));
    // Only the requests that succeeded created anything.
    expect(await campaigns()).toBe(before + created);
    for (let i = 0; i < 10; i++) {
      const t = await call(sb, 'POST', '/authentication/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' },
      });
      expect(t.status).toBe(200);
    }
  });
});
