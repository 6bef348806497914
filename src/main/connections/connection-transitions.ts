// What each thing that happens to a connection does to its facts (connection-state.ts), and what
// the activity log is told: a sign-in started, ended or failed, a call succeeded or failed, the
// person chose to work offline. Pure: no I/O, no timers; connections.ts applies a step, tells the
// window, and starts the offline probe when a step took the connection offline.
import { DeskError } from '../../shared/errors';
import { isServiceError } from '../service';
import type { Profile } from '../store';
import type { ConnectionFacts, SignInView } from './connection-state';

/** What a browser sign-in connection says until it is signed in. */
export const SIGN_IN_WORDS = 'Sign in with your browser to use this connection.';

export type ConnectionEvent =
  | { type: 'sign_in_started' }
  | { type: 'signed_in'; connectionName: string }
  /** The sign-in threw `message` (null: not an Error); the failure itself came first as 'failed'. */
  | { type: 'sign_in_failed'; flow: Profile['flow']; message: string | null }
  /** A call succeeded: the service is reachable and took the credentials. */
  | { type: 'succeeded' }
  /**
   * A call failed. `read`: it changes nothing, so a lost answer means the service cannot be
   * reached (a write's lost answer is the outbox's business, not a state). `answered`: the service
   * did answer (if with a refusal), so it is reachable whatever the refusal says.
   */
  | { type: 'failed'; error: unknown; read: boolean; answered?: boolean }
  | { type: 'work_offline'; on: boolean };

export interface Note {
  level: 'info' | 'warning';
  kind: string;
  message: string;
}

/**
 * The facts after an event. `changed`: the window may have to hear of it (connections.ts sends
 * only a state that differs from the last one sent); false when the event added nothing.
 */
export interface Step {
  facts: ConnectionFacts;
  changed: boolean;
  note?: Note;
}

const SIGNED_IN: SignInView = { state: 'signed_in', message: null };

/** Before anything is known: not checked yet; a browser connection asks to be signed in. */
export function initialFacts(profile: Pick<Profile, 'flow' | 'workOffline'> | undefined): ConnectionFacts {
  return {
    reach: 'unknown',
    // Persisted with the profile, so the choice survives a restart.
    workOffline: profile?.workOffline ?? false,
    signIn:
      profile?.flow === 'authorization_code'
        ? { state: 'sign_in_required', message: SIGN_IN_WORDS }
        : { state: 'signed_out', message: null },
  };
}

/**
 * Nothing came back: the connection could not be made, or (for a read, which may safely be taken
 * for not sent) its answer was lost or late.
 */
export function noAnswer(e: unknown, opts: { read: boolean } = { read: true }): boolean {
  return isServiceError(e) && (e.kind === 'network' || (opts.read && (e.kind === 'outcome_unknown' || e.kind === 'timeout')));
}

export function nextFacts(f: ConnectionFacts, event: ConnectionEvent): Step {
  switch (event.type) {
    case 'sign_in_started':
      return { facts: { ...f, signIn: { state: 'signing_in', message: null } }, changed: true };
    case 'signed_in':
      return {
        facts: { ...f, reach: 'online', signIn: SIGNED_IN },
        changed: true,
        note: { level: 'info', kind: 'connection.signed_in', message: `Signed in to "${event.connectionName}".` },
      };
    case 'sign_in_failed': {
      // A failure that already said what is wrong (a refused secret, a missing one) stands.
      if (f.signIn.state !== 'signing_in') return { facts: f, changed: true };
      // A browser connection cannot do anything until it signs in: keep asking for it.
      const signIn: SignInView =
        event.flow === 'authorization_code'
          ? { state: 'sign_in_required', message: event.message ?? SIGN_IN_WORDS }
          : { state: 'signed_out', message: event.message };
      return { facts: { ...f, signIn }, changed: true };
    }
    case 'succeeded':
      if (f.reach === 'online' && f.signIn.state === 'signed_in') return { facts: f, changed: false };
      return { facts: { ...f, reach: 'online', signIn: SIGNED_IN }, changed: true };
    case 'failed': {
      const step = afterFailure(event.answered ? { ...f, reach: 'online' } : f, event.error, event.read);
      return event.answered ? { ...step, changed: true } : step;
    }
    case 'work_offline':
      return {
        // Going back online: not known to be reachable until it answers.
        facts: { ...f, workOffline: event.on, reach: event.on ? f.reach : 'unknown' },
        changed: true,
        note: {
          level: 'info',
          kind: 'connection.work_offline',
          message: event.on
            ? 'Working offline: nothing is sent or refreshed until you go online.'
            : 'Back online: queued changes are being sent.',
        },
      };
  }
}

/** What a failed call says of the connection: unreachable, a sign-in problem, or nothing. */
function afterFailure(f: ConnectionFacts, e: unknown, read: boolean): Step {
  if (!isServiceError(e)) {
    // The app's own refusals before anything was sent: no session, or the secret could not be read.
    if (e instanceof DeskError && (e.code === 'unauthorized' || e.code === 'keychain_unavailable')) {
      return needsSignIn(f, 'sign_in_required', e.message, e.details?.secretMissing === true);
    }
    return { facts: f, changed: false };
  }
  if (noAnswer(e, { read })) {
    if (f.reach === 'offline') return { facts: f, changed: false };
    return {
      facts: { ...f, reach: 'offline' },
      changed: true,
      note: {
        level: 'warning',
        kind: 'connection.offline',
        message: `${e.message} Your changes stay queued and are sent when it is back.`,
      },
    };
  }
  if (e.kind === 'unauthorized') return needsSignIn(f, e.reason === 'credentials_rejected' ? 'failed' : 'sign_in_required', e.message);
  return { facts: f, changed: false };
}

function needsSignIn(f: ConnectionFacts, state: 'failed' | 'sign_in_required', message: string, needsSecret = false): Step {
  if (f.signIn.state === state && f.signIn.message === message) return { facts: f, changed: false };
  return {
    facts: { ...f, signIn: { state, message, ...(needsSecret ? { needsSecret: true as const } : {}) } },
    changed: true,
    note: { level: 'warning', kind: 'connection.sign_in', message },
  };
}
