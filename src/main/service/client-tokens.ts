// Client-credentials access tokens, one holder per (token endpoint, client id) for the whole
// process. A service may keep one live token per client id and revoke the earlier ones when it
// issues a new one (the interface does not say it keeps them; sandbox variant token_per_client):
// two connections with the same client id that each minted their own token would revoke each
// other's, and each 401's renewal would revoke the other's again. So every connection using a
// client id shares its holder's token, one token request is in flight at a time per holder, and a
// credential check goes through the holder too (docs/architecture.md, "Where the interface leaves
// room").
//
// Connections of one client id may hold different secrets (a secret rotated on one of them, or a
// wrong one typed in). A member gets the shared token only when its own secret is one the service
// accepted for this holder: a wrong secret never works on another's token, and its refusal fails
// only the callers that hold it. Secrets are kept as keyed digests (a random key per process),
// never as text.
import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../clock/clock';
import { ServiceError } from './errors';
import type { HttpTransport } from './http-transport';
import { joinUrl, requestClientCredentialsToken, TOKEN_PATH, type ClientAuthMemory, type TokenSet } from './oauth';
import { CANCELLED_BEFORE_SENT } from '../ratelimit/scheduler';

/** One connection's share of a holder: how it reads its secret, and the digest of the last one read. */
export interface TokenMember {
  /** Read from the keychain when the member must show its secret; never kept here. */
  getSecret(): Promise<string>;
  /** Renew this long before expiry (capped at a tenth of the token's lifetime). */
  renewBeforeMs: number;
  digest?: string;
}

const DIGEST_KEY = randomBytes(32);
const digestOf = (secret: string): string => createHmac('sha256', DIGEST_KEY).update(secret, 'utf8').digest('base64');

/** The token endpoint refused these credentials (not: could not be asked). */
const refusesCredentials = (e: unknown): boolean => e instanceof ServiceError && (e.kind === 'unauthorized' || e.kind === 'validation');

interface HolderDeps {
  transport: HttpTransport;
  clock: Clock;
  authUrl: string;
  clientId: string;
  /** Told of every token the holder gets (the pool keeps when each client id last got one). */
  issued?: (at: number) => void;
}

export class SharedClientToken {
  readonly #deps: HolderDeps;
  #current: TokenSet | undefined;
  /** The one token request in flight, and the digest of the secret it was made with. */
  #mint: { digest: string; done: Promise<TokenSet> } | undefined;
  /** Digests of the secrets the service accepted for this client. */
  readonly #accepted = new Set<string>();
  #renewals = 0;
  /** How the token endpoint takes our credentials, once learned: every request asks that way first. */
  readonly clientAuth: ClientAuthMemory = { method: 'form' };
  /** The token a renewal after a 403 gave (a second 403 with it is the account's). */
  #renewedAfterForbidden: string | undefined;
  #forbiddenRenewalPending = false;
  /** Members holding it, so the pool can drop a holder nobody uses (and its token with it). */
  members = 0;

  constructor(deps: HolderDeps) {
    this.#deps = deps;
  }

  /** Token requests made so far (a counter for gauges and tests). */
  get renewals(): number {
    return this.#renewals;
  }

  /** The current token, when `member` may use it and it is not about to run out. */
  #usable(member: TokenMember): TokenSet | undefined {
    const t = this.#current;
    if (!t || member.digest === undefined || !this.#accepted.has(member.digest)) return undefined;
    const margin = Math.min(member.renewBeforeMs, t.lifetimeMs / 10);
    return this.#deps.clock.now() < t.expiresAt - margin ? t : undefined;
  }

