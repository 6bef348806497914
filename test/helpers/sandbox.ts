// The one base for tests that talk to a real sandbox over real HTTP (undici on 127.0.0.1): a raw
// request, its control API (faults, variants, the request log, the service's own state), a token,
// a person signing in on its login page, the small known world of fixtures, and valid bodies to
// send it. The test world (world.ts) and every room's helpers build on it.
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { parseJsonLossless } from '../../src/main/service/lossless-json';
import { startSandbox, type Fixtures, type RunningSandbox, type Variants } from '../../src/sandbox/index';
import { controlHeaders, type SandboxRef } from './control';
import { testFixtures } from './fixtures';
import { testVariants } from './variants';

export { controlHeaders, type SandboxRef };

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
}

export interface CallOptions {
  token?: string;
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** One request; the body is always read so the connection goes back to the pool. */
export async function call(sb: SandboxRef, method: string, path: string, opts: CallOptions = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...controlHeaders(sb, path), ...opts.headers };
  let body = opts.body;
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.json);
  }
  if (opts.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await request(`${sb.url}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: flatHeaders(res.headers), text, body: parsed };
}

/**
 * A call of the control API, its answer read losslessly: under id_range ids beyond 2^53 come as
 * their digits (strings), where JSON.parse would round them.
 */
export async function control(sb: SandboxRef, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const r = await call(sb, method, path, body === undefined ? {} : { json: body });
  return parseJsonLossless(r.text);
}

/** Injects a fault (docs/sandbox.md "Faults"); fails the test when the sandbox refuses the spec. */
export async function fault(sb: SandboxRef, spec: Record<string, unknown>): Promise<unknown> {
  const r = await call(sb, 'POST', '/_sandbox/faults', { json: spec });
  if (r.status !== 201) throw new Error(`fault not accepted: ${r.status} ${r.text}`);
  return parseJsonLossless(r.text);
}

/** The run's variants (SANDBOX_VARIANTS) with `extra` on top, played from now on. */
export async function playVariants(sb: SandboxRef, extra: Variants): Promise<Variants> {
  const all = { ...testVariants(), ...extra };
  const r = await call(sb, 'PUT', '/_sandbox/variants', { json: all });
  if (r.status !== 200) throw new Error(`PUT /_sandbox/variants: ${r.status} ${r.text}`);
  return all;
}

/** One entry of the sandbox's request log (docs/sandbox.md "Request log"). */
export interface LoggedRequest {
  seq: number;
  /** The service's clock when it was handled, ms. */
  time: number;
  method: string;
  path: string;
  /** The query's sort parameter, if any. */
  sort: string | null;
  account: string | null;
  /** The rate-limit group and budget it was counted in, if any. */
  group: string | null;
  budget: string | null;
  /** Counted against a rate limit. */
  limited: boolean;
  status: number | null;
  outcome: string;
}

/** A request for a token, at either of the token endpoints (spec 4.4, 4.5). */
export const isTokenRequest = (r: LoggedRequest) => r.path === '/authentication/oauth/token' || r.path === '/core/oauth/token';

/** What the sandbox was asked after request number `since`, in order. */
export async function requestLog(sb: SandboxRef, since = 0): Promise<LoggedRequest[]> {
  return ((await control(sb, 'GET', `/_sandbox/requests?since=${since}`)) as { requests: LoggedRequest[] }).requests;
}

export interface CampaignOnService {
  id: number;
  name: string;
  advertiser_id: string;
  spending_limit_model: string | null;
}

/** The campaigns the service holds (of `account`, or all), read from its state, not through a listing. */
export async function sandboxCampaigns(sb: SandboxRef, account?: string): Promise<CampaignOnService[]> {
  const path = `/_sandbox/state/campaigns${account ? `?account=${account}` : ''}`;
  return ((await control(sb, 'GET', path)) as { campaigns: CampaignOnService[] }).campaigns;
}

/** The campaigns of `account` the service holds under `name` (as written, spaces trimmed). */
export async function onService(sb: SandboxRef, account: string, name: string): Promise<CampaignOnService[]> {
  return (await sandboxCampaigns(sb, account)).filter((c) => c.name.trim() === name.trim());
}

export interface TaskOnService {
  taskId: number;
  tagId: number;
  taskType: string;
  title: string;
  performer: string;
  thumbnailUrl?: string | null;
  iconUrl?: string | null;
  taskStatus: string;
  executionTime: number;
}

/** The push tasks the service holds (of `app`, or all). */
export async function tasksOnService(sb: SandboxRef, app?: string): Promise<TaskOnService[]> {
  return ((await control(sb, 'GET', `/_sandbox/state/tasks${app ? `?app=${app}` : ''}`)) as { tasks: TaskOnService[] }).tasks;
}

/**
 * A client-credentials token. The credentials go as HTTP Basic (id and secret form-encoded, RFC
 * 6749 2.3.1), which every sandbox accepts, also one playing token_client_auth.
 */
export async function tokenFor(sb: { url: string }, clientId = 'demo-client', secret = 'demo-secret'): Promise<string> {
  const formEncoded = (s: string) => new URLSearchParams([['', s]]).toString().slice(1);
  const basic = Buffer.from(`${formEncoded(clientId)}:${formEncoded(secret)}`).toString('base64');
  const r = await call(sb, 'POST', '/authentication/oauth/token', {
    form: { grant_type: 'client_credentials' },
    headers: { authorization: `Basic ${basic}` },
  });
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
  return (r.body as { access_token: string }).access_token;
}

function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) out[m[1]] = decode(m[2]);
  return out;
}

/**
 * A person in a browser: opens the authorize URL, submits the sandbox's login form with these
 * credentials, and follows the redirect to wherever it points (our loopback listener).
 */
export function loginAs(
  username: string,
  password: string,
  seen: { callbackStatus?: number; callbackBody?: string; callbackUrl?: string } = {},
  decision: 'allow' | 'deny' = 'allow',
) {
  return async (authorizeUrl: string): Promise<void> => {
    const page = await request(authorizeUrl);
    const html = await page.body.text();
    if (page.statusCode !== 200) throw new Error(`authorize page answered ${page.statusCode}: ${html}`);
    const form = { ...hiddenFields(html), username, password, decision };
    const posted = await request(authorizeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    await posted.body.text();
    const location = posted.headers.location;
    if (posted.statusCode !== 302 || typeof location !== 'string') throw new Error(`login answered ${posted.statusCode}`);
    seen.callbackUrl = location;
    const callback = await request(location);
    seen.callbackStatus = callback.statusCode;
    seen.callbackBody = await callback.body.text();
  };
}

export { DAY, T0, testFixtures, type WorldOptions } from './fixtures';

/** A manual-clock sandbox on a free port with `testFixtures()` (or the given fixtures). */
export function startTestSandbox(fixtures: Fixtures = testFixtures()): Promise<RunningSandbox> {
  return startSandbox({ clock: 'manual', fixtures });
}

/** A valid create body (and campaign draft payload) for a native FIXED campaign with a monthly limit. */
export function campaignPayload(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    branding_text: 'Acme Shoes',
    cpc: 0.35,
    spending_limit: 1500,
    spending_limit_model: 'MONTHLY',
    bid_strategy: 'FIXED',
    marketing_objective: 'DRIVE_WEBSITE_TRAFFIC',
    ...overrides,
  };
}

/** campaignPayload named 'Spring sale', as a plain record. */
export function nativeCampaign(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return campaignPayload('Spring sale', overrides);
}

/** A valid push event for app 1001 (an executionTime can be added for scheduled pushes). */
export function pushEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Evening digest',
    url: 'https://news.example.com/digest',
    performer: 'editor@example.com',
    target: { include: { apps: ['1001'] } },
    ...overrides,
  };
}

/**
 * The usual life of a sandbox in a test file: started once, closed at the end, and before every
 * test reset to its fixtures and handed to `ready` with a fresh demo-client token, so tests never
 * see each other's data, tokens or rate-limit windows.
 */
export function sandboxPerFile(ready: (sb: RunningSandbox, token: string) => void, fixtures: () => Fixtures = testFixtures): void {
  let sb: RunningSandbox | undefined;
  beforeAll(async () => {
    sb = await startTestSandbox(fixtures());
  });
  afterAll(() => sb?.close());
  beforeEach(async () => {
    if (!sb) throw new Error('the sandbox did not start');
    await call(sb, 'POST', '/_sandbox/reset');
    ready(sb, await tokenFor(sb));
  });
}
