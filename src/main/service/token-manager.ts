// Access tokens of one connection, kept in this process's memory only. Client-credentials tokens
// live in the holder of their (token endpoint, client id), shared with every other connection of
// that client id (client-tokens.ts): renewed a little before they run out, one renewal for every
// caller at once. Authorization-code tokens belong to one sign-in and cannot be renewed (the spec
// does not show the refresh grant, DECISIONS client 3), so an ended session asks the person to
// sign in again.
import type { Clock } from '../clock/clock';
import { ServiceError } from './errors';
import type { HttpTransport } from './http-transport';
import type { ClientAuthMemory, TokenSet } from './oauth';
import { SharedClientToken, type ClientTokenPool, type TokenMember } from './client-tokens';

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
  /** Where connections of the same client id share their token; without it, a holder of its own. */
  pool?: ClientTokenPool;
}

export function signInRequired(message = 'Your sign-in has ended. Sign in again to continue.'): ServiceError {
  return new ServiceError({ kind: 'unauthorized', reason: 'sign_in_required', requestWritten: false, message });
}

const ENDED_BY_SERVICE = 'The service ended your sign-in. Sign in again to continue.';

/** A browser sign-in's tokens: used until they run out, never renewed. */
class SessionTokens {
  #current: TokenSet | undefined;
  #ended = false;
  /** Why the service ended it (a refusal of its token), once it has. */
  #endedWords: string | undefined;
  constructor(tokens: TokenSet) {
    this.#current = tokens;
  }
  /** When its token was issued (our clock). */
  get issuedAt(): number {
    return this.#current ? this.#current.expiresAt - this.#current.lifetimeMs : 0;
  }
  accessToken(now: number): string {
    const t = this.#current;
    // A small skew so that a request does not set off with a token that dies on the way.
    if (this.#ended || !t || now >= t.expiresAt - Math.min(5_000, t.lifetimeMs / 10)) {
      this.#ended = true;
      throw signInRequired(this.#endedWords);
    }
    return t.accessToken;
  }
  /** The service refused `token`; `words` say why the sign-in ended. */
  invalidate(token: string, words: () => string): void {
    if (this.#current?.accessToken !== token || this.#ended) return;
    this.#ended = true;
    this.#endedWords = words();
  }
  get endedWords(): string {
    return this.#endedWords ?? ENDED_BY_SERVICE;
  }
}

export class TokenManager {
  readonly #opts: TokenManagerOptions;
  readonly #session: SessionTokens | undefined;
  readonly #shared: SharedClientToken | undefined;
  readonly #member: TokenMember | undefined;
  #released = false;

  constructor(opts: TokenManagerOptions) {
    this.#opts = opts;
    const cred = opts.credentials;
    if (cred.flow === 'authorization_code') {
      this.#session = new SessionTokens(cred.tokens);
      opts.pool?.noteIssued(opts.authUrl, cred.clientId, this.#session, this.#session.issuedAt);
      return;
    }
    this.#shared = opts.pool
      ? opts.pool.acquire(opts.authUrl, cred.clientId)
      : new SharedClientToken({ transport: opts.transport, clock: opts.clock, authUrl: opts.authUrl, clientId: cred.clientId });
    this.#member = { getSecret: cred.getSecret, renewBeforeMs: opts.renewBeforeMs ?? 60_000 };
  }

  get clientId(): string {
    return this.#opts.credentials.clientId;
  }

  /** How the token endpoint was last found to take our credentials. */
  get clientAuthMethod(): ClientAuthMemory['method'] {
    return this.#shared?.clientAuth.method ?? 'form';
  }

  /** Token requests made so far for this connection's client id (a counter for gauges and tests). */
  get renewals(): number {
    return this.#shared?.renewals ?? 0;
  }

  /** The current access token, renewing it first when it is about to run out. */
  async accessToken(signal?: AbortSignal): Promise<string> {
    if (this.#session) return this.#session.accessToken(this.#opts.clock.now());
    return this.#shared!.accessToken(this.#member!, signal);
  }

  /**
   * The service refused `token` (401). Only the token that failed is dropped: a caller whose 401
   * arrives after someone else already renewed must not throw the fresh token away.
   */
  invalidate(token: string): void {
    this.#session?.invalidate(token, () => this.#sessionEndedWords());
    this.#shared?.invalidate(token);
  }

  /** Why a browser sign-in ended, when the service refused its token (see invalidate). */
  get endedWords(): string {
    return this.#session?.endedWords ?? ENDED_BY_SERVICE;
  }

  /**
   * A browser sign-in refused before its time: when another connection of the same client id got
   * a token since, that is the likely cause (a service that keeps one token per client id), and
   * signing in again would end that connection's token in turn. The person is told so, once,
   * instead of being asked to sign in again and again.
   */
  #sessionEndedWords(): string {
    const { pool, authUrl, credentials } = this.#opts;
    const session = this.#session;
    if (!pool || !session || !pool.issuedToOthersSince(authUrl, credentials.clientId, session, session.issuedAt)) return ENDED_BY_SERVICE;
    return (
      `The service ended your sign-in after another connection with the client id "${credentials.clientId}" got a token: ` +
      'this service seems to keep only the newest token of a client id, so the two connections cannot both work at once. ' +
      'Give this one a client id of its own (or remove the other), then sign in again.'
    );
  }

  /**
   * The service refused `token` with 403 (see SharedClientToken.renewAfterForbidden). True when
   * the caller should try once more with a newer token; never for a browser sign-in's token.
   */
  renewAfterForbidden(token: string): boolean {
    return this.#shared?.renewAfterForbidden(token) ?? false;
  }

  get canRenew(): boolean {
    return this.#shared !== undefined;
  }

  /** The connection is gone: its share of the holder is given back (once). */
  release(): void {
    if (this.#released || !this.#shared || !this.#opts.pool) return;
    this.#released = true;
    this.#opts.pool.release(this.#shared);
  }
}
