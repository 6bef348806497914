// What the Limits tab says: spans as a person says them, countdowns that run from the picture's
// time, and the drain estimate's three cases (a time, now, unknown until the service answers).
import { describe, expect, it } from 'vitest';
import { budgetName, drainLabel, formatSpan, modelNote, queuedLabel, refillLabel, usedOfQuota, windowName } from '../../../../src/renderer/features/limits/limits-words';

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

  it('says when the queue is drained: a time, now, or unknown until the service answers', () => {
    expect(drainLabel({ queued: 3, drainEstimateMs: 120_000 }, 0)).toBe('All sent in about 2 min');
    expect(drainLabel({ queued: 3, drainEstimateMs: 120_000 }, 110_000)).toBe('All sent in 10 s');
    expect(drainLabel({ queued: 1, drainEstimateMs: 0 }, 0)).toBe('All sent now');
    expect(drainLabel({ queued: 2, drainEstimateMs: null }, 0)).toBe('All sent: unknown until the service answers');
    expect(drainLabel({ queued: 0, drainEstimateMs: 0 }, 0)).toBe('Nothing to send');
    expect(queuedLabel({ queued: 1 })).toBe('1 change queued');
  });

  it('promises no time while the connection cannot send', () => {
    expect(drainLabel({ queued: 2, drainEstimateMs: 5_000 }, 0, 'working_offline')).toBe('Nothing is sent while working offline');
    expect(drainLabel({ queued: 2, drainEstimateMs: 5_000 }, 0, 'offline')).toBe('Sent when the service can be reached again');
    expect(drainLabel({ queued: 2, drainEstimateMs: 5_000 }, 0, 'failing')).toBe('Sent after the sign-in');
    expect(drainLabel({ queued: 2, drainEstimateMs: 5_000 }, 0, 'unknown')).toBe('All sent in 5 s');
  });
});
