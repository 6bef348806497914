// Signing a connection in, as the person asks: client credentials ask for a token; the browser
// flow opens the authorize page, waits in the one browser sign-in slot for its callback, keeps the
// refresh token in the keychain and gives the connection a client for the session. Each step is
// told to the connection's state (connection-transitions.ts) as it happens.
import { DeskError } from '../../shared/errors';
import type { Clock } from '../clock/clock';
import type { SecretPort } from '../secrets/secret-port';
import { signInWithBrowser, type HttpTransport } from '../service';
import type { Profile } from '../store';
import { BrowserSignInSlot } from './browser-sign-in-slot';
import { readClientSecret } from './client-secret';
import type { ConnectionClients } from './connection-clients';
import type { ConnectionEvent } from './connection-transitions';

export interface SignInDeps {
  secrets: SecretPort;
  clock: Clock;
  transport: HttpTransport;
  openExternal?: (url: string) => Promise<void>;
  clients: ConnectionClients;
  /** Records what happened to the profile's connection and tells the window (connections.ts). */
  apply(profileId: string, event: ConnectionEvent): void;
}

export class SignIns {
  readonly #deps: SignInDeps;
  /** The browser sign-in waiting for its callback, if any (one at a time). */
  readonly #browser = new BrowserSignInSlot();

  constructor(deps: SignInDeps) {
    this.#deps = deps;
  }

  /** Signs in to `p`; rejects with what went wrong (a sign-in a newer one replaced leaves the state to it). */
  async signIn(p: Profile): Promise<void> {
    const { apply, clients } = this.#deps;
    apply(p.id, { type: 'sign_in_started' });
    let abort: AbortSignal | undefined;
    try {
      if (p.flow === 'client_credentials') await clients.of(p).authenticate();
      else await this.#browserSession(p, (signal) => (abort = signal));
      apply(p.id, { type: 'signed_in', connectionName: p.name });
    } catch (e) {
      // Replaced by a newer sign-in: that one owns the state now.
      if (abort && BrowserSignInSlot.superseded(abort)) throw e;
      apply(p.id, { type: 'failed', error: e, read: true });
      apply(p.id, { type: 'sign_in_failed', flow: p.flow, message: e instanceof Error ? e.message : null });
      throw e;
    }
  }

  /** The browser flow, up to the session's client; `started` is given the signal that can stop it. */
  async #browserSession(p: Profile, started: (signal: AbortSignal) => void): Promise<void> {
    const { openExternal, secrets, transport, clock, clients } = this.#deps;
    if (!openExternal || !p.redirectUri) {
      throw new DeskError('unauthorized', 'This connection signs in with a browser, which is not available here.');
    }
    const redirectUri = p.redirectUri;
    const session = await this.#browser.run(p.id, (signal) => {
      started(signal);
      return signInWithBrowser({
        authUrl: p.authUrl,
        baseUrl: p.baseUrl,
        clientId: p.clientId,
        redirectUri,
        openBrowser: openExternal,
        transport,
        clock,
        getSecret: () => readClientSecret(secrets, p),
        signal,
      });
    });
    if (session.tokens.refreshToken) await secrets.set(p.id, 'refresh_token', session.tokens.refreshToken);
    await clients.useSession(p, session.tokens);
  }

  /** Stops this profile's browser sign-in if one is waiting; its signIn() then rejects. */
  cancel(profileId: string): boolean {
    return this.#browser.cancel(profileId);
  }

  /** The app closes: the sign-in's loopback listener must not outlive it. */
  close(): void {
    this.#browser.close();
  }
}
