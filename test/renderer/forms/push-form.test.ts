import { describe, expect, it } from 'vitest';
import {
  addChip,
  chipProblem,
  formToEvent,
  formToPayload,
  newPushForm,
  payloadToForm,
  previewImage,
  pushFormProblems,
  removeChip,
  setUserData,
} from '../../../src/renderer/forms/push-form';
import { titleLengthHint } from '../../../src/shared/domain/push';

const NOW = Date.parse('2030-01-01T12:00:00Z');
const ready = () => ({ ...newPushForm(), title: 'Hello', url: 'https://x.example', performer: 'me', apps: ['1001'] });

describe('push composer form', () => {
  it('is ready when the rules of spec 2.4/2.5 are met', () => {
    expect(pushFormProblems(ready(), NOW)).toEqual([]);
  });

  it('needs at least one app', () => {
    expect(pushFormProblems({ ...ready(), apps: [] }, NOW).map((p) => p.field)).toEqual(['target.include.apps']);
  });

  it('refuses the same attribute in include and exclude, and accepts it again once one side is emptied', () => {
    let f = addChip(ready(), 'include', 'countries', 'DE');
    f = addChip(f, 'exclude', 'countries', 'FR');
    expect(pushFormProblems(f, NOW)).toEqual([
      { field: 'target.countries', message: 'Targeting attribute countries cannot have values in both include and exclude' },
    ]);
    expect(pushFormProblems(removeChip(f, 'exclude', 'countries', 'FR'), NOW)).toEqual([]);
  });

  it('sends os and browsers as numbers and refuses a non-numeric chip for them', () => {
    expect(chipProblem('os', 'linux')).toBe('OS ids are numbers given by the service (e.g. 12), not names: "linux" is not one');
    const f = addChip(addChip(ready(), 'include', 'os', 'linux'), 'include', 'os', '3');
    expect(formToEvent(f).target?.include?.os).toEqual([3]);
  });

  it('needs a future time for a scheduled push and none for an immediate one', () => {
    const f = { ...ready(), mode: 'scheduled' as const };
    expect(pushFormProblems(f, NOW).map((p) => p.message)).toEqual(['executionTime is required for scheduled push']);
    expect(pushFormProblems({ ...f, executionLocal: '2029-12-31T10:00' }, NOW).map((p) => p.message)).toEqual([
      'executionTime must be in the future for scheduled push',
    ]);
    expect(pushFormProblems({ ...f, executionLocal: '2030-01-02T10:00' }, NOW)).toEqual([]);
    expect(formToEvent({ ...ready(), executionLocal: '2030-01-02T10:00' }).executionTime).toBeUndefined();
  });

  it('round-trips through a push draft payload, user_data included', () => {
    const f = setUserData(
      addChip(
        { ...ready(), mode: 'scheduled', executionLocal: '2030-01-02T10:00', icon: 'https://i.example/a.png', userTimeZone: 1 },
        'exclude',
        'languages',
        'en',
      ),
      'include',
      'tier',
      ['gold', 'silver'],
    );
    expect(payloadToForm(formToPayload(f))).toEqual(f);
  });

  it('shows images only over https, and hints at 50-80 characters for titles', () => {
    expect(previewImage('https://a.example/i.png')).toBe('https://a.example/i.png');
    expect(previewImage('http://a.example/i.png')).toBeNull();
    expect(previewImage('not a url')).toBeNull();
    expect(titleLengthHint('x'.repeat(10))).toMatch(/50-80/);
    expect(titleLengthHint('x'.repeat(60))).toBeNull();
    expect(titleLengthHint('x'.repeat(100))).toMatch(/Long titles/);
  });
});
