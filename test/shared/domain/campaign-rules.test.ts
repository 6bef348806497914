// The shared campaign rules: the desk accepts enum values the spec does not show but the service
// may use (DECISIONS client 7) while every rule tied to a known value keeps applying; the sandbox,
// which is a service, asks for its own closed set.
import { describe, expect, it } from 'vitest';
import { campaignCreateProblems, isCreatableValue, type CampaignCreate } from '../../../src/shared/domain/campaign';

const base: CampaignCreate = {
  name: 'Boots',
  branding_text: 'Acme',
  bid_strategy: 'FIXED',
  cpc: 0.4,
  marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
  spending_limit_model: 'MONTHLY',
  spending_limit: 100,
};
const fields = (c: Partial<CampaignCreate>, ctx = {}) => campaignCreateProblems({ ...base, ...c }, ctx).map((p) => p.field);

describe('enum values the service may use', () => {
  it('accepts an objective, a limit model, a bid strategy and a creative surface the spec does not show', () => {
    expect(fields({ marketing_objective: 'BRAND_AWARENESS' })).toEqual([]);
    expect(fields({ spending_limit_model: 'DAILY', spending_limit: 20 })).toEqual([]);
    expect(fields({ bid_strategy: 'TARGET_CPA', cpc: undefined })).toEqual([]);
    expect(fields({ campaign_item_type: 'HAS_NO_ITEMS_CAROUSEL', branding_text: undefined })).toEqual([]);
  });

  it('refuses values that are not enum-like, naming the known ones', () => {
    const problems = campaignCreateProblems({
      ...base,
      marketing_objective: 'brand awareness',
      bid_strategy: 'fixed',
      spending_limit_model: '',
    });
    expect(problems.map((p) => p.field)).toEqual(['bid_strategy', 'marketing_objective', 'spending_limit_model']);
    expect(problems[1].message).toMatch(/LEADS_GENERATION, DRIVE_WEBSITE_TRAFFIC, or another value/);
    expect(fields({ marketing_objective: `A${'B'.repeat(64)}` })).toEqual(['marketing_objective']);
  });

  it('never lets a create choose a state the service moves a campaign to (HAS_DISPLAY_ITEMS)', () => {
    expect(fields({ campaign_item_type: 'HAS_DISPLAY_ITEMS' })).toEqual(['campaign_item_type']);
    expect(isCreatableValue('campaign_item_type', 'HAS_DISPLAY_ITEMS')).toBe(false);
    expect(isCreatableValue('campaign_item_type', 'HAS_NO_ITEMS_DISPLAY')).toBe(true);
  });

  it('an unknown bid strategy neither demands nor forbids a cpc, but a cpc sent is a price', () => {
    expect(fields({ bid_strategy: 'TARGET_CPA', cpc: 0.7 })).toEqual([]);
    expect(fields({ bid_strategy: 'TARGET_CPA', cpc: null })).toEqual([]);
    expect(fields({ bid_strategy: 'TARGET_CPA', cpc: 0 })).toEqual(['cpc']);
  });

  it('an unknown limit model neither demands nor forbids a limit or a cap, but amounts sent must be positive', () => {
    expect(fields({ spending_limit_model: 'DAILY', spending_limit: undefined })).toEqual([]);
    expect(fields({ spending_limit_model: 'DAILY', spending_limit: undefined, daily_cap: 5 })).toEqual([]);
    expect(fields({ spending_limit_model: 'DAILY', spending_limit: -1 })).toEqual(['spending_limit']);
    expect(fields({ spending_limit_model: 'DAILY', daily_cap: 0 })).toEqual(['daily_cap']);
  });

  it('keeps every rule tied to a known value', () => {
    expect(fields({ bid_strategy: 'FIXED', cpc: undefined, marketing_objective: 'BRAND_AWARENESS' })).toEqual(['cpc']);
    expect(fields({ bid_strategy: 'MAX_CONVERSIONS', cpc: 1, marketing_objective: 'BRAND_AWARENESS' })).toEqual(['cpc']);
    expect(fields({ spending_limit_model: 'NONE', bid_strategy: 'TARGET_CPA' })).toEqual(['spending_limit', 'daily_cap']);
    expect(fields({ spending_limit_model: 'MONTHLY', spending_limit: undefined, marketing_objective: 'BRAND_AWARENESS' })).toEqual([
      'spending_limit',
    ]);
    expect(fields({ spending_limit_model: 'NONE', spending_limit: undefined, daily_cap: 10 }, { features: [] })).toEqual([
      'spending_limit_model',
    ]);
    expect(fields({ campaign_item_type: 'HAS_NO_ITEMS_DISPLAY', branding_text: undefined }, { features: [] })).toEqual([
      'campaign_item_type',
    ]);
    expect(fields({ campaign_item_type: 'HAS_NO_ITEMS', branding_text: undefined })).toEqual(['branding_text']);
  });
});

describe("the service's closed set (values: 'known')", () => {
  it('refuses every value the spec does not show, with the message the sandbox answers', () => {
    const known = { values: 'known' as const };
    expect(campaignCreateProblems({ ...base, bid_strategy: 'TARGET_CPA', cpc: undefined }, known)).toEqual([
      { field: 'bid_strategy', message: 'bid_strategy must be one of FIXED, MAX_CONVERSIONS' },
    ]);
    expect(fields({ marketing_objective: 'BRAND_AWARENESS' }, known)).toEqual(['marketing_objective']);
    expect(fields({ spending_limit_model: 'DAILY' }, known)).toEqual(['spending_limit_model']);
    expect(fields({ campaign_item_type: 'HAS_NO_ITEMS_CAROUSEL' }, known)).toEqual(['campaign_item_type']);
    expect(fields({}, known)).toEqual([]);
  });
});
