// Access tokens for one set of credentials, kept in this process's memory only. Client-credentials
// tokens are renewed a little before they run out and concurrent callers share one renewal;
// authorization-code tokens cannot be renewed (the spec does not show the refresh grant,
// DECISIONS client 3), so an ended session asks the person to sign in again.
import type { Clock } from '../clock/clock';
import { ServiceError } from './errors';
import type { HttpTransport } from './http-transport';
import { requestClientCredentialsToken, type ClientAuthMemory, type TokenSet } from './oauth';
import { CANCELLED_BEFORE_SENT } from '../ratelimit/scheduler';

export type CredentialSource =
  | {
      flow: 'client_credentials';
      clientId: string;
      /** Read from the keychain on each renewal; never cached here. */
      getSecret(): Promise<string>;
    }
  | {
      flow: 'authorization_code';
      clientId: string;
      /** From signInWithBrowser. */
      tokens: TokenSet;
    };

export interface TokenManagerOptions {
  credentials: CredentialSource;
  authUrl: string;
  transport: HttpTransport;
  clock: Clock;
  /** Renew this long before expiry, at most a tenth of the token's lifetime (default 60 s). */
  renewBeforeMs?: number;
}

export function signInRequired(message = 'Your sign-in has ended. Sign in again to continue.'): ServiceError {
  return new ServiceError({ kind: 'unauthorized', reason: 'sign_in_required', requestWritten: false, message });
}

export class TokenManager {
  readonly #opts: TokenManagerOptions;
  #current: TokenSet | undefined;
  #renewal: Promise<TokenSet> | undefined;
  #sessionEnded = false;
  #renewals = 0;
  /** How the token endpoint takes our credentials, once learned: every renewal asks that way first. */
  readonly #clientAuth: ClientAuthMemory = { method: 'form' };

  constructor(opts: TokenManagerOptions) {
    this.#opts = opts;
    if (opts.credentials.flow === 'authorization_code') this.#current = opts.credentials.tokens;
  }

  get clientId(): string {
    return this.#opts.credentials.clientId;
  }

  /** How the token endpoint was last found to take our credentials. */
  get clientAuthMethod(): ClientAuthMemory['method'] {
    return this.#clientAuth.method;
  }

  /** Token requests made so far (a counter for gauges and tests). */
  get renewals(): number {
    return this.#renewals;
  }

  /** The current access token, renewing it first when it is about to run out. */
  async accessToken(signal?: AbortSignal): Promise<string> {
    const now = this.#opts.clock.now();
    const cred = this.#opts.credentials;
    if (cred.flow === 'authorization_code') {
      const t = this.#current;
      // A small skew so that a request does not set off with a token that dies on the way.
      if (this.#sessionEnded || !t || now >= t.expiresAt - Math.min(5_000, t.lifetimeMs / 10)) {
        this.#sessionEnded = true;
        throw signInRequired();
      }
      return t.accessToken;
    }
    const t = this.#current;
    if (t && now < t.expiresAt - this.#renewBefore(t)) return t.accessToken;
    if (!this.#renewal) {
      this.#renewal = this.#renew().finally(() => {
        this.#renewal = undefined;
      });
    }
    return (await abortable(this.#renewal, signal)).accessToken;
  }

  /**
   * The service refused `token` (401). Only the token that failed is dropped: a caller whose 401
   * arrives after someone else already renewed must not throw the fresh token away.
   */
  invalidate(token: string): void {
    if (this.#current?.accessToken !== token) return;
    this.#current = undefined;
    if (this.#opts.credentials.flow === 'authorization_code') this.#sessionEnded = true;
  }

  /**
   * The service refused `token` with 403. That may be the token's doing rather than the account's
   * (a front server that answers 403 for a token it no longer knows; grants fixed when the token
   * was issued), so it is dropped for one renewal, unless it is itself the token such a renewal
   * gave: then the refusal is the account's, and asking again would only loop. True when the
   * caller should try once more with a newer token (one it dropped now, or one another caller
   * already got since).
   */
  renewAfterForbidden(token: string): boolean {
    if (!this.canRenew || this.#renewedAfterForbidden === token) return false;
    if (this.#current?.accessToken === token) {
      this.#current = undefined;
      this.#forbiddenRenewalPending = true;
    }
    return true;
  }

  /** The token a renewal after a 403 gave (a second 403 with it is the account's). */
  #renewedAfterForbidden: string | undefined;
  #forbiddenRenewalPending = false;

  get canRenew(): boolean {
    return this.#opts.credentials.flow === 'client_credentials';
  }

  #renewBefore(t: TokenSet): number {
    return Math.min(this.#opts.renewBeforeMs ?? 60_000, t.lifetimeMs / 10);
  }

  async #renew(): Promise<TokenSet> {
    const cred = this.#opts.credentials;
    if (cred.flow !== 'client_credentials') throw signInRequired();
    this.#renewals++;
    const secret = await cred.getSecret();
    // Not the caller's signal: the renewal is shared, and one caller giving up must not fail
    // the others.
    const t = await requestClientCredentialsToken({
      transport: this.#opts.transport,
      clock: this.#opts.clock,
      authUrl: this.#opts.authUrl,
      clientId: cred.clientId,
      secret,
      clientAuth: this.#clientAuth,
    });
    this.#current = t;
    if (this.#forbiddenRenewalPending) this.#renewedAfterForbidden = t.accessToken;
    this.#forbiddenRenewalPending = false;
    return t;
  }
}

function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  const cancelled = () =>
    new ServiceError({ kind: 'cancelled', requestWritten: false, message: CANCELLED_BEFORE_SENT });
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
