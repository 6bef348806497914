// A dot for a connection's state; the word is always next to it or in its title (never colour alone).
import type { Profile } from '../../../shared/ipc/contract';

export const CONNECTION_LABEL: Record<Profile['connection'], string> = {
  // Since start-up the service has not answered yet: neither online nor offline is known.
  unknown: 'Not checked yet',
  online: 'Online',
  offline: 'Offline',
  working_offline: 'Working offline',
  signing_in: 'Signing in',
  failing: 'Failing',
};

export function ConnectionDot({ state }: { state: Profile['connection'] }) {
  return <span className={`dot dot-${state}`} role="img" aria-label={CONNECTION_LABEL[state]} title={CONNECTION_LABEL[state]} />;
}

/** The state's word for a connection: a failing one whose secret is missing says so. */
export function connectionLabel(p: Pick<Profile, 'connection' | 'signIn'>): string {
  return p.connection === 'failing' && p.signIn.needsSecret ? 'Secret missing from the keychain' : CONNECTION_LABEL[p.connection];
}
