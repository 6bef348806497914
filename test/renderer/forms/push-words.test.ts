import { describe, expect, it } from 'vitest';
import { addChip, newPushForm, pushFormProblems, setUserData, type PushForm } from '../../../src/renderer/forms/push-form';
import { pushProblemInWords } from '../../../src/renderer/forms/push-words';
import { targetProblems, taskUpdateProblems } from '../../../src/shared/domain/push';

const NOW = Date.parse('2026-11-28T10:00:00Z');
/** A rule's field path or field name left in a message: what a person must never read. */
const RAW = /\btarget\.[a-z]|\b(?:itemDescription|thumbnailUrl|iconUrl|executionTime|userTimeZone|include\.apps)\b/;

const said = (f: PushForm) => pushFormProblems(f, NOW).map(pushProblemInWords);

describe('push problems in the composer’s words', () => {
  it('says a blank push’s four problems by the labels of the window', () => {
    expect(said(newPushForm())).toEqual([
      'Title is needed: the line the subscribers see first.',
      'URL is needed: where a click on the push leads.',
      'Performer is needed: who sends the push (recorded by the service).',
      'Apps: pick at least one app to send to.',
    ]);
  });

  it('never leaves a field path or name in any message a form can earn', () => {
    let f: PushForm = {
      ...newPushForm(),
      title: 'x'.repeat(200),
      thumbnailUrl: 'nope',
      icon: 'ftp://a/b.png',
      mode: 'scheduled',
      executionLocal: '2020-01-01T09:00',
    };
    f = addChip(addChip(f, 'include', 'countries', 'DE'), 'exclude', 'countries', 'FR');
    f = setUserData(setUserData(f, 'include', 'tier', ['gold']), 'exclude', 'tier', ['free']);
    f = setUserData(f, 'include', 'is_push_delivery_active', ['1']);
    const messages = [
      ...said(f),
      ...said({ ...f, executionLocal: '' }),
      ...said({ ...f, executionLocal: '2026-13-45T99:99' }),
      ...targetProblems({
        include: { apps: Array.from({ length: 201 }, (_, i) => String(i)) },
        exclude: { apps: ['1'], colour: ['red'] } as never,
      }).map(pushProblemInWords),
    ];
    expect(messages.length).toBeGreaterThanOrEqual(12);
    for (const m of messages) {
      expect(m).not.toMatch(RAW);
      expect(m).toMatch(/^[A-Z].*[.!?]$/);
    }
    expect(messages).toContain('Countries: either include or exclude, not both.');
    expect(messages).toContain('User data tier: either include or exclude, not both.');
    expect(messages).toContain('When: this time has passed; pick a later one.');
    expect(messages).toContain('When: pick the day and time to send it.');
    expect(messages).toContain('Apps: at most 200 apps in one push.');
  });

  it('says a scheduled task edit’s problems in the same words', () => {
    const messages = taskUpdateProblems(
      { title: ' ', performer: '', thumbnailUrl: 'nope', icon: 'ftp://a', userTimeZone: 3, executionTime: NOW - 1 },
      NOW,
    ).map(pushProblemInWords);
    expect(messages).toHaveLength(6);
    for (const m of messages) expect(m).not.toMatch(RAW);
    expect(messages).toContain('When: this time has passed; pick a later one.');
  });

  it('says a message it has no words for with the labels in place of field paths', () => {
    expect(pushProblemInWords({ field: 'target.include', message: 'target.include.colour is not known' })).toBe(
      'Include colour is not known.',
    );
  });
});
