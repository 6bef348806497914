import { describe, expect, it } from 'vitest';
import {
  campaignFormProblems,
  fieldChoices,
  formToPayload,
  GROUP_BUDGET,
  NEW_CAMPAIGN_FORM,
  payloadToForm,
  problemsByField,
  type CampaignForm,
} from '../../../src/renderer/forms/campaign-form';

const valid: CampaignForm = { ...NEW_CAMPAIGN_FORM, name: 'Boots', branding_text: 'Acme', cpc: '0.4', spending_limit: '100' };

describe('campaign draft form', () => {
  it('has no problem when every rule of spec 4.1 is met', () => {
    expect(campaignFormProblems(valid)).toEqual([]);
  });

  it('leaves hidden fields out of the payload: no cpc without FIXED, no spending_limit without MONTHLY', () => {
    const p = formToPayload({ ...valid, bid_strategy: 'MAX_CONVERSIONS', budget: 'NONE', daily_cap: '20' });
    expect(p).not.toHaveProperty('cpc');
    expect(p).not.toHaveProperty('spending_limit');
    expect(p).toMatchObject({ spending_limit_model: 'NONE', daily_cap: 20 });
  });

  it('sends a group budget as no spending_limit_model with the group id, and reads it back as a group budget', () => {
    const p = formToPayload({ ...valid, budget: GROUP_BUDGET, campaign_group_id: 'g7' });
    expect(p).not.toHaveProperty('spending_limit_model');
    expect(p.campaign_group_id).toBe('g7');
    expect(payloadToForm(p).budget).toBe(GROUP_BUDGET);
    expect(campaignFormProblems({ ...valid, budget: GROUP_BUDGET, campaign_group_id: '' }).map((x) => x.field)).toContain(
      'campaign_group_id',
    );
  });

  it("enters the interface's display example (spec 4.1 rule 6): no branding, no spending limit or model, and nothing to fix", () => {
    const form: CampaignForm = {
      ...NEW_CAMPAIGN_FORM,
      name: 'Banners',
      campaign_item_type: 'HAS_NO_ITEMS_DISPLAY',
      cpc: '0.4',
      budget: '',
    };
    expect(formToPayload(form)).toEqual({
      name: 'Banners',
      bid_strategy: 'FIXED',
      marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
      campaign_item_type: 'HAS_NO_ITEMS_DISPLAY',
      cpc: 0.4,
    });
    expect(campaignFormProblems(form)).toEqual([]);
    // Read back, the budget is still the one that sends nothing.
    expect(payloadToForm(formToPayload(form)).budget).toBe('');
    // A native campaign still needs its branding and a budget.
    expect(campaignFormProblems({ ...form, campaign_item_type: 'HAS_NO_ITEMS' }).map((p) => p.field)).toEqual(['branding_text', 'budget']);
  });

  it('round-trips a form through the stored payload', () => {
    const f = { ...valid, start_date: '2030-05-01T09:30', daily_cap: '15' };
    expect(payloadToForm(formToPayload(f))).toEqual(f);
  });

  it('puts each shared rule problem on the field a person must change', () => {
    const by = problemsByField(campaignFormProblems({ ...NEW_CAMPAIGN_FORM }));
    expect(by.name).toEqual(['name cannot be empty']);
    expect(by.cpc).toEqual(['cpc is required when bid_strategy is FIXED']);
    expect(by.branding_text).toEqual(['branding_text is required for native campaigns']);
    expect(by.spending_limit).toEqual(['spending_limit is required when spending_limit_model is MONTHLY']);
  });

  it('names the budget select for a missing spending_limit_model, and refuses a network account', () => {
    const by = problemsByField(campaignFormProblems({ ...valid, budget: '' }, 'NETWORK'));
    expect(by.budget?.[0]).toMatch(/spending_limit_model is required/);
    expect(by.account?.[0]).toMatch(/advertiser account/);
  });

  it('reports a typed number that is not a number instead of silently dropping it', () => {
    expect(problemsByField(campaignFormProblems({ ...valid, daily_cap: '12abc' })).daily_cap).toEqual(['daily_cap must be a number']);
  });

  it('drafts values the service uses: an objective, a limit model, a bid strategy the spec does not show', () => {
    const f: CampaignForm = {
      ...valid,
      marketing_objective: 'BRAND_AWARENESS',
      budget: 'DAILY',
      spending_limit: '',
      bid_strategy: 'TARGET_CPA',
      cpc: '',
    };
    expect(campaignFormProblems(f)).toEqual([]);
    const p = formToPayload(f);
    expect(p).toMatchObject({ marketing_objective: 'BRAND_AWARENESS', spending_limit_model: 'DAILY', bid_strategy: 'TARGET_CPA' });
    expect(p).not.toHaveProperty('cpc');
    // A reload of the draft keeps them (an unknown model used to come back as "(choose)").
    expect(payloadToForm(p)).toEqual(f);
  });

  it('offers cpc and spending limit as optional for an unknown strategy or model, sending them when given', () => {
    const p = formToPayload({ ...valid, bid_strategy: 'TARGET_CPA', cpc: '0.8', budget: 'DAILY', spending_limit: '25' });
    expect(p).toMatchObject({ cpc: 0.8, spending_limit: 25, spending_limit_model: 'DAILY' });
    expect(problemsByField(campaignFormProblems({ ...valid, bid_strategy: 'TARGET_CPA', cpc: 'abc' })).cpc).toEqual([
      'cpc must be a number',
    ]);
    expect(formToPayload({ ...valid, budget: 'NONE', daily_cap: '5' })).not.toHaveProperty('spending_limit');
  });

  it("offers the spec's values and then the ones seen in the account's campaigns, each once, never a state like HAS_DISPLAY_ITEMS", () => {
    const seen = {
      marketing_objective: ['BRAND_AWARENESS', 'LEADS_GENERATION', 'APP_INSTALLS', 'BRAND_AWARENESS', 'not enum-like'],
      campaign_item_type: ['HAS_DISPLAY_ITEMS', 'HAS_NO_ITEMS_CAROUSEL'],
    };
    expect(fieldChoices('marketing_objective', seen)).toEqual([
      'LEADS_GENERATION',
      'DRIVE_WEBSITE_TRAFFIC',
      'APP_INSTALLS',
      'BRAND_AWARENESS',
    ]);
    expect(fieldChoices('campaign_item_type', seen)).toEqual([
      'HAS_NO_ITEMS',
      'HAS_NO_ITEMS_DISPLAY',
      'HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO',
      'HAS_NO_ITEMS_CAROUSEL',
    ]);
    expect(fieldChoices('bid_strategy', {})).toEqual(['FIXED', 'MAX_CONVERSIONS']);
  });
});
