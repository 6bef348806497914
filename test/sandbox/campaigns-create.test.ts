import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index';
import { call, nativeCampaign, T0, sandboxPerFile } from '../helpers/sandbox';

let sb: RunningSandbox;
let token: string;
sandboxPerFile((s, t) => ((sb = s), (token = t)));

// oldtimerltd is not rate limited, so these tests can create freely.
const create = (body: unknown, account = 'oldtimerltd', extra: { headers?: Record<string, string>; raw?: string } = {}) =>
  extra.raw === undefined
    ? call(sb, 'POST', `/core/api/1.0/${account}/campaigns/`, { token, json: body, headers: extra.headers })
    : call(sb, 'POST', `/core/api/1.0/${account}/campaigns/`, { token, body: extra.raw, headers: { 'content-type': 'application/json' } });

describe('create campaign: success', () => {
  it('answers 200 with the created campaign, a numeric id after the largest fixture id, and the defaults', async () => {
    const r = await create(nativeCampaign({ tracking_code: 'utm_source=x' }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: 4100013,
      advertiser_id: 'oldtimerltd',
      name: 'Spring sale',
      branding_text: 'Acme Shoes',
      tracking_code: 'utm_source=x',
      pricing_model: 'CPC',
      cpc: 0.35,
      safety_rating: null,
      // No daily cap: the key is left out (daily_cap is typed a number, spec 2.1), never null.
      daily_ad_delivery_model: 'STRICT',
      spending_limit: 1500,
      spending_limit_model: 'MONTHLY',
      bid_strategy: 'FIXED',
      marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
      campaign_group_id: null,
      start_date: new Date(T0).toISOString(),
      campaign_item_type: 'HAS_NO_ITEMS',
      status: 'PENDING_APPROVAL',
      spent: 0,
      created_at: new Date(T0).toISOString(),
    });
    const next = await create(nativeCampaign({ name: 'Second' }));
    expect((next.body as { id: number }).id).toBe(4100014);
  });

  it('accepts the trailing-slash-less path too and stores the campaign for listing', async () => {
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns', { token, json: nativeCampaign({ name: 'No slash' }) });
    expect(r.status).toBe(200);
    const list = await call(sb, 'GET', '/core/api/1.0/oldtimerltd/campaigns?fetch_level=R', { token });
    expect((list.body as { results: { name: string; id: string }[] }).results).toEqual([
      expect.objectContaining({ name: 'No slash', id: '4100013' }),
    ]);
  });

  it('creates a MAX_CONVERSIONS campaign with cpc null, and a NONE campaign with spending_limit null', async () => {
    const maxConv = await create(nativeCampaign({ bid_strategy: 'MAX_CONVERSIONS', cpc: undefined }));
    expect(maxConv.status).toBe(200);
    expect(maxConv.body).toMatchObject({ cpc: null, bid_strategy: 'MAX_CONVERSIONS' });
    const none = await create(nativeCampaign({ spending_limit_model: 'NONE', spending_limit: undefined, daily_cap: 75 }), 'acmeshoes');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ spending_limit: null, spending_limit_model: 'NONE', daily_cap: 75 });
  });

  it('keeps sent start_date, daily_ad_delivery_model and campaign group, and allows omitting the limit in a group', async () => {
    const r = await create({
      name: 'In a group',
      branding_text: 'Old Timer',
      bid_strategy: 'FIXED',
      cpc: 0.2,
      marketing_objective: 'LEADS_GENERATION',
      campaign_group_id: 'grp-7',
      start_date: '2026-12-01T00:00:00Z',
      daily_ad_delivery_model: 'BALANCED',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      campaign_group_id: 'grp-7',
      start_date: '2026-12-01T00:00:00Z',
      daily_ad_delivery_model: 'BALANCED',
      spending_limit: null,
      spending_limit_model: null,
    });
  });

  it('creates a display campaign in an account enabled for display', async () => {
    const r = await create(
      {
        name: 'Banner',
        cpc: 0.5,
        bid_strategy: 'FIXED',
        marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
        campaign_item_type: 'HAS_NO_ITEMS_DISPLAY',
      },
      'acmeshoes',
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ campaign_item_type: 'HAS_NO_ITEMS_DISPLAY', branding_text: null });
  });
});

