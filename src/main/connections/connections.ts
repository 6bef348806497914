// One service connection per profile: its client (own credentials and sign-in flow; transport
// and rate-limit scheduler shared, since budgets belong to accounts on the server), whether it
// can be reached, and whether the person chose to work offline. A profile that goes offline is
// probed with backoff and reports back when it answers again; other profiles are not affected.
// Until a profile's service has answered since start-up its state is 'unknown' ("Not checked
// yet"), never a guessed 'online': checkOnStart() asks each one cheaply (a token) to find out.
import { connectionGone, DeskError } from '../../shared/errors';
import type { Clock, TimerHandle } from '../clock/clock';
import type { RateLimitScheduler } from '../ratelimit/scheduler';
import {
  ClientTokenPool,
  isServiceError,
  ServiceClient,
  signInWithBrowser,
  type HttpTransport,
  type ServiceClientOptions,
} from '../service';
import type { Profile, Store } from '../store';
import type { SecretPort } from '../secrets/secret-port';
import { AccountAccess } from './account-access';
import { BrowserSignInSlot } from './browser-sign-in-slot';
import { readClientSecret } from './client-secret';
import { connectionState, usable, type ConnectionFacts, type ConnectionState, type ConnectionView } from './connection-state';
import { unreachableReason, verifyClientCredentials, type UnsavedConnection } from './credential-checks';
import { backoffDelay, type BackoffPolicy } from './backoff';
import type { EventHub } from '../events/event-hub';
import { serviceTime } from '../../shared/domain/service-time';

export type { ConnectionState, ConnectionView, SignInState, SignInView } from './connection-state';
export { CHECK_DEADLINE_MS } from './credential-checks';

/** What a browser sign-in connection says until it is signed in. */
const SIGN_IN_WORDS = 'Sign in with your browser to use this connection.';

/** A connection's facts and what serves it: its client, its probe while offline. */
interface Conn extends ConnectionFacts {
  client?: ServiceClient;
  probe?: TimerHandle;
  probeAttempt: number;
  lastEmitted?: ConnectionState;
}

export interface ConnectionDeps {
  store: Store;
  secrets: SecretPort;
  hub: EventHub;
  clock: Clock;
  transport: HttpTransport;
  scheduler: RateLimitScheduler;
  probeBackoff: BackoffPolicy;
  openExternal?: (url: string) => Promise<void>;
  /** For the activity log; never given a secret. */
  note(profileId: string, level: 'info' | 'warning' | 'error', kind: string, message: string): void;
  /** The profile can be reached again (or the person went back online): resume work. */
  onOnline(profileId: string): void;
}

export class Connections {
  readonly #deps: ConnectionDeps;
  readonly #conns = new Map<string, Conn>();
  /**
   * Client-credentials tokens, one per (token endpoint, client id), shared by every connection
   * and credential check of that client id: a service may revoke a client's earlier tokens when
   * it issues one, so connections minting their own would revoke each other's.
   */
  readonly #tokens: ClientTokenPool;
  #closed = false;
  /** The browser sign-in waiting for its callback, if any (one at a time). */
  readonly #browserSignIn = new BrowserSignInSlot();

  /** Each account's own state: "No access" after a 403, until a call about it succeeds. */
  readonly access: AccountAccess;

  constructor(deps: ConnectionDeps) {
    this.#deps = deps;
    this.#tokens = new ClientTokenPool({ transport: deps.transport, clock: deps.clock });
    this.access = new AccountAccess({
      settings: deps.store.settings,
      now: () => deps.clock.now(),
      changed: (profileId, accountId, noAccess) => {
        deps.note(
          profileId,
          noAccess ? 'warning' : 'info',
          'account.access',
          noAccess
            ? `Account ${accountId}: no access (${noAccess.words}). Ask the service to grant these credentials access again.`
            : `Account ${accountId}: access is back.`,
        );
        deps.hub.emit('data.changed', { profileId, accountId: null, what: 'accounts' });
      },
    });
  }

