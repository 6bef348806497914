// The create_201 variant: a create that succeeds answers 201 Created with a Location header, as a
// real service may (spec 4.1 does not show the success status); without it, 200.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const create = (body: Record<string, unknown>) => call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', { token, json: body });

describe('create_201', () => {
  it('is off by default: 200 and no Location', async () => {
    const r = await create(nativeCampaign());
    expect(r.status).toBe(200);
    expect(r.headers.location).toBeUndefined();
  });

  it('answers 201 with the same campaign and a Location naming it; errors are unchanged', async () => {
    expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { create_201: true } })).status).toBe(200);
    const r = await create(nativeCampaign({ name: 'Created' }));
    expect(r.status).toBe(201);
    const body = r.body as { id: number; name: string; advertiser_id: string };
    expect(body).toMatchObject({ name: 'Created', advertiser_id: 'oldtimerltd' });
    expect(r.headers.location).toBe(`/core/api/1.0/oldtimerltd/campaigns/${body.id}`);
    const refused = await create(nativeCampaign({ cpc: -1 }));
    expect(refused.status).toBe(400);
    expect(refused.headers.location).toBeUndefined();
  });
});
