// The connection's transition table without HTTP, timers or a store: what each failure, success,
// sign-in and "work offline" makes of the state the window shows (connectionState), and which of
// them the activity log hears of. A refused or missing secret must say so, never "offline"; a lost
// write's answer is not an outage; a repeated failure is logged once.
import { describe, expect, it } from 'vitest';
import { DeskError } from '../../../src/shared/errors';
import { connectionState, type ConnectionFacts } from '../../../src/main/connections/connection-state';
import { initialFacts, nextFacts, SIGN_IN_WORDS, type ConnectionEvent } from '../../../src/main/connections/connection-transitions';
import { ServiceError, type ServiceErrorKind } from '../../../src/main/service';

const CHECKED: ConnectionFacts = { reach: 'online', workOffline: false, signIn: { state: 'signed_in', message: null } };

const serviceError = (kind: ServiceErrorKind, message: string, reason?: 'sign_in_required' | 'credentials_rejected') =>
  new ServiceError({ kind, message, requestWritten: kind !== 'network', ...(reason ? { reason } : {}) });

const DEAD = serviceError('network', 'The service at https://api.example refused the connection.');

/** Runs events from `facts`, returning the last facts and every note the log was given. */
function run(facts: ConnectionFacts, ...events: ConnectionEvent[]) {
  const notes: string[] = [];
  for (const e of events) {
    const step = nextFacts(facts, e);
    facts = step.facts;
    if (step.note) notes.push(`${step.note.kind}: ${step.note.message}`);
  }
  return { facts, state: connectionState(facts), notes };
}

