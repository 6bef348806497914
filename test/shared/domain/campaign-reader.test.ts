import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { campaignSchema } from '../../../src/shared/domain/campaign';
import { CAMPAIGN_LISTED_FIELDS, readListedCampaign } from '../../../src/shared/domain/campaign-reader';

// The refresh reads every listed campaign with readListedCampaign instead of campaignSchema (for
// speed): the two must agree on every record a service may write, or the cache would hold
// something other than what the rest of the app reads.
const viaSchema = (v: unknown) => {
  const r = campaignSchema.safeParse(v);
  return r.success ? r.data : null;
};

/** Values a service may write in any field: the interface's types and every other JSON value. */
const oddValue = fc.oneof(
  fc.string(),
  fc.constantFrom('12.50', ' 7 ', '-0.5e3', '.5', '1.', 'abc', '', '2026-11-21T09:00:00Z', '2026-11-21T09:00', '2026-02-30T00:00:00Z'),
  fc.constantFrom('2026-11-21T10:00:00+01:00', '2026-11-21 09:00:00Z', '1795000000000', '2026-11-21', '9007199254740993'),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(1795000000000, 2 ** 53 + 2, 0, -1),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

const knownKeys = ['id', ...CAMPAIGN_LISTED_FIELDS];
const anyKey = fc.oneof(fc.constantFrom(...knownKeys), fc.constantFrom('targeting', 'extra_field', 'constructor', 'toString'), fc.string());

/** A record as JSON text (so that a key named __proto__ is an own property, as JSON.parse makes it). */
const recordText = fc
  .tuple(
    fc.option(fc.oneof(fc.string(), fc.integer(), fc.constantFrom(2 ** 60, 1.5, '7000001'), fc.constant(null))),
    fc.array(fc.tuple(anyKey, oddValue), { maxLength: 12 }),
  )
  .map(([id, members]) => {
    const parts = members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    if (id !== null) parts.unshift(`"id":${JSON.stringify(id)}`);
    return `{${parts.join(',')}}`;
  });

describe('readListedCampaign', () => {
  it('reads the fields campaignSchema has, no more and no fewer', () => {
    expect(['id', ...CAMPAIGN_LISTED_FIELDS].sort()).toEqual(Object.keys(campaignSchema.shape).sort());
  });

  it('gives what campaignSchema gives for any record a service may write, and refuses what it refuses', () => {
    fc.assert(
      fc.property(recordText, (text) => {
        const value = JSON.parse(text) as unknown;
        const fast = readListedCampaign(value);
        const slow = viaSchema(value);
        expect(fast).toStrictEqual(slow);
        if (fast && slow) expect(Object.keys(fast).sort()).toEqual(Object.keys(slow).sort());
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what is not a campaign record, as campaignSchema does', () => {
    for (const v of [null, 1, 'x', [], [{ id: '1' }], { name: 'no id' }, { id: 1.5 }, { id: 2 ** 60 }, { id: null }, { id: true }]) {
      expect(readListedCampaign(v)).toBe(viaSchema(v));
    }
  });

  it('drops a member named __proto__ and keeps the plain prototype', () => {
    const c = readListedCampaign(JSON.parse('{"id":"1","__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(c.polluted).toBeUndefined();
    expect(Object.keys(c)).toEqual(['id', 'name']);
  });

  it('keeps the unknown fields of a record with their values, and reads the known ones liberally', () => {
    const c = readListedCampaign(JSON.parse('{"id":7,"cpc":"0.25","name":null,"targeting":{"countries":["DE"]},"status":5}'));
    expect(c).toStrictEqual({ id: '7', cpc: 0.25, name: '', targeting: { countries: ['DE'] }, status: '5' });
  });
});
