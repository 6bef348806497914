// Ids the service hands out are strings in Campaign Desk (DECISIONS client 14): read as the
// service spelled them, never through a JS number, and ordered by their exact value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { campaignSchema } from '../../../src/shared/domain/campaign';
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
    expect(campaignSchema.parse({ id: '1', name: 'a', spent: '123456789012345678901', cpc: 0.5 })).toMatchObject({ spent: Number('123456789012345678901'), cpc: 0.5 });
    expect(campaignSchema.safeParse({ id: '1', name: 'a', spent: '12.5' }).success).toBe(false);
  });

  it('order digit ids by their exact value, beyond 2^53 too, and other ids after them by text', () => {
    const digits = fc.bigInt({ min: 0n, max: 2n ** 80n }).map((n) => n.toString());
    fc.assert(
      fc.property(digits, digits, (a, b) => {
        expect(sign(compareIds(a, b))).toBe(sign(Number(BigInt(a) - BigInt(b))));
      }),
    );
    expect(['b', '10', '9007199254740993', 'a', '9', '9007199254740992'].sort(compareIds)).toEqual(['9', '10', '9007199254740992', '9007199254740993', 'a', 'b']);
  });
});
