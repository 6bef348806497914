// Each connection's service client: made from the profile's addresses and credentials, with the
// transport and rate-limit scheduler shared (budgets belong to accounts on the server), its answers
// about accounts fed to their access state and the service's clock told to the window. Client
// credentials get a client on first use; a browser sign-in's session brings its own.
import { DeskError } from '../../shared/errors';
import type { Clock } from '../clock/clock';
import type { EventHub } from '../events/event-hub';
import type { RateLimitScheduler } from '../ratelimit/scheduler';
import type { SecretPort } from '../secrets/secret-port';
import { ClientTokenPool, ServiceClient, type HttpTransport, type ServiceClientOptions, type TokenSet } from '../service';
import type { Profile } from '../store';
import type { AccountAccess } from './account-access';
import { readClientSecret } from './client-secret';
import { unreachableReason, verifyClientCredentials, type UnsavedConnection } from './credential-checks';

export interface ConnectionClientsDeps {
  secrets: SecretPort;
  hub: EventHub;
  clock: Clock;
  transport: HttpTransport;
  scheduler: RateLimitScheduler;
  access: AccountAccess;
}

export class ConnectionClients {
  readonly #deps: ConnectionClientsDeps;
  readonly #clients = new Map<string, ServiceClient>();
  /**
   * Client-credentials tokens, one per (token endpoint, client id), shared by every connection
   * and credential check of that client id: a service may revoke a client's earlier tokens when
   * it issues one, so connections minting their own would revoke each other's.
   */
  readonly #tokens: ClientTokenPool;

  constructor(deps: ConnectionClientsDeps) {
    this.#deps = deps;
    this.#tokens = new ClientTokenPool({ transport: deps.transport, clock: deps.clock });
  }

  /** The profile's client if it has one now. */
  get(profileId: string): ServiceClient | undefined {
    return this.#clients.get(profileId);
  }

  /** The profile's client; throws a DeskError a person can act on when there is none yet. */
  of(p: Profile): ServiceClient {
    const held = this.#clients.get(p.id);
    if (held) return held;
    if (p.flow === 'authorization_code') {
      throw new DeskError('unauthorized', `Sign in to "${p.name}" with your browser first.`);
    }
    const client = this.#newClient(p, {
      flow: 'client_credentials',
      clientId: p.clientId,
      getSecret: () => readClientSecret(this.#deps.secrets, p),
    });
    this.#clients.set(p.id, client);
    return client;
  }

  /** A browser sign-in's session: its client replaces the one before. */
  async useSession(p: Profile, tokens: TokenSet): Promise<void> {
    await this.#clients.get(p.id)?.close();
    this.#clients.set(p.id, this.#newClient(p, { flow: 'authorization_code', clientId: p.clientId, tokens }));
  }

  /** A client for the profile's addresses, reporting to its accounts' access state. */
  #newClient(p: Profile, credentials: ServiceClientOptions['credentials']): ServiceClient {
    const { clock, transport, scheduler, hub, access } = this.#deps;
    return new ServiceClient({
      baseUrl: p.baseUrl,
      authUrl: p.authUrl,
      pushUrl: p.pushUrl,
      transport,
      scheduler,
      clock,
      tokenPool: this.#tokens,
      // Every answer about one of the profile's accounts: "No access" after a 403, until one succeeds.
      observer: {
        answered: (accountId: string) => access.answered(p.id, accountId),
        forbidden: (accountId: string, words: string) => access.refused(p.id, accountId, words),
      },
      credentials,
      // The window judges times on the same clock as main: it is told each offset main learns.
      onServiceClock: (offsetMs: number) => hub.emit('service.clock', { profileId: p.id, offsetMs }),
    });
  }

  /** Whether the service takes these credentials (credential-checks.ts), through the shared tokens. */
  verifyClientCredentials(c: { authUrl: string; clientId: string; secret: string }): Promise<void> {
    return verifyClientCredentials(this.#tokens, c);
  }

  /** Whether a connection not yet saved can be reached (credential-checks.ts). */
  unreachableReason(c: UnsavedConnection): Promise<string | null> {
    return unreachableReason({ tokens: this.#tokens, transport: this.#deps.transport, clock: this.#deps.clock }, c);
  }

  /** The profile was removed or changed: the next call builds a client from its new settings. */
  async drop(profileId: string): Promise<void> {
    const client = this.#clients.get(profileId);
    this.#clients.delete(profileId);
    await client?.close();
  }

  async close(): Promise<void> {
    const all = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
