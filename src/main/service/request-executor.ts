// One authenticated API call: bearer token, rate-limit scheduling, the one renewal a 401 allows
// (DECISIONS client 3) and a 403 allows once per token (it may be the token's), and one quiet
// resend of a read whose connection broke. Writes whose outcome is unknown are never resent here
// (DECISIONS client 8): the caller reconciles.
import type { Clock } from '../clock/clock';
import { QueueCancelledError, type Priority, type RateLimitScheduler } from '../ratelimit/scheduler';
import { isPushBudgetAccount, type EndpointGroup } from '../ratelimit/tiers';
import { budgetOfMethod } from '../../shared/domain/rate-tiers';
import { redact, ServiceError } from './errors';
import { carriesSecret } from './secret-fragments';
import type { HttpMethod, HttpResponse, HttpTransport, StreamingResponse } from './http-transport';
import { joinUrl } from './oauth';
import { errorFromResponse } from './response-errors';
import type { ServiceClock } from './service-clock';
import { signInRequired, type TokenManager } from './token-manager';

export interface CallOptions {
  /** Who waits for the answer (default 'interactive'). */
  priority?: Priority;
  signal?: AbortSignal;
  /** How long to wait for the answer's headers, instead of the transport's default. */
  headersTimeoutMs?: number;
}

export interface CallSpec {
  method: HttpMethod;
  /** Absolute base (base_url or push_url) and a path starting with '/'. */
  base: string;
  path: string;
  query?: URLSearchParams;
  json?: unknown;
  /** The budget this endpoint draws from, or null when it is not rate limited. */
  rate: { account: string; group: EndpointGroup } | null;
  /** For messages: "list the campaigns of acmeshoes". */
  what: string;
  /**
   * The 2xx answer is shown to the person as text (a push acknowledgement, whose meaning the
   * interface leaves open): the request's token is removed from it first, as from error answers.
   */
  shownAsText?: boolean;
}

/**
 * Told how each call about an account ended, so that the account's own state (access withdrawn)
 * is known wherever the call came from: refresh, outbox, a look-up. Push calls are the client's,
 * not an account's, and are not reported.
 */
export interface AccountAnswerObserver {
  answered(accountId: string): void;
  /** 403: these credentials no longer reach the account; `words` are the service's. */
  forbidden(accountId: string, words: string): void;
}

export interface ExecutorDeps {
  transport: HttpTransport;
  tokens: TokenManager;
  scheduler: RateLimitScheduler;
  clock: Clock;
  /** Learns the service's clock from every answer's Date header (DECISIONS client 10). */
  serviceClock?: ServiceClock;
  observer?: AccountAnswerObserver;
}

