// Telling a capability refusal from the others, whatever the service's wording (DECISIONS client
// 13: matched on the documented words and codes, not only our sandbox's), and the warning's words.
import { describe, expect, it } from 'vitest';
import { capabilitiesUsedBy, capabilityStatus, capabilityWarnings, refusedCapability } from '../../../src/shared/domain/capabilities';

const display = { name: 'Banners', campaign_item_type: 'HAS_NO_ITEMS_DISPLAY' };
const video = { name: 'Clips', campaign_item_type: 'HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO' };
const noLimit = { name: 'Open', campaign_item_type: 'HAS_NO_ITEMS', spending_limit_model: 'NONE', daily_cap: 10 };
const both = { ...display, spending_limit_model: 'NONE', daily_cap: 10 };

describe('capabilitiesUsedBy', () => {
  it('names the surface and the missing limit a create needs the account to have', () => {
    expect(capabilitiesUsedBy(display)).toEqual(['display']);
    expect(capabilitiesUsedBy(video)).toEqual(['performance_video']);
    expect(capabilitiesUsedBy(noLimit)).toEqual(['no_spending_limit']);
    expect(capabilitiesUsedBy(both)).toEqual(['display', 'no_spending_limit']);
    expect(capabilitiesUsedBy({ name: 'Native', spending_limit_model: 'MONTHLY' })).toEqual([]);
  });
});

describe('refusedCapability', () => {
  it.each([
    ['our sandbox', display, 'This account is not enabled for display campaigns', 'display'],
    ['problem+json detail', display, 'Account is not eligible for display advertising', 'display'],
    ['an error code', display, 'FEATURE_NOT_ENABLED: HAS_NO_ITEMS_DISPLAY', 'display'],
    ['a requirement', display, 'Display campaigns require the account to be enabled for display', 'display'],
    [
      'video, whose value names display too',
      video,
      'campaign_item_type HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO is not allowed for this account',
      'performance_video',
    ],
    ['video in words', video, "This account isn't enabled for performance video campaigns", 'performance_video'],
    ['our sandbox on NONE', noLimit, 'spending_limit_model NONE is not available for this account', 'no_spending_limit'],
    ['NONE for eligible accounts only', noLimit, 'spending_limit_model NONE is only available for eligible accounts', 'no_spending_limit'],
    ['a generic one with one capability used', display, 'This account is not eligible for this feature', 'display'],
    ['the field named by the service', both, 'Value not permitted for this account', 'no_spending_limit', ['spending_limit_model']],
    ['two used, the refusal names one', both, 'This account is not enabled for display campaigns', 'display'],
  ] as const)('learns from %s', (_how, body, message, expected, fields?: readonly string[]) => {
    expect(refusedCapability(body, { message, status: 400, ...(fields ? { fields } : {}) })).toBe(expected);
  });

  it.each([
    ['a rule about the values', noLimit, 'daily_cap is required when spending_limit_model is NONE'],
    ['a limit sent with NONE', noLimit, 'spending_limit must be omitted when spending_limit_model is NONE'],
    ['account access', display, 'Not authorized for account acmeshoes'],
    ['a generic one with two capabilities used', both, 'This account is not eligible for this feature'],
    ['a native create', { name: 'Native' }, 'This account is not enabled for display campaigns'],
    ['a malformed body', display, 'Malformed JSON or type mismatch'],
  ] as const)('does not take %s for a capability', (_how, body, message) => {
    expect(refusedCapability(body, { message, status: 400 })).toBeUndefined();
  });

  it('does not learn from a server failure or a rate limit', () => {
    expect(refusedCapability(display, { message: 'Display is not available right now', status: 503 })).toBeUndefined();
    expect(refusedCapability(display, { message: 'Display is not available right now', status: 429 })).toBeUndefined();
  });
});

describe('capabilityWarnings', () => {
  const at = Date.UTC(2026, 10, 23, 12);
  const now = Date.UTC(2026, 10, 24, 12);
  it('says who refused what and when, in the service words, and what to do', () => {
    const known = [
      { capability: 'display' as const, state: 'refused' as const, source: 'learned' as const, message: 'Not enabled for display', at },
    ];
    expect(capabilityWarnings(display, known, 'Fresh Crumb Bakery', now)).toEqual([
      {
        capability: 'display',
        field: 'campaign_item_type',
        known: 'Fresh Crumb Bakery refused display campaigns on Nov 23: Not enabled for display.',
        message:
          'Fresh Crumb Bakery refused display campaigns on Nov 23: Not enabled for display. Queue anyway, or change the campaign type.',
      },
    ]);
  });

  it('says what the person said, on the budget for a missing limit, and nothing for enabled or unknown', () => {
    const known = [
      { capability: 'no_spending_limit' as const, state: 'refused' as const, source: 'person' as const, message: null, at },
      { capability: 'display' as const, state: 'enabled' as const, source: 'learned' as const, message: null, at },
    ];
    expect(capabilityWarnings(both, known, 'Acme', now)).toEqual([
      expect.objectContaining({
        field: 'budget',
        message:
          'You said Acme is not enabled for campaigns without a spending limit (Nov 23). Queue anyway, or choose a monthly spending limit.',
      }),
    ]);
    expect(capabilityWarnings(video, known, 'Acme', now)).toEqual([]);
    expect(capabilityStatus(known[1], now)).toBe('Enabled (posted on Nov 23)');
    expect(capabilityStatus(undefined, now)).toBe('Not known yet');
    expect(capabilityStatus({ ...known[0], at: Date.UTC(2025, 0, 5, 12) }, now)).toBe('Not enabled (you said so on Jan 5, 2025)');
  });
});
