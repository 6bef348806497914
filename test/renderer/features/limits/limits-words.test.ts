// What the Limits tab says: spans as a person says them, countdowns that run from the picture's
// time, and the drain estimate's three cases (a time, now, unknown until the service answers).
import { describe, expect, it } from 'vitest';
import {
  budgetName,
  formatSpan,
  modelNote,
  refillLabel,
  usedOfQuota,
  windowName,
} from '../../../../src/renderer/features/limits/limits-words';

describe('limits words', () => {
  it('says spans in seconds, then about minutes and hours', () => {
    expect(formatSpan(400)).toBe('1 s');
    expect(formatSpan(59_000)).toBe('59 s');
    expect(formatSpan(125_000)).toBe('about 2 min');
    expect(formatSpan(65 * 60_000)).toBe('about 1 h 5 min');
  });

  it('names windows and budgets', () => {
    expect(windowName({ windowMs: 60_000 })).toBe('per minute');
    expect(windowName({ windowMs: 6_000 })).toBe('per 6 s');
    expect(budgetName({ group: 'campaigns', budget: 'write' })).toBe('Create campaigns (writes)');
    expect(budgetName({ group: 'campaigns.list', budget: 'read' })).toBe('List campaigns (reads)');
    expect(usedOfQuota({ used: 7, quota: 10 })).toBe('7 of 10 used');
  });

  it('says what a budget not learned from the service rests on', () => {
    const window = { name: 'second', quota: 10, used: 0, windowMs: 1_000, resetInMs: 0, nextSlotInMs: 0, holding: false };
    expect(modelNote({ model: 'guess', windows: [window] })).toBe('Not learned yet: the documented limits until the service answers');
    // Push: the interface documents no limits, so nothing is assumed but caution.
    expect(modelNote({ model: 'guess', windows: [] })).toBe('Not learned yet: one request at a time until the service answers');
    expect(modelNote({ model: 'unlimited', windows: [] })).toBe('Not rate limited: the service sends no limits for it');
    expect(modelNote({ model: 'learned', windows: [window] })).toBeNull();
  });

  it('counts a refill down from when the picture was taken', () => {
    const w = { used: 2, resetInMs: 30_000 };
    expect(refillLabel(w, 0)).toBe('Refills in 30 s');
    expect(refillLabel(w, 12_000)).toBe('Refills in 18 s');
    expect(refillLabel(w, 31_000)).toBe('Refilled');
    expect(refillLabel({ used: 0, resetInMs: 0 }, 0)).toBe('Full');
    expect(refillLabel({ used: 1, resetInMs: null }, 0)).toBe('Refills once the service answers');
  });
});
