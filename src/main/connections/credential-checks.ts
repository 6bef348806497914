// Credentials checked before anything is saved: a connection edit's new secret, and whether a
// connection being added can be reached. Through the shared token of the client id
// (client-tokens.ts), so a check never revokes another connection's token.
import { DeskError } from '../../shared/errors';
import type { Clock } from '../clock/clock';
import { isServiceError, type ClientTokenPool, type HttpTransport, type ServiceError } from '../service';
import type { Profile } from '../store';
import { noAnswer } from './connection-transitions';

/** How long adding a connection waits for its service before asking whether to save it offline. */
export const CHECK_DEADLINE_MS = 10_000;

/** The token endpoint said no to these credentials (not: could not be asked). */
export const isCredentialRefusal = (e: unknown): e is ServiceError =>
  isServiceError(e) && (e.kind === 'unauthorized' || e.kind === 'forbidden' || e.kind === 'validation');

/** A connection as the add dialog has it, before it is saved. */
export interface UnsavedConnection {
  flow: Profile['flow'];
  baseUrl: string;
  authUrl: string;
  clientId: string;
  secret: string;
}

/**
 * Whether the service takes these credentials, without touching any connection: a connection
 * edit is saved only when this succeeds. Through the shared token of the client id (a secret
 * its live token was issued for is known good; another is asked of the service and its token
 * shared), so the check revokes no other connection's token. Throws a DeskError in the person's words.
 */
export async function verifyClientCredentials(
  tokens: ClientTokenPool,
  c: { authUrl: string; clientId: string; secret: string },
): Promise<void> {
  try {
    await tokens.check(c);
  } catch (e) {
    if (isCredentialRefusal(e)) {
      throw new DeskError('unauthorized', `The service refused this client id and secret, so nothing was changed: ${e.message}`, {
        field: 'clientSecret',
      });
    }
    const why = isServiceError(e) ? e.message : 'no answer';
    throw new DeskError(
      'offline',
      `The sign-in address ${c.authUrl} could not be asked whether this secret is right (${why}), so nothing was changed. Check the address, or try again when it can be reached.`,
    );
  }
}

/**
 * Whether a connection not yet saved can be reached: null when its service answered, else why
 * not in the transport's words. Client credentials ask for a token, and a refusal of them is
 * thrown (a wrong secret is never saved: the person would only learn it at the first sync); a
 * browser sign-in has no credentials to use yet, so its API address is asked for anything at all.
 */
export async function unreachableReason(
  deps: { tokens: ClientTokenPool; transport: HttpTransport; clock: Clock },
  c: UnsavedConnection,
): Promise<string | null> {
  const { tokens, transport, clock } = deps;
  // A host that takes the connection and never answers would keep the person waiting for the
  // whole request timeout; the dialog asks sooner whether to save it and work offline.
  const deadline = new AbortController();
  const timer = clock.setTimer(
    () => deadline.abort(new DOMException('the service did not answer in time', 'TimeoutError')),
    CHECK_DEADLINE_MS,
  );
  const signal = deadline.signal;
  try {
    if (c.flow === 'client_credentials') {
      await tokens.check({ authUrl: c.authUrl, clientId: c.clientId, secret: c.secret, signal });
    } else {
      await transport.send({ method: 'GET', url: c.baseUrl, signal });
    }
    return null;
  } catch (e) {
    if (signal.aborted) return `It did not answer within ${CHECK_DEADLINE_MS / 1000} seconds.`;
    if (isServiceError(e) && noAnswer(e)) return e.message;
    if (c.flow === 'client_credentials' && isCredentialRefusal(e)) {
      throw new DeskError(
        'unauthorized',
        `The service refused this client id and secret, so the connection was not added: ${e.message}. Check both and try again.`,
        {
          field: 'clientSecret',
        },
      );
    }
    return null;
  } finally {
    timer.cancel();
  }
}
