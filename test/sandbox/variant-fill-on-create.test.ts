// The fill_on_create variant: a create fills in fields it was not sent and normalises the ones it
// was, as a real service may; without the variant the sandbox echoes what was sent.
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, sandboxPerFile, T0 } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

const fill = () => call(sb, 'PUT', '/_sandbox/variants', { json: { fill_on_create: true } });
const create = async (body: Record<string, unknown>, account = 'oldtimerltd') =>
  call(sb, 'POST', `/core/api/1.0/${account}/campaigns/`, { token, json: body });
const withoutObjective = () => {
  const { marketing_objective: _omitted, ...rest } = nativeCampaign();
  return rest;
};
const display = {
  name: 'Banner',
  cpc: 0.5,
  bid_strategy: 'FIXED',
  marketing_objective: 'LEADS_GENERATION',
  campaign_item_type: 'HAS_NO_ITEMS_DISPLAY',
};

describe('fill_on_create fills in', () => {
  it('a default marketing_objective when none was sent', async () => {
    expect((await create(withoutObjective())).status).toBe(400);
    await fill();
    const r = await create(withoutObjective());
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ marketing_objective: 'DRIVE_WEBSITE_TRAFFIC' });
  });

  it('spending_limit_model MONTHLY when none was sent and there is no campaign group', async () => {
    expect((await create(display, 'acmeshoes')).body).toMatchObject({ spending_limit_model: null, spending_limit: null });
    await fill();
    expect((await create(display, 'acmeshoes')).body).toMatchObject({ spending_limit_model: 'MONTHLY', spending_limit: null });
  });

  it('no spending_limit_model for a campaign of a campaign group, and NONE stays NONE', async () => {
    await fill();
    const grouped = await create(
      nativeCampaign({ spending_limit: undefined, spending_limit_model: undefined, campaign_group_id: 'grp-7' }),
    );
    expect(grouped.body).toMatchObject({ spending_limit_model: null, campaign_group_id: 'grp-7' });
    const none = await create(nativeCampaign({ spending_limit_model: 'NONE', spending_limit: undefined, daily_cap: 75 }), 'acmeshoes');
    expect(none.body).toMatchObject({ spending_limit_model: 'NONE', spending_limit: null, daily_cap: 75 });
  });

  it('tracking_code "" and daily_ad_delivery_model STRICT (as the default service does)', async () => {
    await fill();
    expect((await create(nativeCampaign())).body).toMatchObject({ tracking_code: '', daily_ad_delivery_model: 'STRICT' });
  });
});

describe('fill_on_create normalises', () => {
  const sent = nativeCampaign({
    name: '  Spring sale \t',
    cpc: 0.356,
    spending_limit: 1500.5551,
    daily_cap: 40.004,
    start_date: '2026-12-01T10:00:00+02:00',
  });

  it('the name, money to cents and start_date to UTC with milliseconds', async () => {
    await fill();
    const r = await create(sent);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      name: 'Spring sale',
      cpc: 0.36,
      spending_limit: 1500.56,
      daily_cap: 40,
      start_date: '2026-12-01T08:00:00.000Z',
      created_at: new Date(T0).toISOString(),
    });
    // The listing shows what was stored, not what was sent.
    const listed = await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=RAP', { token });
    expect((listed.body as { results: Record<string, unknown>[] }).results.at(-1)).toMatchObject({ name: 'Spring sale', cpc: 0.36 });
  });

  it('and judges what it would store: a cpc that rounds to 0 is refused', async () => {
    expect((await create(nativeCampaign({ cpc: 0.001 }))).status).toBe(200);
    await fill();
    const r = await create(nativeCampaign({ cpc: 0.001 }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ http_status: 400, message: 'cpc must be greater than 0' });
  });

  it('without the variant the create echoes what was sent', async () => {
    const r = await create(sent);
    expect(r.body).toMatchObject({
      name: '  Spring sale \t',
      cpc: 0.356,
      spending_limit: 1500.5551,
      daily_cap: 40.004,
      start_date: '2026-12-01T10:00:00+02:00',
    });
  });
});
