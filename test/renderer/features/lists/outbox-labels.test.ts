import { describe, expect, it } from 'vitest';
import {
  canDiscard,
  canRetry,
  canTakeBack,
  isAmbiguous,
  OUTBOX_LABEL,
  outboxDetail,
  outboxStateLabel,
  postedLabel,
  waitLabel,
} from '../../../../src/renderer/features/lists/outbox-labels';
import type { OutboxItem, OutboxWait } from '../../../../src/shared/ipc/contract';

const item = (o: Partial<OutboxItem>): OutboxItem => ({
  id: '1',
  profileId: 'p',
  accountId: 'a',
  kind: 'create_campaign',
  summary: 'Create campaign "x"',
  state: 'queued',
  attempts: 0,
  lastError: null,
  fix: null,
  createdAt: 0,
  updatedAt: 0,
  nextAttemptAt: null,
  ...o,
});
const wait = (w: Partial<OutboxWait>): OutboxWait => ({
  id: '1',
  profileId: 'p',
  accountId: 'a',
  reason: 'next',
  until: null,
  ahead: 0,
  window: null,
  lastTry: null,
  ...w,
});

describe('one change, one item', () => {
  it('offers Take back / Fix only for a change made from a draft that is queued, refused or blocked', () => {
    for (const state of ['queued', 'failed', 'blocked'] as const) expect(canTakeBack(item({ state, draftId: 'd1' })), state).toBe(true);
    // On its way or being looked for on the service: it may be there already.
    for (const state of ['sending', 'uncertain', 'sent'] as const) expect(canTakeBack(item({ state, draftId: 'd1' })), state).toBe(false);
    // A task edit or a service-worker path has no draft to go back to.
    expect(canTakeBack(item({ state: 'failed', kind: 'update_task' }))).toBe(false);
  });
  it("names a posted change by the service's id", () => {
    expect(postedLabel(item({ state: 'sent', posted: { kind: 'campaign', ids: ['4100123'] } }))).toBe('campaign 4100123');
    expect(postedLabel(item({ state: 'sent', posted: { kind: 'task', ids: ['77', '78'] } }))).toBe('tasks 77, 78');
    expect(postedLabel(item({ state: 'sent' }))).toBe('');
  });
});