describe('create campaign: refusals', () => {
  const cases: [string, Record<string, unknown>, string, string?][] = [
    ['empty name', { name: '  ' }, 'name cannot be empty'],
    ['missing branding text', { branding_text: undefined }, 'branding_text is required for native campaigns'],
    ['FIXED without cpc', { cpc: undefined }, 'cpc is required when bid_strategy is FIXED'],
    ['cpc of zero', { cpc: 0 }, 'cpc must be greater than 0'],
    ['cpc with MAX_CONVERSIONS', { bid_strategy: 'MAX_CONVERSIONS' }, 'cpc must be omitted when bid_strategy is MAX_CONVERSIONS'],
    ['unknown bid strategy', { bid_strategy: 'CHEAPEST' }, 'bid_strategy must be one of FIXED, MAX_CONVERSIONS'],
    ['unknown objective', { marketing_objective: 'FAME' }, 'marketing_objective must be one of LEADS_GENERATION, DRIVE_WEBSITE_TRAFFIC'],
    ['limit without model', { spending_limit_model: undefined }, 'spending_limit_model is required with spending_limit'],
    ['MONTHLY without limit', { spending_limit: undefined }, 'spending_limit is required when spending_limit_model is MONTHLY'],
    [
      'NONE in an account without the feature',
      { spending_limit_model: 'NONE', spending_limit: undefined, daily_cap: 10 },
      'spending_limit_model NONE is not available for this account',
    ],
    [
      'NONE without daily cap',
      { spending_limit_model: 'NONE', spending_limit: undefined },
      'daily_cap is required when spending_limit_model is NONE',
      'acmeshoes',
    ],
    ['display without the feature', { campaign_item_type: 'HAS_NO_ITEMS_DISPLAY' }, 'This account is not enabled for display campaigns'],
    [
      'video without the feature',
      { campaign_item_type: 'HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO' },
      'This account is not enabled for performance video campaigns',
    ],
    [
      'unknown item type',
      { campaign_item_type: 'HAS_ITEMS' },
      'campaign_item_type must be one of HAS_NO_ITEMS, HAS_NO_ITEMS_DISPLAY, HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO',
    ],
    ['bad start date', { start_date: 'tomorrow' }, 'start_date must be an ISO 8601 date-time'],
    ['a network account', {}, 'Campaigns can only be created in an advertiser account, not a network', 'northnet'],
  ];
  it.each(cases)('refuses %s with 400 and the first rule message', async (_name, overrides, message, account) => {
    const r = await create(nativeCampaign(overrides), account ?? 'oldtimerltd');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ http_status: 400, message });
    const state = await call(sb, 'GET', `/_sandbox/state/campaigns?account=${account ?? 'oldtimerltd'}`);
    expect((state.body as { campaigns: unknown[] }).campaigns.filter((c) => (c as { id: number }).id > 4100012)).toEqual([]);
  });

  it.each([
    ['not JSON', '{"name": '],
    ['an array', '[1,2]'],
    ['a JSON string', '"hello"'],
    ['a number for name', JSON.stringify(nativeCampaign({ name: 42 }))],
    ['a string for cpc', JSON.stringify(nativeCampaign({ cpc: '0.3' }))],
    ['an empty body', ''],
    ['deep nesting', '['.repeat(100_000)],
  ])('answers 400 "Malformed JSON or type mismatch" (never 500) to %s', async (_name, raw) => {
    const r = await create(undefined, 'oldtimerltd', { raw });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ http_status: 400, message: 'Malformed JSON or type mismatch' });
  });

  it('answers 415 to a body that is not declared as JSON', async () => {
    const r = await call(sb, 'POST', '/core/api/1.0/oldtimerltd/campaigns/', {
      token,
      body: JSON.stringify(nativeCampaign()),
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(415);
    expect(r.body).toEqual({ http_status: 415, message: 'Content-Type must be application/json' });
  });

  it('answers 403 for an account of another client or an unknown account, 400 for a non-alphabetic id', async () => {
    for (const account of ['strangers', 'nosuchaccount']) {
      const r = await create(nativeCampaign(), account);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ http_status: 403, message: `Not authorized for account ${account}` });
    }
    const bad = await create(nativeCampaign(), 'acme123');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ http_status: 400, message: 'account_id must contain letters only' });
  });

  it('checks authentication before access: 401 without a token even for a foreign account', async () => {
    const r = await call(sb, 'POST', '/core/api/1.0/strangers/campaigns/', { json: nativeCampaign() });
    expect(r.status).toBe(401);
  });

  it('grants a network member through its network', async () => {
    const r = await create(nativeCampaign({ branding_text: 'North Boats' }), 'northboats');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ advertiser_id: 'northboats' });
  });
});
