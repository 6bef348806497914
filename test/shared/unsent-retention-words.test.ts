// The words a person reads when a removal is refused and before a shorter retention is saved:
// counted by kind, one noun for the changes, the verb agreeing, and nothing said when nothing goes.
import { describe, expect, it } from 'vitest';
import { countUnsent, unsentPhrase, unsentRefusal, type UnsentGroup } from '../../src/shared/domain/unsent';
import { retentionEffectText, retentionSchema } from '../../src/shared/retention';

const counted = (...groups: UnsentGroup[]) => countUnsent(groups.map((group) => ({ group })));

describe('unsent work in words', () => {
  it('counts drafts apart and names the changes once, after the last kind', () => {
    expect(unsentRefusal(counted('draft', 'draft', 'draft', 'queued', 'failed', 'failed'))).toBe(
      '3 drafts, 1 queued and 2 failed changes are not sent: export them or choose to discard them.',
    );
    expect(unsentPhrase(counted('draft', 'failed'))).toBe('1 draft and 1 failed change are not sent');
    expect(unsentPhrase(counted('blocked', 'uncertain'))).toBe('1 being checked and 1 blocked changes are not sent');
  });

  it('agrees with one item, and says nothing when nothing is unsent', () => {
    expect(unsentRefusal(counted('draft'))).toBe('1 draft is not sent: export it or choose to discard it.');
    expect(unsentPhrase(counted('queued'))).toBe('1 queued change is not sent');
    expect(unsentPhrase(counted())).toBe('');
  });
});

describe('retention in words', () => {
  it('says what a shorter period removes, and nothing when nothing goes', () => {
    expect(retentionEffectText({ sent: 12, activity: 0 }, { sentDays: 7, activityDays: 30 })).toBe(
      '12 sent changes older than 7 days will be removed when you save.',
    );
    expect(retentionEffectText({ sent: 1, activity: 40 }, { sentDays: 1, activityDays: 3 })).toBe(
      '1 sent change older than 1 day and 40 activity entries older than 3 days will be removed when you save.',
    );
    expect(retentionEffectText({ sent: 0, activity: 0 }, { sentDays: 7, activityDays: 7 })).toBeNull();
  });

  it('keeps whole days from 1 to 365, naming the field in what it says', () => {
    expect(retentionSchema.safeParse({ sentDays: 1, activityDays: 365 }).success).toBe(true);
    const words = (v: Record<string, number>) => retentionSchema.safeParse(v).error?.issues.map((i) => i.message);
    expect(words({ sentDays: 366, activityDays: 30 })).toEqual(['Sent history: keep it at most 365 days (a year).']);
    expect(words({ sentDays: 30, activityDays: 0 })).toEqual(['Activity log: keep it at least 1 day.']);
    expect(words({ sentDays: 2.5, activityDays: 30 })).toEqual(['Sent history: write a whole number of days.']);
  });
});
