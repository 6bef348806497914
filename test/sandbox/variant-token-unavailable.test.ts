// The token_unavailable variant: now and then the token endpoint answers 503 (RFC 9110 15.6.4),
// with Retry-After as delay-seconds or without, and issues nothing; the APIs are not affected.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const tokenRequest = () =>
  call(sb, 'POST', '/authentication/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' },
  });

describe('token_unavailable', () => {
  it('is off by default', async () => {
    for (let i = 0; i < 10; i++) expect((await tokenRequest()).status).toBe(200);
  });

  it('answers some token requests 503 with or without Retry-After, issuing no token then', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { token_unavailable: 0.5, seed: 2 } })).status).toBe(200);
    const forms = new Set<string>();
    let issued = 0;
    for (let i = 0; i < 40; i++) {
      const r = await tokenRequest();
      if (r.status === 200) {
        issued++;
        continue;
      }
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ error: 'server_error', error_description: 'The authorization server is temporarily unavailable' });
      expect(r.body).not.toHaveProperty('access_token');
      const ra = r.headers['retry-after'];
      if (ra !== undefined) expect(ra).toMatch(/^[1-3]$/);
      forms.add(ra === undefined ? 'none' : 'seconds');
    }
    expect(issued).toBeGreaterThan(0);
    expect(forms).toEqual(new Set(['none', 'seconds']));
    // The campaign and push APIs answer as always.
    for (let i = 0; i < 10; i++) expect((await call(sb, 'GET', '/epsilon/push/auth-apps', { token })).status).toBe(200);
  });
});
