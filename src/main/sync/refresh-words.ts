// How a failed refresh is said in the activity log and its progress: the error's own words
// (service and app errors carry words a person can act on), else a plain sentence; and why a
// refresh did not start at all, by the connection's state.
import type { ConnectionView } from '../connections/connections';
import { isServiceError } from '../service';

export function describeFailure(e: unknown): string {
  if (isServiceError(e) || e instanceof Error) return e.message;
  return 'The refresh failed.';
}

/**
 * Why a refresh did not start, by the connection's state: only an offline one "cannot be
 * reached"; a connection that needs its secret or a sign-in says that instead.
 */
export function notRefreshedBecause({ connection, signIn }: ConnectionView): string {
  switch (connection) {
    case 'working_offline':
      return 'Working offline: not refreshed.';
    case 'signing_in':
      return 'Signing in: refreshed once that is done; showing the last synced data.';
    case 'failing':
      return `Not refreshed: ${signIn.message ?? 'sign in to this connection.'} Showing the last synced data.`;
    default:
      return 'The service cannot be reached now; showing the last synced data.';
  }
}
