// The one typed client of the service: every operation of the spec behind one object per set of
// credentials. Rate limiting, token handling and transport are shared parts; several clients
// (profiles) can share one transport and one scheduler.
import { systemClock, type Clock } from '../clock/clock';
import { RateLimitScheduler, type SchedulerSnapshot } from '../ratelimit/scheduler';
import { pushBudgetAccount } from '../ratelimit/tiers';
import type { Campaign, CampaignCreate, CampaignListQuery, CampaignRuleContext } from '../../shared/domain/campaign';
import type { PushEvent, PushMode, SwPathRequest, Task, TaskUpdate } from '../../shared/domain/push';
import {
  createCampaign,
  listAllCampaigns,
  listCampaigns,
  streamCampaigns,
  type CampaignPage,
  type SortMemory,
  type StreamedListing,
  type StreamOptions,
  type ListAllOptions,
  type ReadRetry,
  READ_RETRY_BACKOFF,
} from './campaigns-api';
import { HttpTransport } from './http-transport';
import * as push from './push-api';
import { RequestExecutor, type AccountAnswerObserver, type CallOptions } from './request-executor';
import { ServiceClock } from './service-clock';
import { TokenManager, type CredentialSource } from './token-manager';
import type { ClientTokenPool } from './client-tokens';

export interface ServiceEndpoints {
  /** {base_url}: campaign API and the authorization-code token exchange. */
  baseUrl: string;
  /** {auth_url}: client-credentials tokens and the authorize page. */
  authUrl: string;
  /** {push_url}: push API. */
  pushUrl: string;
}

export interface ServiceClientOptions extends ServiceEndpoints {
  credentials: CredentialSource;
  /** Shared between clients to reuse connections; created (and closed by close()) if absent. */
  transport?: HttpTransport;
  /** Shared between clients of the same accounts; created if absent. */
  scheduler?: RateLimitScheduler;
  /** The computer's clock (default the system clock); the service's own is learned from its answers. */
  clock?: Clock;
  /** Renew client-credentials tokens this long before expiry (default 60 s, capped at 10%). */
  renewBeforeMs?: number;
  /**
   * Where the clients of one process share a client id's token (a service may keep only the
   * newest token per client id); without it, this client's tokens are its own.
   */
  tokenPool?: ClientTokenPool;
  /** Told how each call about an account ended (its access state). */
  observer?: AccountAnswerObserver;
  /** Told the service's clock offset (service minus local, ms) when it is learned or moves. */
  onServiceClock?: (offsetMs: number) => void;
}

export class ServiceClient {
  readonly #opts: ServiceClientOptions;
  readonly #transport: HttpTransport;
  readonly #ownsTransport: boolean;
  readonly #scheduler: RateLimitScheduler;
  readonly #ownsScheduler: boolean;
  readonly #tokens: TokenManager;
  readonly #exec: RequestExecutor;
  readonly #push: push.PushContext;
  readonly #clock: Clock;
  readonly #serviceClock: ServiceClock;
  /** What this service refuses of the list queries: learned once, for every reader of the connection. */
  readonly sortMemory: SortMemory = { idRefused: false };
  /** How a failed page of a listing is waited for before it is read again: on this client's clock. */
  readonly readRetry: ReadRetry;

