// A connection's state as the window shows it, derived from what is known of it: the person's
// choice to work offline, the sign-in, and whether the service answered. Pure: no I/O, no timers
// (connection-transitions.ts says how the facts change; connections.ts keeps them and tells the
// window when the derived state changes).
import type { CONNECTION_STATES } from '../../shared/ipc/contract';

export type ConnectionState = (typeof CONNECTION_STATES)[number];
export type SignInState = 'signed_in' | 'signed_out' | 'signing_in' | 'sign_in_required' | 'failed';

/**
 * `needsSecret`: signing in cannot help, the client secret is missing from the keychain (it was
 * deleted or lost there): the person must enter it again.
 */
export interface SignInView {
  state: SignInState;
  message: string | null;
  needsSecret?: true;
}

export interface ConnectionView {
  connection: ConnectionState;
  signIn: SignInView;
}

/** Reachability as last observed: 'unknown' until the service answers (or fails to) after start-up. */
export type Reach = 'unknown' | 'online' | 'offline';

/** States in which work may go out: 'unknown' too, since trying is how reachability is learned. */
export function usable(s: ConnectionState): boolean {
  return s === 'online' || s === 'unknown';
}

/** What is known of a connection, from which its state follows. */
export interface ConnectionFacts {
  /** Working offline and sign-in problems override it. */
  reach: Reach;
  workOffline: boolean;
  signIn: SignInView;
}

/** The one table from a connection's facts to its state: offline by choice, then sign-in, then reach. */
export function connectionState(c: ConnectionFacts): ConnectionState {
  if (c.workOffline) return 'working_offline';
  if (c.signIn.state === 'signing_in') return 'signing_in';
  if (c.signIn.state === 'sign_in_required' || c.signIn.state === 'failed') return 'failing';
  return c.reach;
}
