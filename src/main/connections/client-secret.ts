// A connection's client secret, read from the keychain when a token is needed: what fails here
// fails before anything is sent, in words that say what to do (unlock the keyring, enter it again).
import { DeskError } from '../../shared/errors';
import type { SecretPort } from '../secrets/secret-port';
import type { Profile } from '../store';

/** The profile's client secret; what fails here fails before anything is sent. */
export async function readClientSecret(secrets: SecretPort, p: Profile): Promise<string> {
  let s: string | null | undefined;
  try {
    s = await secrets.get(p.id, 'client_secret');
  } catch {
    throw new DeskError(
      'keychain_unavailable',
      `The system keychain did not give the client secret of "${p.name}". Unlock your keyring; queued changes wait until then.`,
    );
  }
  if (!s) {
    throw new DeskError(
      'unauthorized',
      `The client secret of "${p.name}" is missing from the system keychain. Enter it again ("Enter secret"); its drafts and queued changes are kept.`,
      { field: 'clientSecret', secretMissing: true },
    );
  }
  return s;
}