describe('connection transitions', () => {
  it('starts "Not checked yet"; a browser connection asks for its sign-in from the start', () => {
    expect(connectionState(initialFacts({ flow: 'client_credentials', workOffline: false }))).toBe('unknown');
    const browser = initialFacts({ flow: 'authorization_code', workOffline: false });
    expect(connectionState(browser)).toBe('failing');
    expect(browser.signIn).toEqual({ state: 'sign_in_required', message: SIGN_IN_WORDS });
    expect(connectionState(initialFacts({ flow: 'authorization_code', workOffline: true }))).toBe('working_offline');
  });

  it('a refused secret is a failed sign-in with the service\'s words, reachable, never "offline"', () => {
    const refused = serviceError('unauthorized', 'The service refused the client id and secret.', 'credentials_rejected');
    const { facts, state, notes } = run(CHECKED, { type: 'failed', error: refused, read: true });
    expect(state).toBe('failing');
    expect(facts.reach).toBe('online');
    expect(facts.signIn).toEqual({ state: 'failed', message: 'The service refused the client id and secret.' });
    expect(notes).toEqual(['connection.sign_in: The service refused the client id and secret.']);
  });

  it('a secret missing from the keychain asks for the secret again (not a sign-in, not offline)', () => {
    const missing = new DeskError('unauthorized', 'The client secret of "Acme" is missing from the system keychain.', {
      secretMissing: true,
    });
    const { facts, state } = run(CHECKED, { type: 'failed', error: missing, read: false });
    expect(state).toBe('failing');
    expect(facts.signIn.needsSecret).toBe(true);
    // A locked keyring is not a lost secret: unlocking it helps, entering it again is not asked.
    const locked = new DeskError('keychain_unavailable', 'The system keychain did not give the client secret of "Acme".');
    const afterLock = run(CHECKED, { type: 'failed', error: locked, read: true });
    expect(afterLock.state).toBe('failing');
    expect(afterLock.facts.signIn.needsSecret).toBeUndefined();
  });

  it('a connection that cannot be made goes offline once: the log hears of it once, however many calls fail', () => {
    const { state, notes } = run(CHECKED, { type: 'failed', error: DEAD, read: false }, { type: 'failed', error: DEAD, read: true });
    expect(state).toBe('offline');
    expect(notes).toEqual([
      'connection.offline: The service at https://api.example refused the connection. Your changes stay queued and are sent when it is back.',
    ]);
    expect(
      nextFacts(run(CHECKED, { type: 'failed', error: DEAD, read: true }).facts, { type: 'failed', error: DEAD, read: true }).changed,
    ).toBe(false);
  });

  it("a write's lost answer is the outbox's business, not an outage; a read's lost answer is", () => {
    const lost = serviceError('outcome_unknown', 'The answer was lost.');
    expect(run(CHECKED, { type: 'failed', error: lost, read: false }).state).toBe('online');
    expect(run(CHECKED, { type: 'failed', error: serviceError('timeout', 'No answer in time.'), read: false }).state).toBe('online');
    expect(run(CHECKED, { type: 'failed', error: lost, read: true }).state).toBe('offline');
  });

  it('a refusal about one account (403), a 500 or a rate limit leaves the connection as it was', () => {
    for (const kind of ['forbidden', 'server', 'rate_limited', 'validation'] as const) {
      const step = nextFacts(CHECKED, { type: 'failed', error: serviceError(kind, `a ${kind} answer`), read: true });
      expect(step).toEqual({ facts: CHECKED, changed: false });
    }
  });

  it('a probe answered with a refusal: reachable again, and failing for the reason it gave', () => {
    const offline = run(CHECKED, { type: 'failed', error: DEAD, read: true }).facts;
    const ended = serviceError('unauthorized', 'Your session ended: sign in again.', 'sign_in_required');
    const { facts, state } = run(offline, { type: 'failed', error: ended, read: true, answered: true });
    expect(facts.reach).toBe('online');
    expect(state).toBe('failing');
    expect(facts.signIn).toEqual({ state: 'sign_in_required', message: 'Your session ended: sign in again.' });
  });

  it('any success makes an offline or failing connection online and signed in', () => {
    const offline = run(CHECKED, { type: 'failed', error: DEAD, read: true }).facts;
    expect(run(offline, { type: 'succeeded' }).state).toBe('online');
    const refused = run(CHECKED, { type: 'failed', error: serviceError('unauthorized', 'no', 'credentials_rejected'), read: true }).facts;
    expect(run(refused, { type: 'succeeded' }).facts.signIn).toEqual({ state: 'signed_in', message: null });
    expect(nextFacts(CHECKED, { type: 'succeeded' }).changed).toBe(false);
  });

  it('signing in shows "Signing in", then online with a note; a browser sign-in that fails keeps asking for one', () => {
    const browser = initialFacts({ flow: 'authorization_code', workOffline: false });
    const started = run(browser, { type: 'sign_in_started' });
    expect(started.state).toBe('signing_in');
    const done = run(started.facts, { type: 'signed_in', connectionName: 'Acme' });
    expect(done.state).toBe('online');
    expect(done.notes).toEqual(['connection.signed_in: Signed in to "Acme".']);
    const cancelled = run(
      started.facts,
      { type: 'failed', error: new Error('The sign-in was cancelled.'), read: true },
      { type: 'sign_in_failed', flow: 'authorization_code', message: 'The sign-in was cancelled.' },
    );
    expect(cancelled.state).toBe('failing');
    expect(cancelled.facts.signIn).toEqual({ state: 'sign_in_required', message: 'The sign-in was cancelled.' });
  });

  it('a sign-in that could not reach the service shows offline, and one the service refused keeps its words', () => {
    const started = run(initialFacts({ flow: 'client_credentials', workOffline: false }), { type: 'sign_in_started' }).facts;
    const unreachable = run(
      started,
      { type: 'failed', error: DEAD, read: true },
      { type: 'sign_in_failed', flow: 'client_credentials', message: DEAD.message },
    );
    expect(unreachable.state).toBe('offline');
    const refused = serviceError('unauthorized', 'The service refused the client id and secret.', 'credentials_rejected');
    const denied = run(
      started,
      { type: 'failed', error: refused, read: true },
      { type: 'sign_in_failed', flow: 'client_credentials', message: refused.message },
    );
    expect(denied.state).toBe('failing');
    expect(denied.facts.signIn.state).toBe('failed');
  });

  it('working offline overrides everything; going back online is "Not checked yet", not a guessed online', () => {
    const offline = run(CHECKED, { type: 'failed', error: DEAD, read: true }).facts;
    const chosen = run(offline, { type: 'work_offline', on: true });
    expect(chosen.state).toBe('working_offline');
    expect(chosen.notes).toEqual(['connection.work_offline: Working offline: nothing is sent or refreshed until you go online.']);
    const back = run(chosen.facts, { type: 'work_offline', on: false });
    expect(back.state).toBe('unknown');
    expect(back.notes).toEqual(['connection.work_offline: Back online: queued changes are being sent.']);
  });
});
