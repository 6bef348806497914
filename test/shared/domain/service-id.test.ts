// Ids the service hands out are strings in Campaign Desk (DECISIONS client 14): read as the
// service spelled them, never through a JS number, and ordered by their exact value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { campaignListEnvelopeSchema, campaignSchema } from '../../../src/shared/domain/campaign';
import { taskSchema } from '../../../src/shared/domain/push';
import { compareIds } from '../../../src/shared/domain/service-id';

const sign = (n: number) => Math.sign(n);

describe('service ids', () => {
  it('are kept as the service wrote them: digits beyond 2^53 as they are, safe numbers as their digits', () => {
    expect(taskSchema.parse({ taskId: '2305843009213693953', tagId: 1001, taskType: 'scheduled', taskStatus: 'pending' })).toMatchObject({
      taskId: '2305843009213693953',
      tagId: '1001',
    });
    expect(campaignSchema.parse({ id: 4100001, name: 'a' }).id).toBe('4100001');
  });

  it('refuse a number beyond 2^53: it was rounded on the way, and names another record', () => {
    expect(taskSchema.safeParse({ taskId: 2 ** 61, tagId: 1001, taskType: 'scheduled', taskStatus: 'pending' }).success).toBe(false);
    expect(campaignSchema.safeParse({ id: 2 ** 60, name: 'a' }).success).toBe(false);
  });

  it('read a money field the lossless reader kept as digits by its value', () => {
    expect(campaignSchema.parse({ id: '1', name: 'a', spent: '123456789012345678901', cpc: 0.5 })).toMatchObject({
      spent: Number('123456789012345678901'),
      cpc: 0.5,
    });
    // A decimal written as text is read by its value too (DECISIONS client 17).
    expect(campaignSchema.parse({ id: '1', name: 'a', spent: '12.5' })).toMatchObject({ spent: 12.5 });
  });

  it('read every field but the id liberally: one odd value never makes a listing unreadable', () => {
    const c = campaignSchema.parse({
      id: 7,
      name: 12345,
      cpc: '0.45',
      daily_cap: 'n/a',
      status: null,
      start_date: { at: 'x' },
      advertiser_id: 'acme',
    });
    expect(c).toMatchObject({ id: '7', name: '12345', cpc: 0.45, status: null, advertiser_id: 'acme' });
    expect(c.daily_cap).toBeUndefined();
    expect(c.start_date).toBeUndefined();
    expect(campaignSchema.parse({ id: '8' }).name).toBe('');
    expect(campaignSchema.safeParse({ name: 'no id' }).success).toBe(false);
    const t = taskSchema.parse({ taskId: 1, tagId: 2, executionTime: '1900000000000', userTimeZone: '1', title: 42 });
    expect(t).toMatchObject({
      taskId: '1',
      tagId: '2',
      taskType: '',
      taskStatus: '',
      executionTime: 1_900_000_000_000,
      userTimeZone: 1,
      title: '42',
    });
    expect(campaignListEnvelopeSchema.parse({ metadata: { total: '0', count: 0.0 } })).toMatchObject({
      results: [],
      metadata: { total: 0, count: 0 },
    });
    expect(campaignListEnvelopeSchema.safeParse({ results: [], metadata: { total: 'many', count: 0 } }).success).toBe(false);
  });

  it('order digit ids by their exact value, beyond 2^53 too, and other ids after them by text', () => {
    const digits = fc.bigInt({ min: 0n, max: 2n ** 80n }).map((n) => n.toString());
    fc.assert(
      fc.property(digits, digits, (a, b) => {
        expect(sign(compareIds(a, b))).toBe(sign(Number(BigInt(a) - BigInt(b))));
      }),
    );
    expect(['b', '10', '9007199254740993', 'a', '9', '9007199254740992'].sort(compareIds)).toEqual([
      '9',
      '10',
      '9007199254740992',
      '9007199254740993',
      'a',
      'b',
    ]);
  });
});