  constructor(opts: ServiceClientOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? systemClock;
    this.readRetry = { clock: this.#clock, ...READ_RETRY_BACKOFF };
    this.#ownsTransport = !opts.transport;
    this.#transport = opts.transport ?? new HttpTransport();
    this.#ownsScheduler = !opts.scheduler;
    this.#scheduler = opts.scheduler ?? new RateLimitScheduler({ clock: this.#clock });
    this.#tokens = new TokenManager({
      credentials: opts.credentials,
      authUrl: opts.authUrl,
      transport: this.#transport,
      clock: this.#clock,
      renewBeforeMs: opts.renewBeforeMs,
      ...(opts.tokenPool ? { pool: opts.tokenPool } : {}),
    });
    this.#serviceClock = new ServiceClock(() => this.#clock.now(), opts.onServiceClock);
    this.#exec = new RequestExecutor({
      transport: this.#transport,
      tokens: this.#tokens,
      scheduler: this.#scheduler,
      clock: this.#clock,
      serviceClock: this.#serviceClock,
      ...(opts.observer ? { observer: opts.observer } : {}),
    });
    this.#push = {
      exec: this.#exec,
      pushUrl: opts.pushUrl,
      rateAccount: pushBudgetAccount(opts.credentials.clientId),
      // "In the future" is the service's judgement, on its clock.
      now: () => this.#serviceClock.now(),
    };
  }

  /**
   * The service's time now, learned from its answers' Date headers (the local clock until it has
   * answered): what every comparison with a time the service made must use (DECISIONS client 10).
   */
  serviceNow(): number {
    return this.#serviceClock.now();
  }

  /** The learned clock itself (its offset is null until the service has answered). */
  get serviceClock(): ServiceClock {
    return this.#serviceClock;
  }

  get scheduler(): RateLimitScheduler {
    return this.#scheduler;
  }

  /** Token requests made so far by this client. */
  get tokenRequests(): number {
    return this.#tokens.renewals;
  }

  /** Gets a token now (to check credentials) without calling the API. */
  async authenticate(signal?: AbortSignal): Promise<void> {
    await this.#tokens.accessToken(signal);
  }

  snapshot(): SchedulerSnapshot {
    return this.#scheduler.snapshot();
  }

  /** The created campaign; null when the service took it without saying which one it made (posted, id unknown). */
  createCampaign(accountId: string, draft: CampaignCreate, opts?: CallOptions & { rules?: CampaignRuleContext }): Promise<Campaign | null> {
    return createCampaign(this.#exec, this.#opts.baseUrl, accountId, draft, opts);
  }

  listCampaigns(accountId: string, query: CampaignListQuery, opts?: CallOptions): Promise<CampaignPage> {
    return listCampaigns(this.#exec, this.#opts.baseUrl, accountId, query, opts);
  }

  /** The whole listing in one unpaged request, parsed as it streams in (see streamCampaigns). */
  streamCampaigns(
    accountId: string,
    query: Parameters<typeof streamCampaigns>[3],
    opts?: CallOptions,
    stream?: StreamOptions,
  ): AsyncGenerator<StreamedListing, void, void> {
    return streamCampaigns(this.#exec, this.#opts.baseUrl, accountId, query, opts, stream);
  }

  listAllCampaigns(
    accountId: string,
    query: Parameters<typeof listAllCampaigns>[3],
    opts?: ListAllOptions,
  ): Promise<{ campaigns: Campaign[]; total: number }> {
    return listAllCampaigns(this.#exec, this.#opts.baseUrl, accountId, query, {
      sortMemory: this.sortMemory,
      retry: this.readRetry,
      ...opts,
    });
  }

  authApps(opts?: CallOptions): Promise<Record<string, string>> {
    return push.authApps(this.#push, opts);
  }

  /** Resolves with the service's acknowledgement text, which carries no meaning (DECISIONS client 4). */
  sendPush(mode: PushMode, events: PushEvent[], opts?: CallOptions): Promise<push.PushAnswer> {
    return push.sendPush(this.#push, mode, events, opts);
  }

  listTasks(tagId: string, taskType?: push.TaskType, opts?: CallOptions): Promise<Task[]> {
    return push.listTasks(this.#push, tagId, taskType, opts);
  }

  updateTask(taskId: string, update: TaskUpdate, opts?: CallOptions): Promise<string> {
    return push.updateTask(this.#push, taskId, update, opts);
  }

  deleteTask(taskId: string, opts?: CallOptions): Promise<string> {
    return push.deleteTask(this.#push, taskId, opts);
  }

  setSwPath(req: SwPathRequest, opts?: CallOptions): Promise<void> {
    return push.setSwPath(this.#push, req, opts);
  }

  /** Releases what this client created; shared transport, scheduler and token pool stay open. */
  async close(): Promise<void> {
    this.#tokens.release();
    if (this.#ownsScheduler) this.#scheduler.close();
    if (this.#ownsTransport) await this.#transport.close();
  }
}