describe('outbox item presentation', () => {
  it('says an uncertain item is being checked, not resent', () => {
    expect(OUTBOX_LABEL.uncertain).toBe('Checking whether it arrived');
  });
  it("shows a failed item's server message and a blocked item's offered fix", () => {
    expect(outboxDetail(item({ state: 'failed', lastError: { code: 'validation', message: 'cpc too low' } }))).toBe('cpc too low');
    expect(
      outboxDetail(item({ state: 'blocked', lastError: { code: 'validation', message: 'Time passed.' }, fix: 'Pick a new time.' })),
    ).toBe('Time passed. Pick a new time.');
  });
  it('says an ambiguous match waits for the person, with the matches the service listed', () => {
    const o = item({
      state: 'uncertain',
      lastError: { code: 'AMBIGUOUS', message: 'The service now lists 2 campaigns that look like this one (11, 12).' },
    });
    expect(isAmbiguous(o)).toBe(true);
    expect(outboxStateLabel(o)).toBe('Needs your answer');
    expect(outboxDetail(o)).toMatch(/\(11, 12\)/);
    expect(outboxStateLabel(item({ state: 'uncertain', lastError: { code: 'UNKNOWN', message: 'lost' } }))).toBe(OUTBOX_LABEL.uncertain);
  });
  it('says a parked item waits for the person, in the words the engine gave', () => {
    const o = item({
      state: 'uncertain',
      lastError: { code: 'PARKED', message: 'Check the account on the service: if it is not there, send it again.' },
    });
    expect(isAmbiguous(o)).toBe(true);
    expect(outboxStateLabel(o)).toBe('Needs your answer');
    expect(outboxDetail(o)).toMatch(/send it again/);
  });
  it('says a 5xx was the service answering with an error, not a dropped connection', () => {
    const d = outboxDetail(item({ state: 'uncertain', lastError: { code: 'SERVER', message: 'Internal error (500)' } }));
    expect(d).toMatch(/service answered with an error \(Internal error \(500\)\)/);
    expect(d).not.toMatch(/connection dropped/);
    expect(outboxDetail(item({ state: 'uncertain', lastError: { code: 'UNKNOWN', message: 'timed out' } }))).toMatch(
      /^No answer came back \(timed out\)/,
    );
  });
  it('offers Retry and Discard only where the core accepts them', () => {
    expect(canRetry(item({ state: 'sent' }))).toBe(false);
    expect(canRetry(item({ state: 'failed' }))).toBe(true);
    expect(canRetry(item({ state: 'failed', draftEdited: true }))).toBe(false);
    // Blocked: Retry only where sending it again as it is may pass; a passed time or a task that ran cannot.
    expect(canRetry(item({ state: 'blocked', lastError: { code: 'RULES', message: 'Not sent' } }))).toBe(true);
    expect(canRetry(item({ state: 'blocked', kind: 'schedule_push', lastError: { code: 'TIME_PASSED', message: 'Not sent' } }))).toBe(
      false,
    );
    expect(canRetry(item({ state: 'blocked', kind: 'update_task', lastError: { code: 'TIME_PASSED', message: 'Not sent' } }))).toBe(false);
    expect(canRetry(item({ state: 'blocked', kind: 'cancel_task', lastError: { code: 'TASK_NOT_FUTURE', message: 'Not sent' } }))).toBe(
      false,
    );
    // A queued change: "try now" only where trying can do something.
    expect(canRetry(item({ state: 'queued' }), wait({ reason: 'retry' }))).toBe(true);
    expect(canRetry(item({ state: 'queued' }), wait({ reason: 'offline' }))).toBe(true);
    for (const reason of ['working_offline', 'signing_in', 'rate_limit', 'turn', 'next', 'sending'] as const) {
      expect(canRetry(item({ state: 'queued' }), wait({ reason })), reason).toBe(false);
    }
    expect(canDiscard(item({ state: 'sending' }))).toBe(false);
    expect(canDiscard(item({ state: 'blocked' }))).toBe(true);
  });
  it('says why a queued item waits, never "now" while offline or working offline', () => {
    const o = item({ nextAttemptAt: 0 });
    expect(waitLabel(wait({ reason: 'working_offline' }), o, 0)).toBe('Working offline: nothing is sent until you go online');
    expect(waitLabel(wait({ reason: 'offline' }), o, 0)).toMatch(/^Offline: sent when the service can be reached again/);
    expect(waitLabel(wait({ reason: 'signing_in' }), o, 0)).toBe('Waiting for sign-in');
    expect(waitLabel(wait({ reason: 'turn', ahead: 2 }), o, 0)).toBe('Its turn comes behind 2 earlier changes of this account');
    expect(waitLabel(wait({ reason: 'next' }), o, 0)).toBe('Next to send');
    expect(waitLabel(wait({ reason: 'retry', until: 30_000 }), o, 0)).toMatch(/^Tried again in 30 s/);
    for (const r of ['working_offline', 'offline', 'signing_in', 'turn'] as const)
      expect(waitLabel(wait({ reason: r }), o, 0)).not.toMatch(/\bnow\b/);
  });
  it('says, while the connection holds every change, how many go before this one', () => {
    const o = item({});
    expect(waitLabel(wait({ reason: 'working_offline', ahead: 2 }), o, 0)).toBe(
      'Working offline: nothing is sent until you go online; 2 earlier changes go first',
    );
    expect(waitLabel(wait({ reason: 'offline', ahead: 1 }), o, 0)).toBe(
      'Offline: sent when the service can be reached again; 1 earlier change goes first',
    );
    expect(waitLabel(wait({ reason: 'signing_in', ahead: 3 }), o, 0)).toBe('Waiting for sign-in; 3 earlier changes go first');
  });
  it('says a rate-limit wait with its window, how full it is and when a request fits again; the badge is not "Sending"', () => {
    const o = item({ state: 'sending' });
    const w = wait({
      reason: 'rate_limit',
      until: 40_000,
      window: { group: 'campaigns', name: 'minute', used: 15, quota: 15, windowMs: 60_000, nextSlotAt: 40_000 },
    });
    expect(waitLabel(w, o, 0)).toMatch(/^Rate limit \(campaigns\): 15 of 15 per minute used; a request fits again in 40 s/);
    expect(outboxStateLabel(o, w)).toBe('Waiting');
    expect(outboxStateLabel(o, wait({ reason: 'sending' }))).toBe('Sending');
  });
});
