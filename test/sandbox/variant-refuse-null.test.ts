// refuse_null: a create body with a null member is refused (spec 4.1 rule 4: omit, do not send empty).
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const create = (body: Record<string, unknown>) => call(sb, 'POST', '/core/api/1.0/acmeshoes/campaigns/', { token, json: body });
const noLimit = nativeCampaign({ spending_limit_model: 'NONE', spending_limit: null, daily_cap: 40 });

it('by default a null member is taken as omitted', async () => {
  expect((await create(noLimit)).status).toBe(200);
});

it('refuses a null member with 400 naming it, and creates nothing', async () => {
  expect((await call(sb, 'PUT', '/_sandbox/variants', { json: { refuse_null: true } })).status).toBe(200);
  const r = await create(noLimit);
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ http_status: 400, message: 'spending_limit must be omitted, not null' });
  const { spending_limit: _omitted, ...omitted } = noLimit;
  const ok = await create(omitted);
  expect(ok.status, ok.text).toBe(200);
  const state = await call(sb, 'GET', '/_sandbox/state/campaigns?account=acmeshoes');
  expect((state.body as { campaigns: { name: string }[] }).campaigns.filter((c) => c.name === 'Spring sale')).toHaveLength(1);
});
