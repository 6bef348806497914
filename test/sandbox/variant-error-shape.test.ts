// The error_shape variant: the campaign API's errors (not the 429, whose body spec 7.2 fixes) as
// {"statusCode", "message": [...], "error": <status phrase>}; the push API keeps spec 7.1's shape.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, sandboxPerFile, testFixtures } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile(
  (s, t) => ((sb = s), (token = t)),
  () => ({ ...testFixtures(), variants: { error_shape: 'message_list' } }),
);

describe('error_shape message_list', () => {
  it('writes campaign API errors with the message in a list and the status phrase as error', async () => {
    const unauth = await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns');
    expect(unauth.status).toBe(401);
    expect(unauth.body).toEqual({ statusCode: 401, message: ['Invalid or expired access token'], error: 'Unauthorized' });
    expect(unauth.headers['www-authenticate']).toBe('Bearer realm="sandbox"');
    const forbidden = await call(sb, 'GET', '/core/api/1.0/strangers/campaigns', { token });
    expect(forbidden.body).toEqual({ statusCode: 403, message: ['Not authorized for account strangers'], error: 'Forbidden' });
    const bad = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: nativeCampaign({ cpc: -1 }) });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, message: [expect.any(String)], error: 'Bad Request' });
  });

  it('keeps the 429 body of spec 7.2 and the push API body of 7.1', async () => {
    let last = await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns?fetch_level=R', { token });
    for (let i = 0; i < 5 && last.status !== 429; i++)
      last = await call(sb, 'GET', '/core/api/1.0/acmeshoes/campaigns?fetch_level=R', { token });
    expect(last.status).toBe(429);
    expect(last.body).toMatchObject({ http_status: 429, message: 'Rate limit exceeded', violated_policies: expect.any(Array) });
    const push = await call(sb, 'GET', '/epsilon/task?tagId=1003', { token });
    expect(push.body).toEqual({ httpStatus: 403, message: expect.any(String) });
  });
});
