// One service connection per profile, coordinated: its facts and the state the window is told
// (connection-state.ts, changed only as connection-transitions.ts says), its client
// (connection-clients.ts), its sign-in (sign-in.ts), whether it can be reached, and whether the
// person chose to work offline. A profile that goes offline is probed with backoff
// (offline-probe.ts) and reports back when it answers again; other profiles are not affected.
// Until a profile's service has answered since start-up its state is 'unknown' ("Not checked
// yet"), never a guessed 'online': checkOnStart() asks each one cheaply (a token) to find out.
import { connectionGone } from '../../shared/errors';
import { serviceTime } from '../../shared/domain/service-time';
import type { Clock } from '../clock/clock';
import type { EventHub } from '../events/event-hub';
import type { RateLimitScheduler } from '../ratelimit/scheduler';
import type { SecretPort } from '../secrets/secret-port';
import { isServiceError, type HttpTransport, type ServiceClient } from '../service';
import type { Profile, Store } from '../store';
import { AccountAccess, accessChangeWords } from './account-access';
import type { BackoffPolicy } from './backoff';
import { ConnectionClients } from './connection-clients';
import { connectionState, usable, type ConnectionFacts, type ConnectionState, type ConnectionView } from './connection-state';
import { initialFacts, nextFacts, noAnswer, type ConnectionEvent } from './connection-transitions';
import type { UnsavedConnection } from './credential-checks';
import { OfflineProbes } from './offline-probe';
import { SignIns } from './sign-in';

export type { ConnectionState, ConnectionView, SignInState, SignInView } from './connection-state';
export { CHECK_DEADLINE_MS } from './credential-checks';

/** A connection's facts, and the state the window was last told. */
interface Conn {
  facts: ConnectionFacts;
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
  readonly #clients: ConnectionClients;
  readonly #signIns: SignIns;
  readonly #probes: OfflineProbes;
  #closed = false;

  /** Each account's own state: "No access" after a 403, until a call about it succeeds. */
  readonly access: AccountAccess;

  constructor(deps: ConnectionDeps) {
    this.#deps = deps;
    this.access = new AccountAccess({
      settings: deps.store.settings,
      now: () => deps.clock.now(),
      changed: (profileId, accountId, noAccess) => {
        deps.note(profileId, noAccess ? 'warning' : 'info', 'account.access', accessChangeWords(accountId, noAccess));
        deps.hub.emit('data.changed', { profileId, accountId: null, what: 'accounts' });
      },
    });
    this.#clients = new ConnectionClients({ ...deps, access: this.access });
    this.#signIns = new SignIns({ ...deps, clients: this.#clients, apply: (id, event) => this.#apply(id, event) });
    this.#probes = new OfflineProbes(deps.clock, deps.probeBackoff);
  }

  #conn(profileId: string): Conn {
    let c = this.#conns.get(profileId);
    if (!c) {
      c = { facts: initialFacts(this.#deps.store.profiles.get(profileId)) };
      this.#conns.set(profileId, c);
    }
    return c;
  }

  #profile(profileId: string): Profile {
    const p = this.#deps.store.profiles.get(profileId);
    if (!p) throw connectionGone();
    return p;
  }