export class RequestExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  /** Resolves with a 2xx answer; everything else is a ServiceError. */
  call(spec: CallSpec, opts: CallOptions = {}): Promise<HttpResponse> {
    return this.#observed(spec, async () => {
      try {
        return await this.#authorized(spec, opts);
      } catch (e) {
        // A read changes nothing, so a read whose connection broke is simply asked again once.
        if (e instanceof ServiceError && e.kind === 'outcome_unknown' && spec.method === 'GET' && !opts.signal?.aborted) {
          return this.#authorized(spec, opts);
        }
        throw e;
      }
    });
  }

  /** Reports the outcome of a call about an account (not push) to the observer, if any. */
  async #observed<T>(spec: CallSpec, run: () => Promise<T>): Promise<T> {
    const observer = this.deps.observer;
    const account = spec.rate && !isPushBudgetAccount(spec.rate.account) ? spec.rate.account : null;
    if (!observer || account === null) return run();
    try {
      const r = await run();
      observer.answered(account);
      return r;
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'forbidden') observer.forbidden(account, e.serverText ?? e.message);
      throw e;
    }
  }

  /**
   * A read whose 2xx body is streamed rather than held (a whole campaign listing). Same token,
   * rate-limit and renewal rules as call(); the budget is spent when the request is admitted, and
   * a broken connection before the answer's headers is asked again once. Errors are read whole.
   */
  stream(spec: CallSpec, opts: CallOptions = {}): Promise<StreamingResponse> {
    const open = () => this.#authorized(spec, opts, true);
    return this.#observed(spec, async () => {
      try {
        return await open();
      } catch (e) {
        if (e instanceof ServiceError && e.kind === 'outcome_unknown' && spec.method === 'GET' && !opts.signal?.aborted) return open();
        throw e;
      }
    });
  }

  async #authorized(spec: CallSpec, opts: CallOptions): Promise<HttpResponse>;
  async #authorized(spec: CallSpec, opts: CallOptions, streaming: true): Promise<StreamingResponse>;
  async #authorized(spec: CallSpec, opts: CallOptions, streaming = false): Promise<HttpResponse | StreamingResponse> {
    const { tokens } = this.deps;
    // Fail early (before queueing) when the credentials cannot give a token at all.
    await tokenFor(tokens, opts.signal);
    let sent = await this.#send(spec, opts, streaming);
    if (sent.res.status === 401) {
      tokens.invalidate(sent.token);
      if (!tokens.canRenew) throw signInRequired(tokens.endedWords);
      sent = await this.#send(spec, opts, streaming);
      if (sent.res.status === 401) tokens.invalidate(sent.token);
    } else if (sent.res.status === 403 && tokens.renewAfterForbidden(sent.token)) {
      // A 403 may be the token's (a service may refuse a token it no longer knows with 403, or
      // fix a token's grants when it issues it): one new token, one more try, never more.
      if (!Buffer.isBuffer(sent.res.body)) sent.res.body.destroy();
      sent = await this.#send(spec, opts, streaming);
    }
    const { res, token } = sent;
    if (res.status >= 200 && res.status < 300) {
      if (!spec.shownAsText || streaming) return res;
      const whole = res as HttpResponse;
      const text = redact(whole.body.toString('utf8'), [token]);
      // An acknowledgement that still carries a piece of the token is not shown at all.
      return { ...whole, body: Buffer.from(carriesSecret(text, [token]) ? '' : text, 'utf8') };
    }
    // A Retry-After given as a date is a time on the service's clock.
    const now = this.deps.serviceClock?.now() ?? this.deps.clock.now();
    throw errorFromResponse(await wholeAnswer(res), { what: spec.what, secrets: [token], now });
  }

  async #send(spec: CallSpec, opts: CallOptions, streaming: boolean): Promise<{ res: HttpResponse | StreamingResponse; token: string }> {
    const { transport, tokens, scheduler } = this.deps;
    const url = joinUrl(spec.base, spec.path) + (spec.query && [...spec.query].length > 0 ? `?${spec.query.toString()}` : '');
    const body = spec.json === undefined ? undefined : JSON.stringify(spec.json);
    let token = '';
    const attempt = async (): Promise<HttpResponse | StreamingResponse> => {
      // Fetched when the request is admitted, not when it was queued: a long wait in the
      // queue must not send an expired token.
      token = await tokenFor(tokens, opts.signal);
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const sentAt = this.deps.clock.now();
      const req = {
        method: spec.method,
        url,
        headers,
        body,
        signal: opts.signal,
        ...(opts.headersTimeoutMs !== undefined ? { headersTimeoutMs: opts.headersTimeoutMs } : {}),
      };
      const res = streaming ? await transport.stream(req) : await transport.send(req);
      this.deps.serviceClock?.observe(sentAt, this.deps.clock.now(), res.headers.date);
      return res;
    };
    try {
      const res = spec.rate
        ? await scheduler.run(
            {
              account: spec.rate.account,
              group: spec.rate.group,
              budget: budgetOfMethod(spec.method),
              priority: opts.priority,
              signal: opts.signal,
            },
            attempt,
          )
        : await attempt();
      return { res, token };
    } catch (e) {
      if (e instanceof QueueCancelledError) {
        throw new ServiceError({
          kind: 'cancelled',
          requestWritten: false,
          message: `The request to ${spec.what} was cancelled before it was sent.`,
        });
      }
      throw e;
    }
  }
}

/**
 * The access token for an API request. However its own request to the authorization server ended
 * (a 503, a timeout, a dropped connection), the API request itself never left: its failure says
 * so, and a create is then sent again, not looked for as if it might have been applied.
 */
async function tokenFor(tokens: TokenManager, signal: AbortSignal | undefined): Promise<string> {
  try {
    return await tokens.accessToken(signal);
  } catch (e) {
    if (e instanceof ServiceError) throw new ServiceError({ ...e.toJSON(), requestWritten: false });
    throw e;
  }
}

/** Bytes of an error answer read from a stream (its words, not a listing). */
const MAX_ERROR_BODY = 64 * 1024;

/** An answer as send() gives it: a streamed one (an error of a streaming read) is read, bounded. */
async function wholeAnswer(res: HttpResponse | StreamingResponse): Promise<HttpResponse> {
  if (Buffer.isBuffer(res.body)) return res as HttpResponse;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_ERROR_BODY) break;
    }
  } catch {
    // What was read is enough to say what went wrong.
  } finally {
    res.body.destroy();
  }
  return { status: res.status, headers: res.headers, body: Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY) };
}
