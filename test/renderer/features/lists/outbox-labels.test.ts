import { describe, expect, it } from 'vitest';
import { canDiscard, canRetry, formatNextAttempt, isAmbiguous, OUTBOX_LABEL, outboxDetail, outboxStateLabel } from '../../../../src/renderer/features/lists/outbox-labels';
import type { OutboxItem } from '../../../../src/shared/ipc/contract';

const item = (o: Partial<OutboxItem>): OutboxItem => ({
  id: '1', profileId: 'p', accountId: 'a', kind: 'create_campaign', summary: 'Create campaign "x"', state: 'queued', attempts: 0,
  lastError: null, fix: null, createdAt: 0, updatedAt: 0, nextAttemptAt: null, ...o,
});

describe('outbox item presentation', () => {
  it('says an uncertain item is being checked, not resent', () => {
    expect(OUTBOX_LABEL.uncertain).toBe('Checking whether it arrived');
  });
  it("shows a failed item's server message and a blocked item's offered fix", () => {
    expect(outboxDetail(item({ state: 'failed', lastError: { code: 'validation', message: 'cpc too low' } }))).toBe('cpc too low');
    expect(outboxDetail(item({ state: 'blocked', lastError: { code: 'validation', message: 'Time passed.' }, fix: 'Pick a new time.' }))).toBe('Time passed. Pick a new time.');
  });
  it('says an ambiguous match waits for the person, with the matches the service listed', () => {
    const o = item({ state: 'uncertain', lastError: { code: 'AMBIGUOUS', message: 'The service now lists 2 campaigns that look like this one (11, 12).' } });
    expect(isAmbiguous(o)).toBe(true);
    expect(outboxStateLabel(o)).toBe('Needs your answer');
    expect(outboxDetail(o)).toMatch(/\(11, 12\)/);
    expect(outboxStateLabel(item({ state: 'uncertain', lastError: { code: 'UNKNOWN', message: 'lost' } }))).toBe(OUTBOX_LABEL.uncertain);
  });
  it('offers Retry and Discard only where the core accepts them', () => {
    expect(canRetry(item({ state: 'sent' }))).toBe(false);
    expect(canRetry(item({ state: 'failed' }))).toBe(true);
    expect(canDiscard(item({ state: 'sending' }))).toBe(false);
    expect(canDiscard(item({ state: 'blocked' }))).toBe(true);
  });
  it('formats the next attempt relative to now', () => {
    expect(formatNextAttempt(null, 0)).toBe('');
    expect(formatNextAttempt(30_000, 0)).toBe('in 30 s');
    expect(formatNextAttempt(600_000, 0)).toBe('in 10 min');
    expect(formatNextAttempt(-5, 0)).toBe('now');
  });
});