  /** One event's step: the facts, the activity log, the window, and a probe once it went offline. */
  #apply(profileId: string, event: ConnectionEvent): void {
    const c = this.#conn(profileId);
    const wasOffline = c.facts.reach === 'offline';
    const step = nextFacts(c.facts, event);
    c.facts = step.facts;
    if (step.note) this.#deps.note(profileId, step.note.level, step.note.kind, step.note.message);
    if (step.changed) this.#changed(profileId);
    if (!wasOffline && step.facts.reach === 'offline') this.#scheduleProbe(profileId);
  }

  view(profileId: string): ConnectionView {
    const { facts } = this.#conn(profileId);
    return { connection: connectionState(facts), signIn: { ...facts.signIn } };
  }

  #changed(profileId: string): void {
    const c = this.#conn(profileId);
    const s = connectionState(c.facts);
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
    return usable(connectionState(this.#conn(profileId).facts));
  }

  isWorkingOffline(profileId: string): boolean {
    return this.#conn(profileId).facts.workOffline;
  }

  /** The profile's client; throws a DeskError a person can act on when there is none yet. */
  client(profileId: string): ServiceClient {
    return this.#clients.get(profileId) ?? this.#clients.of(this.#profile(profileId));
  }

  /** The service's clock minus the computer's (ms) as learned from its answers; null before any. */
  serviceOffset(profileId: string): number | null {
    return this.#clients.get(profileId)?.serviceClock.offsetMs() ?? null;
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
    await this.#signIns.signIn(this.#profile(profileId));
  }

  /** Stops this profile's browser sign-in if one is waiting; its signIn() then rejects. */
  cancelSignIn(profileId: string): boolean {
    return this.#signIns.cancel(profileId);
  }

  /** A call for this profile succeeded: it is reachable and signed in. */
  noteSuccess(profileId: string): void {
    this.#probes.stop(profileId);
    this.#apply(profileId, { type: 'succeeded' });
  }

  /**
   * Learns from a failed call. `read`: the call changes nothing, so a lost answer means the
   * service cannot be reached (a write's lost answer is the outbox's business, not a state).
   */
  noteFailure(profileId: string, e: unknown, opts: { read: boolean }): void {
    this.#apply(profileId, { type: 'failed', error: e, read: opts.read });
  }

  #scheduleProbe(profileId: string): void {
    if (this.#closed || this.#conn(profileId).facts.reach !== 'offline') return;
    this.#probes.schedule(profileId, () => void this.#runProbe(profileId));
  }

  async #runProbe(profileId: string): Promise<void> {
    const c = this.#conns.get(profileId);
    if (!c || this.#closed || c.facts.reach !== 'offline') return;
    if (c.facts.workOffline) {
      // Nothing may be contacted; look again later in case the person goes back online.
      this.#scheduleProbe(profileId);
      return;
    }
    try {
      // auth-apps: cheap, read-only and outside the campaign budgets.
      await this.client(profileId).authApps({ priority: 'interactive' });
      this.noteSuccess(profileId);
    } catch (e) {
      if (noAnswer(e)) {
        this.#scheduleProbe(profileId);
        return;
      }
      // It answered (even if with an error): it is reachable.
      this.#probes.answered(profileId);
      this.#apply(profileId, { type: 'failed', error: e, read: true, answered: true });
    }
  }

  /**
   * "Retry now" on an offline connection: asks at once instead of waiting out the probe's backoff.
   * Settles once the service answered or not, so the window shows the outcome, not a guess.
   */
  async retryNow(profileId: string): Promise<void> {
    const c = this.#conn(profileId);
    if (this.#closed || c.facts.reach !== 'offline' || c.facts.workOffline) return;
    this.#probes.cancel(profileId);
    await this.#runProbe(profileId);
  }

  setWorkOffline(profileId: string, on: boolean): void {
    this.#deps.store.profiles.setWorkOffline(profileId, on);
    // Going back online: not known to be reachable until it answers, so look at once.
    if (!on) this.#probes.stop(profileId);
    this.#apply(profileId, { type: 'work_offline', on });
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
    if (!c || this.#closed || c.facts.reach !== 'unknown' || c.facts.workOffline) return;
    const p = this.#deps.store.profiles.get(profileId);
    if (!p || (p.flow === 'authorization_code' && !this.#clients.get(profileId))) return;
    try {
      const client = this.client(profileId);
      const before = client.tokenRequests;
      await client.authenticate();
      // A token still held contacted nothing: then one small read (auth-apps, outside the campaign budgets) asks.
      if (client.tokenRequests === before) await client.authApps({ priority: 'interactive' });
      if (c.facts.reach === 'unknown') this.noteSuccess(profileId);
    } catch (e) {
      if (this.#conns.get(profileId) !== c) return; // forgotten meanwhile
      // Unreachable: offline, and probed. It answered (if with a refusal): reachable, and the
      // refusal says what is wrong.
      this.#apply(profileId, { type: 'failed', error: e, read: true, answered: isServiceError(e) && !noAnswer(e) });
    }
  }

  /** At start-up: every profile's reachability, checked in parallel (each one request at most). */
  checkOnStart(): Promise<void> {
    return Promise.all(this.#deps.store.profiles.list().map((p) => this.check(p.id))).then(() => undefined);
  }

  /** Whether the service takes these credentials (credential-checks.ts); throws in the person's words. */
  verifyClientCredentials(c: { authUrl: string; clientId: string; secret: string }): Promise<void> {
    return this.#clients.verifyClientCredentials(c);
  }

  /** Whether a connection not yet saved can be reached (credential-checks.ts): null when it answered, else why not. */
  unreachableReason(c: UnsavedConnection): Promise<string | null> {
    return this.#clients.unreachableReason(c);
  }

  /** The profile was removed or its addresses changed: drop its client. */
  async forget(profileId: string): Promise<void> {
    this.cancelSignIn(profileId);
    this.#conns.delete(profileId);
    this.#probes.forget(profileId);
    await this.#clients.drop(profileId);
  }

  async close(): Promise<void> {
    this.#closed = true;
    // The sign-in's loopback listener must not outlive the app.
    this.#signIns.close();
    this.#conns.clear();
    this.#probes.close();
    await this.#clients.close();
  }
}