  /** The shared token for `member`, renewing it (once, for every member at once) when needed. */
  async accessToken(member: TokenMember, signal?: AbortSignal): Promise<string> {
    for (;;) {
      const held = this.#usable(member);
      if (held) return held.accessToken;
      const mint = this.#mint;
      if (mint) {
        // A request with this member's own secret: its outcome is the member's.
        if (member.digest === mint.digest) return (await abortable(mint.done, signal)).accessToken;
        // Another secret's: its token may be the member's to use too (same client), its refusal is not.
        await abortable(settled(mint.done), signal);
        continue;
      }
      const secret = await member.getSecret();
      member.digest = digestOf(secret);
      // Someone may have started a request, or got a token, while the keychain answered.
      if (this.#mint || this.#usable(member)) continue;
      return (await abortable(this.#request(secret, member.digest), signal)).accessToken;
    }
  }

  /**
   * Whether the service takes `secret` for this client, without revoking the token the members
   * use: a secret the current token was issued for (or one accepted since, while that token
   * lives) is known good; any other is asked of the token endpoint, one request at a time, and
   * the token it gives becomes the members' (so it replaces the old one rather than revoking it
   * behind their backs). Throws the token endpoint's refusal.
   */
  async check(secret: string, signal?: AbortSignal): Promise<void> {
    const probe: TokenMember = { getSecret: () => Promise.resolve(secret), renewBeforeMs: 0, digest: digestOf(secret) };
    await this.accessToken(probe, signal);
  }

  /** The service refused `token` (401): dropped unless someone already renewed it. */
  invalidate(token: string): void {
    if (this.#current?.accessToken === token) this.#current = undefined;
  }

  /**
   * The service refused `token` with 403. It may be the token's doing (a front server that
   * answers 403 for a token it no longer knows), so it is dropped for one renewal, unless it is
   * itself the token such a renewal gave: then the refusal is the account's. True when the caller
   * should try once more with a newer token.
   */
  renewAfterForbidden(token: string): boolean {
    if (this.#renewedAfterForbidden === token) return false;
    if (this.#current?.accessToken === token) {
      this.#current = undefined;
      this.#forbiddenRenewalPending = true;
    }
    return true;
  }

  #request(secret: string, digest: string): Promise<TokenSet> {
    this.#renewals++;
    const { transport, clock, authUrl, clientId } = this.#deps;
    // Not a caller's signal: the request is shared, and one caller giving up must not fail the others.
    const done = requestClientCredentialsToken({ transport, clock, authUrl, clientId, secret, clientAuth: this.clientAuth }).then(
      (t) => {
        this.#current = t;
        this.#deps.issued?.(t.expiresAt - t.lifetimeMs);
        this.#accepted.add(digest);
        if (this.#forbiddenRenewalPending) this.#renewedAfterForbidden = t.accessToken;
        this.#forbiddenRenewalPending = false;
        return t;
      },
      (e: unknown) => {
        // A secret the service no longer takes gets nothing more from the shared token.
        if (refusesCredentials(e)) this.#accepted.delete(digest);
        throw e;
      },
    );
    const mint = { digest, done };
    this.#mint = mint;
    void settled(done).then(() => {
      if (this.#mint === mint) this.#mint = undefined;
    });
    return done;
  }
}

/** The holders of one process: every connection and every credential check goes through it. */
export class ClientTokenPool {
  readonly #deps: { transport: HttpTransport; clock: Clock };
  readonly #holders = new Map<string, SharedClientToken>();
  readonly #issued = new Map<string, { by: object; at: number }[]>();

  constructor(deps: { transport: HttpTransport; clock: Clock }) {
    this.#deps = deps;
  }

  /** The holder of (token endpoint, client id), shared; give it back with release(). */
  acquire(authUrl: string, clientId: string): SharedClientToken {
    const holder = this.#holder(authUrl, clientId);
    holder.members++;
    return holder;
  }

  release(holder: SharedClientToken): void {
    holder.members--;
    if (holder.members > 0) return;
    for (const [key, h] of this.#holders) if (h === holder) this.#holders.delete(key);
  }

  /** A credential check (SharedClientToken.check) through the holder the connection would use. */
  async check(c: { authUrl: string; clientId: string; secret: string; signal?: AbortSignal }): Promise<void> {
    const holder = this.acquire(c.authUrl, c.clientId);
    try {
      await holder.check(c.secret, c.signal);
    } finally {
      this.release(holder);
    }
  }

  #holder(authUrl: string, clientId: string): SharedClientToken {
    // The endpoint as a URL parser spells it, so two spellings of one address share a holder.
    const endpoint = new URL(joinUrl(authUrl, TOKEN_PATH)).href;
    const key = JSON.stringify([endpoint, clientId]);
    let h = this.#holders.get(key);
    if (!h) {
      const holder = new SharedClientToken({
        ...this.#deps,
        authUrl,
        clientId,
        issued: (at) => this.noteIssued(authUrl, clientId, holder, at),
      });
      this.#holders.set(key, (h = holder));
    }
    return h;
  }

  /**
   * Who got a token for a client id of one service, and when (token issue time, our clock). A
   * browser sign-in's token cannot be shared as client-credentials tokens are, so under a service
   * that keeps one token per client id (sandbox variant token_per_client) a sign-in and a
   * connection of the same client id end each other's tokens: this is how a sign-in the service
   * ended learns that another connection's token was the cause, and says so.
   */
  noteIssued(authUrl: string, clientId: string, by: object, at: number): void {
    const key = issueKey(authUrl, clientId);
    const log = [...(this.#issued.get(key) ?? []), { by, at }];
    // The newest few are all a check looks at: a sign-in asks about the time since its own token.
    this.#issued.set(key, log.slice(-ISSUE_LOG_LENGTH));
  }

  /** Whether someone other than `by` got a token for this client id of this service after `since`. */
  issuedToOthersSince(authUrl: string, clientId: string, by: object, since: number): boolean {
    return (this.#issued.get(issueKey(authUrl, clientId)) ?? []).some((e) => e.by !== by && e.at >= since);
  }
}

const ISSUE_LOG_LENGTH = 16;

/** One service's client id: the authorization server's origin (both token paths are on the service's hosts). */
function issueKey(authUrl: string, clientId: string): string {
  let origin = authUrl;
  try {
    origin = new URL(authUrl).origin;
  } catch {
    // Kept as written: a profile's address was checked when it was saved.
  }
  return JSON.stringify([origin, clientId]);
}

function settled(p: Promise<unknown>): Promise<void> {
  return p.then(
    () => undefined,
    () => undefined,
  );
}

export function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  const cancelled = () => new ServiceError({ kind: 'cancelled', requestWritten: false, message: CANCELLED_BEFORE_SENT });
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