  /** Feeds every answer about one of the profile's accounts into its access state. */
  #observer(profileId: string) {
    return {
      answered: (accountId: string) => this.access.answered(profileId, accountId),
      forbidden: (accountId: string, words: string) => this.access.refused(profileId, accountId, words),
    };
  }

  #conn(profileId: string): Conn {
    let c = this.#conns.get(profileId);
    if (!c) {
      const profile = this.#deps.store.profiles.get(profileId);
      c = {
        reach: 'unknown',
        // Persisted with the profile, so the choice survives a restart.
        workOffline: profile?.workOffline ?? false,
        signIn:
          profile?.flow === 'authorization_code'
            ? { state: 'sign_in_required', message: SIGN_IN_WORDS }
            : { state: 'signed_out', message: null },
        probeAttempt: 0,
      };
      this.#conns.set(profileId, c);
    }
    return c;
  }

  #profile(profileId: string): Profile {
    const p = this.#deps.store.profiles.get(profileId);
    if (!p) throw connectionGone();
    return p;
  }

  view(profileId: string): ConnectionView {
    const c = this.#conn(profileId);
    return { connection: connectionState(c), signIn: { ...c.signIn } };
  }

  #changed(profileId: string): void {
    const c = this.#conn(profileId);
    const s = connectionState(c);
    if (s === c.lastEmitted) return;
    const was = c.lastEmitted;
    c.lastEmitted = s;
    this.#deps.hub.emit('connection.changed', { profileId, connection: s });
    // Work resumes when it may go out again; not on the first picture, nor when a check merely
    // confirms what was already allowed (unknown -> online).
    if (usable(s) && was !== undefined && !usable(was)) this.#deps.onOnline(profileId);
  }

  /** Whether anything may be sent or fetched for this profile now. */
  canUse(profileId: string): boolean {
    return usable(connectionState(this.#conn(profileId)));
  }

  isWorkingOffline(profileId: string): boolean {
    return this.#conn(profileId).workOffline;
  }

  /** The profile's client; throws a DeskError a person can act on when there is none yet. */
  client(profileId: string): ServiceClient {
    const c = this.#conn(profileId);
    if (c.client) return c.client;
    const p = this.#profile(profileId);
    if (p.flow === 'authorization_code') {
      throw new DeskError('unauthorized', `Sign in to "${p.name}" with your browser first.`);
    }
    c.client = this.#newClient(p, {
      flow: 'client_credentials',
      clientId: p.clientId,
      getSecret: () => readClientSecret(this.#deps.secrets, p),
    });
    return c.client;
  }

  /** A client for the profile's addresses, reporting to its connection state. */
  #newClient(p: Profile, credentials: ServiceClientOptions['credentials']): ServiceClient {
    const { clock, transport, scheduler } = this.#deps;
    // The window judges times on the same clock as main: it is told each offset main learns.
    const onServiceClock = (offsetMs: number) => this.#deps.hub.emit('service.clock', { profileId: p.id, offsetMs });
    return new ServiceClient({
      baseUrl: p.baseUrl,
      authUrl: p.authUrl,
      pushUrl: p.pushUrl,
      transport,
      scheduler,
      clock,
      tokenPool: this.#tokens,
      observer: this.#observer(p.id),
      credentials,
      onServiceClock,
    });
  }

  /** The service's clock minus the computer's (ms) as learned from its answers; null before any. */
  serviceOffset(profileId: string): number | null {
    return this.#conns.get(profileId)?.client?.serviceClock.offsetMs() ?? null;
  }

  /**
   * The service's time now for this profile: the one "now" every rule of main that judges a
   * scheduled time uses (Queue, the outbox's re-check, task edits, one-click fixes).
   */
  serviceNow(profileId: string): number {
    return serviceTime(this.#deps.clock.now(), this.serviceOffset(profileId));
  }

  /** Signs in (client credentials: asks for a token; authorization code: the browser flow). */
  async signIn(profileId: string): Promise<void> {
    const p = this.#profile(profileId);
    const c = this.#conn(profileId);
    c.signIn = { state: 'signing_in', message: null };
    this.#changed(profileId);
    let abort: AbortSignal | undefined;
    try {
      if (p.flow === 'client_credentials') {
        await this.client(profileId).authenticate();
      } else {
        const { openExternal, secrets, transport, clock } = this.#deps;
        if (!openExternal || !p.redirectUri) {
          throw new DeskError('unauthorized', 'This connection signs in with a browser, which is not available here.');
        }
        const redirectUri = p.redirectUri;
        const session = await this.#browserSignIn.run(profileId, (signal) => {
          abort = signal;
          return signInWithBrowser({
            authUrl: p.authUrl,
            baseUrl: p.baseUrl,
            clientId: p.clientId,
            redirectUri,
            openBrowser: openExternal,
            transport,
            clock,
            getSecret: () => readClientSecret(this.#deps.secrets, p),
            signal,
          });
        });
        if (session.tokens.refreshToken) await secrets.set(profileId, 'refresh_token', session.tokens.refreshToken);
        await c.client?.close();
        c.client = this.#newClient(p, { flow: 'authorization_code', clientId: p.clientId, tokens: session.tokens });
      }
      c.signIn = { state: 'signed_in', message: null };
      c.reach = 'online';
      this.#deps.note(profileId, 'info', 'connection.signed_in', `Signed in to "${p.name}".`);
    } catch (e) {
      // Replaced by a newer sign-in: that one owns the state now.
      if (abort && BrowserSignInSlot.superseded(abort)) throw e;
      this.noteFailure(profileId, e, { read: true });
      if (c.signIn.state === 'signing_in') {
        const message = e instanceof Error ? e.message : null;
        // A browser connection cannot do anything until it signs in: keep asking for it.
        c.signIn =
          p.flow === 'authorization_code'
            ? { state: 'sign_in_required', message: message ?? SIGN_IN_WORDS }
            : { state: 'signed_out', message };
      }
      this.#changed(profileId);
      throw e;
    }
    this.#changed(profileId);
  }

  /** Stops this profile's browser sign-in if one is waiting; its signIn() then rejects. */
  cancelSignIn(profileId: string): boolean {
    return this.#browserSignIn.cancel(profileId);
  }

  /** A call for this profile succeeded: it is reachable and signed in. */
  noteSuccess(profileId: string): void {
    const c = this.#conn(profileId);
    const changed = c.reach !== 'online' || c.signIn.state !== 'signed_in';
    c.reach = 'online';
    c.signIn = { state: 'signed_in', message: null };
    c.probeAttempt = 0;
    c.probe?.cancel();
    c.probe = undefined;
    if (changed) this.#changed(profileId);
  }

  /**
   * Learns from a failed call. `read`: the call changes nothing, so a lost answer means the
   * service cannot be reached (a write's lost answer is the outbox's business, not a state).
   */
  noteFailure(profileId: string, e: unknown, opts: { read: boolean }): void {
    if (!isServiceError(e)) {
      if (e instanceof DeskError && (e.code === 'unauthorized' || e.code === 'keychain_unavailable')) {
        this.#needsSignIn(profileId, 'sign_in_required', e.message, e.details?.secretMissing === true);
      }
      return;
    }
    if (e.kind === 'network' || (opts.read && (e.kind === 'outcome_unknown' || e.kind === 'timeout'))) {
      this.#goOffline(profileId, e.message);
    } else if (e.kind === 'unauthorized') {
      this.#needsSignIn(profileId, e.reason === 'credentials_rejected' ? 'failed' : 'sign_in_required', e.message);
    }
  }

  #needsSignIn(profileId: string, state: 'failed' | 'sign_in_required', message: string, needsSecret = false): void {
    const c = this.#conn(profileId);
    if (c.signIn.state === state && c.signIn.message === message) return;
    c.signIn = { state, message, ...(needsSecret ? { needsSecret: true as const } : {}) };
    this.#deps.note(profileId, 'warning', 'connection.sign_in', message);
    this.#changed(profileId);
  }

  #goOffline(profileId: string, message: string): void {
    const c = this.#conn(profileId);
    if (c.reach === 'offline') return;
    c.reach = 'offline';
    this.#deps.note(profileId, 'warning', 'connection.offline', `${message} Your changes stay queued and are sent when it is back.`);
    this.#changed(profileId);
    this.#scheduleProbe(profileId);
  }

  #scheduleProbe(profileId: string): void {
    const c = this.#conn(profileId);
    if (this.#closed || c.probe || c.reach !== 'offline') return;
    c.probeAttempt++;
    const delay = backoffDelay(c.probeAttempt, this.#deps.probeBackoff);
    c.probe = this.#deps.clock.setTimer(() => {
      c.probe = undefined;
      void this.#runProbe(profileId);
    }, delay);
  }

  async #runProbe(profileId: string): Promise<void> {
    const c = this.#conns.get(profileId);
    if (!c || this.#closed || c.reach !== 'offline') return;
    if (c.workOffline) {
      // Nothing may be contacted; look again later in case the person goes back online.
      this.#scheduleProbe(profileId);
      return;
    }
    try {
      // auth-apps: cheap, read-only and outside the campaign budgets.
      await this.client(profileId).authApps({ priority: 'interactive' });
      this.noteSuccess(profileId);
    } catch (e) {
      if (isServiceError(e) && (e.kind === 'network' || e.kind === 'outcome_unknown' || e.kind === 'timeout')) {
        this.#scheduleProbe(profileId);
        return;
      }
      // It answered (even if with an error): it is reachable.
      c.reach = 'online';
      c.probeAttempt = 0;
      this.noteFailure(profileId, e, { read: true });
      this.#changed(profileId);
    }
  }

  /**
   * "Retry now" on an offline connection: asks at once instead of waiting out the probe's backoff.
   * Settles once the service answered or not, so the window shows the outcome, not a guess.
   */
  async retryNow(profileId: string): Promise<void> {
    const c = this.#conn(profileId);
    if (this.#closed || c.reach !== 'offline' || c.workOffline) return;
    c.probe?.cancel();
    c.probe = undefined;
    await this.#runProbe(profileId);
  }

  setWorkOffline(profileId: string, on: boolean): void {
    const c = this.#conn(profileId);
    this.#deps.store.profiles.setWorkOffline(profileId, on);
    c.workOffline = on;
    if (!on) {
      // Going back online: not known to be reachable until it answers, so look at once.
      c.reach = 'unknown';
      c.probeAttempt = 0;
      c.probe?.cancel();
      c.probe = undefined;
    }
    this.#deps.note(
      profileId,
      'info',
      'connection.work_offline',
      on ? 'Working offline: nothing is sent or refreshed until you go online.' : 'Back online: queued changes are being sent.',
    );
    this.#changed(profileId);
    if (!on) void this.check(profileId);
  }

  /**
   * Finds out whether a profile's service can be reached while its state is 'unknown': one token
   * request (client credentials; outside the campaign rate limits, and the token is then reused by
   * the calls that follow), or one small read when a token is still held. A browser-sign-in
   * connection without a session has nothing cheap to ask, and says "sign in" anyway. Working
   * offline contacts nothing.
   */
  async check(profileId: string): Promise<void> {
    const c = this.#conns.get(profileId) ?? (this.#deps.store.profiles.get(profileId) ? this.#conn(profileId) : undefined);
    if (!c || this.#closed || c.reach !== 'unknown' || c.workOffline) return;
    const p = this.#deps.store.profiles.get(profileId);
    if (!p || (p.flow === 'authorization_code' && !c.client)) return;
    try {
      const client = this.client(profileId);
      const before = client.tokenRequests;
      await client.authenticate();
      // A token still held contacted nothing: then one small read (auth-apps, outside the campaign budgets) asks.
      if (client.tokenRequests === before) await client.authApps({ priority: 'interactive' });
      if (c.reach === 'unknown') this.noteSuccess(profileId);
    } catch (e) {
      if (this.#conns.get(profileId) !== c) return; // forgotten meanwhile
      if (isServiceError(e) && (e.kind === 'network' || e.kind === 'outcome_unknown' || e.kind === 'timeout')) {
        this.#goOffline(profileId, e.message);
        return;
      }
      // It answered (if with a refusal): reachable, and the refusal says what is wrong.
      if (isServiceError(e)) c.reach = 'online';
      this.noteFailure(profileId, e, { read: true });
      this.#changed(profileId);
    }
  }

  /** At start-up: every profile's reachability, checked in parallel (each one request at most). */
  checkOnStart(): Promise<void> {
    return Promise.all(this.#deps.store.profiles.list().map((p) => this.check(p.id))).then(() => undefined);
  }

  /** Whether the service takes these credentials (credential-checks.ts); throws in the person's words. */
  verifyClientCredentials(c: { authUrl: string; clientId: string; secret: string }): Promise<void> {
    return verifyClientCredentials(this.#tokens, c);
  }

  /** Whether a connection not yet saved can be reached (credential-checks.ts): null when it answered, else why not. */
  unreachableReason(c: UnsavedConnection): Promise<string | null> {
    return unreachableReason({ tokens: this.#tokens, transport: this.#deps.transport, clock: this.#deps.clock }, c);
  }

  /** The profile was removed or its addresses changed: drop its client. */
  async forget(profileId: string): Promise<void> {
    this.cancelSignIn(profileId);
    const c = this.#conns.get(profileId);
    this.#conns.delete(profileId);
    c?.probe?.cancel();
    await c?.client?.close();
  }

  async close(): Promise<void> {
    this.#closed = true;
    // The sign-in's loopback listener must not outlive the app.
    this.#browserSignIn.close();
    const all = [...this.#conns.values()];
    this.#conns.clear();
    for (const c of all) c.probe?.cancel();
    await Promise.all(all.map((c) => c.client?.close()));
  }
}
