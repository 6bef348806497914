import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../src/renderer/lib/draft-journal';
import { formToPayload, newPushForm } from '../../../src/renderer/forms/push-form';
import { isBlankPushForm, journaledPushForm, planPushRecovery } from '../../../src/renderer/forms/push-recovery';

const push = (draftId: string, seq: number, title: string): JournalEntry => ({
  draftId,
  kind: 'push',
  profileId: 'p1',
  accountId: 'acme',
  seq,
  payload: formToPayload({ ...newPushForm(), title }) as unknown as Record<string, unknown>,
});

describe('push composer recovery', () => {
  it('counts a form as blank only while nothing is typed in it', () => {
    expect(isBlankPushForm(newPushForm())).toBe(true);
    // The performer is prefilled from the connection's default: alone it is not something typed.
    expect(isBlankPushForm({ ...newPushForm(), performer: 'me@example.com' })).toBe(true);
    expect(isBlankPushForm({ ...newPushForm(), title: 'x', performer: 'me@example.com' })).toBe(false);
    expect(isBlankPushForm({ ...newPushForm(), mode: 'scheduled', userTimeZone: 1 })).toBe(false);
  });

  it('reads back the form a journaled push payload holds, and refuses other shapes', () => {
    const form = { ...newPushForm(), title: 'Flash sale', url: 'https://shop.example.com', performer: 'ops@example.com' };
    expect(journaledPushForm({ ...push('d1', 1, ''), payload: formToPayload(form) as unknown as Record<string, unknown> })).toEqual(form);
    expect(journaledPushForm({ ...push('d1', 1, ''), payload: { mode: 'sometimes' } })).toBeNull();
    expect(journaledPushForm({ ...push('d1', 1, ''), kind: 'campaign', payload: { name: 'x' } })).toBeNull();
  });

  it('reopens the newest edit, creates the other never-created pushes, and drops blank local ones', () => {
    const plan = planPushRecovery([
      push('local-a', 5, 'older, never created'),
      push('d1', 9, 'newest, of a created draft'),
      push('local-b', 12, ''),
      push('d2', 2, 'created, left to the drafts store replay'),
      { ...push('c1', 20, ''), kind: 'campaign', payload: { name: 'a campaign' } },
    ]);
    expect(plan.open?.entry.draftId).toBe('d1');
    expect(plan.open?.form.title).toBe('newest, of a created draft');
    expect(plan.create.map((e) => e.draftId)).toEqual(['local-a']);
    expect(plan.drop.map((e) => e.draftId)).toEqual(['local-b']);
  });

  it('has nothing to do when the journal holds no push', () => {
    expect(planPushRecovery([])).toEqual({ open: null, create: [], drop: [] });
  });
});
